import { deflateRawSync, inflateRawSync } from 'node:zlib'

// How a document's text is stored (the documents table; content/documents.ts reads and writes it):
// - `markdown`: the markdown deflated (raw DEFLATE) as a BLOB, or as TEXT when deflating would not make it
//   smaller (a few words). Readers take either.
// - `sections`: the document split at its headings (anchor, title and plain text of each) as JSON
//   `[[id, title, body], …]`, deflated with the markdown as the preset dictionary: the sections' text is the
//   markdown's text, so it costs a few back-references (a tenth of its size deflated alone). NULL: not split yet.
// - `links`: every link and image URL of the markdown in order, as JSON `[[relation, url], …]`; NULL: none.

/** A link of a document as stored (content/markdown.ts's FoundLink). */
export interface StoredLink {
  url: string
  relation: 'link' | 'image'
}

export function packLinks(links: StoredLink[]): string | null {
  return links.length ? JSON.stringify(links.map((x) => [x.relation, x.url])) : null
}

export function unpackLinks(stored: string): StoredLink[] {
  return (JSON.parse(stored) as [StoredLink['relation'], string][]).map(([relation, url]) => ({ relation, url }))
}

/** A section of a document as stored (content/markdown.ts's Section). */
export interface StoredSection {
  id: string
  title: string
  body: string
}

export type StoredMarkdown = string | Buffer

/** Markdown as stored: deflated when that is smaller, else the text itself. */
export function packMarkdown(markdown: string): StoredMarkdown {
  const bytes = Buffer.from(markdown)
  const packed = deflateRawSync(bytes)
  return packed.length < bytes.length ? packed : markdown
}

/** The markdown's UTF-8 bytes from its stored form. */
export function markdownBytes(stored: StoredMarkdown): Buffer {
  return typeof stored === 'string' ? Buffer.from(stored) : inflateRawSync(stored)
}

export function unpackMarkdown(stored: StoredMarkdown): string {
  return typeof stored === 'string' ? stored : inflateRawSync(stored).toString()
}

/** Sections as stored: their JSON deflated against the document's markdown (its bytes). */
export function packSections(sections: StoredSection[], markdown: Buffer): Buffer {
  const json = JSON.stringify(sections.map((x) => [x.id, x.title, x.body]))
  return deflateRawSync(json, markdown.length ? { dictionary: markdown } : {})
}

export function unpackSections(stored: Buffer, markdown: Buffer): StoredSection[] {
  const rows = JSON.parse(inflateRawSync(stored, markdown.length ? { dictionary: markdown } : {}).toString()) as [string, string, string][]
  return rows.map(([id, title, body]) => ({ id, title, body }))
}
