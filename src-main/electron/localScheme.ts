// `quire://local/…`: how the desktop app's pages reach what the loopback server serves besides /v1 — file
// downloads (images in the editor's preview), PDFs and the local site preview — without opening a port. Plain Node
// (no 'electron' import) so the rules are tested under Node; main.ts wires them to `protocol.handle`.

export const LOCAL_SCHEME = 'quire'
/** The base of every URL the embedded API gives out in the desktop app (`urls.location`, `downloadURL`, …). */
export const LOCAL_ORIGIN = `${LOCAL_SCHEME}://local`
/** The origin the in-process backend is asked under (any valid origin; only path and query reach it). */
export const BACKEND_ORIGIN = 'http://quire.localhost'

// Only public-by-design or self-authorizing paths: /files/ and /pdf/ carry a signed token, the preview applies
// the site's own visibility. /v1 stays behind the IPC bridge, which adds the session token.
const ALLOWED = [
  /^\/files\/[^/]+\/[^/]+\/[^/]+\/[^/]+$/,
  /^\/pdf\/[^/]+\/[^/]+\/[^/]+$/,
  /^\/preview\/sites\//,
  /^\/integrations\/[^/]+\/assets\/[^/]+$/
]
const FORWARDED_HEADERS = ['range', 'if-none-match', 'if-modified-since', 'accept']

/** The backend request for a `quire://local/…` request, or undefined when the path is not served that way. */
export function localSchemeRequest(url: string, method: string, headers: Headers): Request | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  if (`${parsed.protocol}//${parsed.host}` !== LOCAL_ORIGIN || !ALLOWED.some((re) => re.test(parsed.pathname))) return undefined
  const forwarded = new Headers()
  for (const name of FORWARDED_HEADERS) {
    const value = headers.get(name)
    if (value !== null) forwarded.set(name, value)
  }
  return new Request(new URL(parsed.pathname + parsed.search, BACKEND_ORIGIN), { method, headers: forwarded })
}

/** True for a page of the local site preview (it may open in its own window and navigate within the preview). */
export function isLocalPreviewUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}` === LOCAL_ORIGIN && parsed.pathname.startsWith('/preview/sites/')
  } catch {
    return false
  }
}
