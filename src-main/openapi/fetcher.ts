import type { OpenAPIErrorCode, OpenAPIErrorLocation, OpenAPIProcessError } from '../../src-shared/schemas/openapi'

/** A processing failure with the code recorded in the spec's `lastProcessErrorCode`, and where it is when known. */
export class ProcessingError extends Error {
  constructor(
    readonly code: OpenAPIErrorCode,
    message: string,
    public location?: OpenAPIErrorLocation,
    public lines?: OpenAPIProcessError['lines']
  ) {
    super(message)
  }
}

/** The processing was stopped from outside (the server is closing); nothing is recorded. */
export class ProcessingCancelled extends Error {}

export interface FetchOptions {
  timeoutMs: number
  maxBytes: number
  /** Aborted when the server closes. */
  signal: AbortSignal
}

/** A URL fit for messages and logs: basic-auth credentials removed. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.href
  } catch {
    return '(invalid URL)'
  }
}

export const isHttpUrl = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:'

/**
 * Reads `url` as text within `timeoutMs` (headers and body both: a server that stalls mid-body times out too)
 * and `maxBytes`. Timeouts are FETCH_TIMEOUT; unreachable hosts, non-2xx answers and oversized bodies are
 * FETCH_ERROR. Redirects are followed (fetch follows only http and https).
 */
export async function fetchDocument(url: string, options: FetchOptions): Promise<{ url: string; text: string }> {
  const shown = withoutCredentials(url)
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = AbortSignal.any([timeout, options.signal])
  const failed = (error: unknown): Error => {
    if (options.signal.aborted) return new ProcessingCancelled('cancelled')
    if (timeout.aborted) return new ProcessingError('FETCH_TIMEOUT', `${shown} did not answer within ${options.timeoutMs} ms`)
    if (error instanceof ProcessingError) return error
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message
    return new ProcessingError('FETCH_ERROR', `${shown} could not be fetched (${cause})`)
  }
  // fetch() refuses URLs with credentials: basic auth in the URL (a private spec) becomes the header.
  const target = new URL(url)
  const headers: Record<string, string> = {
    accept: 'application/yaml, application/json;q=0.9, text/*;q=0.8, */*;q=0.5',
    'user-agent': 'Quire-OpenAPI/1.0'
  }
  if (target.username || target.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`
    target.username = ''
    target.password = ''
  }
  let res: Response
  try {
    res = await fetch(target, { signal, redirect: 'follow', headers })
  } catch (error) {
    throw failed(error)
  }
  try {
    if (!res.ok) throw new ProcessingError('FETCH_ERROR', `${shown} answered HTTP ${res.status}`)
    const tooLarge = () => new ProcessingError('FETCH_ERROR', `${shown} is larger than ${options.maxBytes} bytes`)
    if (Number(res.headers.get('content-length')) > options.maxBytes) throw tooLarge()
    const chunks: Uint8Array[] = []
    let size = 0
    for await (const chunk of (res.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength
      if (size > options.maxBytes) throw tooLarge()
      chunks.push(chunk)
    }
    // TextDecoder drops a UTF-8 byte-order mark; specs are UTF-8 (YAML 1.2 and JSON both say so).
    // Not redirected: keep the URL as given (with any credentials), so relative `$ref`s get them too.
    const final = res.url && res.url !== target.href ? res.url : url
    return { url: final, text: new TextDecoder('utf-8').decode(Buffer.concat(chunks)) }
  } catch (error) {
    await res.body?.cancel().catch(() => {})
    throw failed(error)
  }
}
