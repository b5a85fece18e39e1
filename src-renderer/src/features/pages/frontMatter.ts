// A page's YAML front matter (the `---` block at the top of its markdown), read for the strip above the preview.
// Pure: tested in Node. The server stores the markdown as written; a YAML error here only warns.
import { parseDocument, stringify } from 'yaml'
import { frontMatterSource } from '../../../../src-shared/frontMatter.ts'

export interface FrontMatterEntry {
  key: string
  value: string
}

export interface FrontMatter {
  /** False when the markdown has no front matter block. */
  present: boolean
  entries: FrontMatterEntry[]
  /** What is wrong with the block, with its line in the whole document when YAML says where. */
  error?: { message: string; line?: number }
}

export function readFrontMatter(markdown: string): FrontMatter {
  const source = frontMatterSource(markdown)
  if (source === null) return { present: false, entries: [] }
  if (!source.trim()) return { present: true, entries: [] }
  const doc = parseDocument(source)
  const problem = doc.errors[0]
  if (problem) {
    // +1: YAML counts from the line after the opening `---`, people count from the top of the page.
    const line = problem.linePos?.[0]?.line
    return { present: true, entries: [], error: { message: firstLine(problem.message), line: line === undefined ? undefined : line + 1 } }
  }
  const value: unknown = doc.toJS()
  if (value === null || value === undefined) return { present: true, entries: [] }
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { present: true, entries: [], error: { message: 'Front matter must be a list of “key: value” lines' } }
  }
  return {
    present: true,
    entries: Object.entries(value as Record<string, unknown>).map(([key, v]) => ({ key, value: displayValue(v) }))
  }
}

/** YAML's message without its own position and code excerpt (the line shown is the page's). */
function firstLine(text: string): string {
  return text
    .split('\n', 1)[0]!
    .replace(/\s*at line \d+, column \d+:?$/, '')
    .trim()
}

/** Scalars as they read, lists joined by commas, anything nested as one line of YAML flow style. */
function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '—'
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  if (typeof value !== 'object') return String(value)
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.map((v) => String(v)).join(', ')
  return stringify(value, { collectionStyle: 'flow' }).trim()
}
