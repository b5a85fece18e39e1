/** Why an import could not use a URL; the route answers 400 with `url: <message>`. */
export class ImportError extends Error {}

export interface FetchedResource {
  /** The final URL, after redirects (relative links resolve against it). */
  url: string
  /** Media type without parameters, lower case (`text/html`). */
  mediaType: string
  charset: string | undefined
  bytes: Buffer
}

export interface FetchLimits {
  timeoutMs: number
  maxBytes: number
  /** Aborts the fetch from outside (a whole crawl's deadline). */
  signal?: AbortSignal
}

const describeCause = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error as Error).message ?? 'unknown error'
}

/** Whether `url` is an absolute http(s) URL (false for anything that does not parse). */
export function isHttpUrl(url: string): boolean {
  try {
    return /^https?:$/.test(new URL(url).protocol)
  } catch {
    return false
  }
}

/**
 * Fetches `url` with a timeout and a size cap (checked on `Content-Length` and again while reading, since a
 * server may send neither or lie). Redirects are followed but must stay on http(s). Any failure is an
 * ImportError that says what went wrong, for the caller to show.
 */
export async function fetchResource(url: string, limits: FetchLimits, accept = '*/*'): Promise<FetchedResource> {
  const timeout = AbortSignal.timeout(limits.timeoutMs)
  const signal = limits.signal ? AbortSignal.any([timeout, limits.signal]) : timeout
  let res: Response
  try {
    res = await fetch(url, { signal, redirect: 'follow', headers: { accept, 'user-agent': 'Quire-Import/1.0' } })
  } catch (error) {
    if (timeout.aborted) throw new ImportError(`${url} did not answer within ${limits.timeoutMs / 1000} s`)
    if (signal.aborted) throw new ImportError(`${url} could not be fetched before the import's deadline`)
    throw new ImportError(`${url} could not be reached (${describeCause(error)})`)
  }
  try {
    if (!isHttpUrl(res.url || url)) throw new ImportError(`${url} redirected to a URL that is not http or https`)
    if (!res.ok) throw new ImportError(`${url} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`)
    const tooLarge = () => new ImportError(`${url} is larger than ${Math.round(limits.maxBytes / 1024 / 1024)} MB`)
    const declared = Number(res.headers.get('content-length'))
    if (declared > limits.maxBytes) throw tooLarge()
    const chunks: Buffer[] = []
    let size = 0
    if (res.body) {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength
        if (size > limits.maxBytes) throw tooLarge()
        chunks.push(Buffer.from(chunk))
      }
    }
    const [type = '', ...params] = (res.headers.get('content-type') ?? '').split(';')
    const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";]+)"?/i.exec(p)?.[1]).find(Boolean)
    return { url: res.url || url, mediaType: type.trim().toLowerCase(), charset, bytes: Buffer.concat(chunks) }
  } catch (error) {
    // Stop the transfer of whatever is left of a refused body.
    await res.body?.cancel().catch(() => {})
    if (error instanceof ImportError) throw error
    if (timeout.aborted) throw new ImportError(`${url} did not answer within ${limits.timeoutMs / 1000} s`)
    throw new ImportError(`${url} could not be read (${describeCause(error)})`)
  }
}

/** The body as text, in its declared charset (UTF-8 when none or unknown); a byte-order mark wins. */
export function textOf(resource: FetchedResource): string {
  let label = resource.charset ?? 'utf-8'
  if (resource.bytes[0] === 0xef && resource.bytes[1] === 0xbb && resource.bytes[2] === 0xbf) label = 'utf-8'
  try {
    return new TextDecoder(label).decode(resource.bytes)
  } catch {
    return new TextDecoder('utf-8').decode(resource.bytes)
  }
}
