import { request } from 'node:http'

/**
 * Packages a start of the server must not load: they load on first use (PDF: pdfkit, fontkit and the fonts; Word
 * and HTML import: mammoth, turndown, domino; Git: isomorphic-git; OpenAPI validation; JWTs: jose). Checked on the
 * sources (cli/startLoads.test.ts) and on the build (`npm run bench -- --only cold-start`).
 */
export const LAZY_PACKAGES = [
  'pdfkit',
  'fontkit',
  '@embedpdf/fonts-latin',
  'mammoth',
  'turndown',
  '@joplin/turndown-plugin-gfm',
  '@mixmark-io/domino',
  'isomorphic-git',
  '@seriousme/openapi-schema-validator',
  'jose'
]

/** The packages named in a module log (moduleLog.mjs): each line's `node_modules/<package>/`. */
export function packagesInLog(text: string): Set<string> {
  const packages = new Set<string>()
  for (const line of text.split('\n')) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line)
    if (match) packages.add(match[1]!)
  }
  return packages
}

/** GET `url` with a bearer token; answers the status (node:http: a client with nothing to load on its first call). */
export function getStatus(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end()
  })
}
