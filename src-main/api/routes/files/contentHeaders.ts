import type { FastifyReply } from 'fastify'

/**
 * A `Content-Disposition` value that every browser reads safely: a plain-ASCII `filename` (quotes, slashes and
 * control characters replaced) and the exact name as RFC 5987 `filename*`.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\/%;]/g, '_').trim() || 'download'
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${exact}`
}

/**
 * Headers of a download served from the app's own origin. Uploaded content never runs there: `nosniff`, and a
 * sandboxing CSP so an uploaded SVG or HTML file cannot script the app. `etag` is the content hash: the bytes behind a URL
 * never change (content-addressed), so the browser may keep them.
 */
export function sendDownload(
  reply: FastifyReply,
  file: { bytes: Buffer; contentType: string; name: string; etag: string; inline: boolean; sandbox?: boolean },
  ifNoneMatch: string | undefined,
  /** For a URL whose bytes may change (it names no revision): asked again each time, answered 304 when unchanged. */
  options: { mutable?: boolean } = {}
) {
  const etag = `"${file.etag}"`
  reply
    .header('Cache-Control', options.mutable ? 'private, no-cache' : 'private, max-age=31536000, immutable')
    .header('ETag', etag)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', contentDisposition(file.inline ? 'inline' : 'attachment', file.name))
  // Browsers refuse to show a PDF in a sandboxed document, so PDFs the app renders itself go without one.
  if (file.sandbox !== false)
    reply.header('Content-Security-Policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox")
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag)) return reply.code(304).send()
  return reply.type(file.contentType).header('Content-Length', file.bytes.byteLength).send(file.bytes)
}
