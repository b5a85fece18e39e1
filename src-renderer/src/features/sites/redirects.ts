import { BULK_REDIRECTS_MAX, REDIRECT_SOURCE_MAX, REDIRECT_SOURCE_PATTERN } from '../../../../src-shared/redirects.ts'
import type { ContentPage, SiteRedirect, SiteRedirectDestination, SiteSpace } from '../../api/types.ts'
import { sectionsOf, siteSpacesOf, type Structure } from './siteTree.ts'

/** Rows the bulk write takes at once. */
export const BULK_BATCH = BULK_REDIRECTS_MAX

const SOURCE = new RegExp(REDIRECT_SOURCE_PATTERN)

/** A source path as the API accepts it: `undefined` when fine, else why not. */
export function sourceError(source: string): string | undefined {
  if (!source) return 'the source is empty'
  if (source.length > REDIRECT_SOURCE_MAX) return `the source is longer than ${REDIRECT_SOURCE_MAX} characters`
  if (!SOURCE.test(source))
    return 'the source must be a path like /old/page (letters, digits, -._~+ and %-escapes), optionally ending with *'
  return undefined
}

const decode = (path: string) => {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}
const normal = (path: string) => `/${decode(path).replace(/^\/+|\/+$/g, '')}`

/** Where things live in the published site: path → section, site space or page, and back. */
export interface SitePaths {
  byPath: Map<string, SiteRedirectDestination>
  sections: Map<string, string>
  siteSpaces: Map<string, string>
  /** `${siteSpaceId}/${pageId}` → path. */
  pages: Map<string, string>
}

/** The site's paths from its structure and the page trees of its spaces (by space id; a missing one has no pages yet). */
export function sitePaths(structure: Structure, pagesBySpace: ReadonlyMap<string, ContentPage[]>): SitePaths {
  const paths: SitePaths = { byPath: new Map(), sections: new Map(), siteSpaces: new Map(), pages: new Map() }
  const sections = structure.type === 'sections' ? sectionsOf(structure) : []
  for (const section of sections) {
    const path = `/${section.path}`
    paths.sections.set(section.id, path)
    paths.byPath.set(path, { kind: 'site-section', siteSectionId: section.id })
  }
  for (const siteSpace of siteSpacesOf(structure)) {
    const section = sections.find((s) => s.id === siteSpace.section || s.siteSpaces.some((ss) => ss.id === siteSpace.id))
    const base = section ? `/${section.path}/${siteSpace.path}` : `/${siteSpace.path}`
    paths.siteSpaces.set(siteSpace.id, base)
    paths.byPath.set(base, { kind: 'site-space', siteSpaceId: siteSpace.id })
    addPages(paths, siteSpace, base, pagesBySpace.get(siteSpace.space?.id ?? '') ?? [])
  }
  return paths
}

function addPages(paths: SitePaths, siteSpace: SiteSpace, base: string, pages: ContentPage[]) {
  for (const page of pages) {
    // Hidden pages are not in the published site; links lead elsewhere.
    if (!page.hidden && page.type !== 'link') {
      const path = `${base}/${page.path}`
      paths.pages.set(`${siteSpace.id}/${page.id}`, path)
      if (!paths.byPath.has(path)) paths.byPath.set(path, { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: page.id })
    }
    addPages(paths, siteSpace, base, (page.pages ?? []) as ContentPage[])
  }
}

/** What a destination reads as: its URL, or its path in the site; undefined when it no longer exists. */
export function destinationText(destination: SiteRedirectDestination, paths: SitePaths): string | undefined {
  switch (destination.kind) {
    case 'external':
      return destination.url
    case 'site-section':
      return paths.sections.get(destination.siteSectionId)
    case 'site-space':
      return paths.siteSpaces.get(destination.siteSpaceId)
    case 'site-page':
      return paths.pages.get(`${destination.siteSpaceId}/${destination.pageId}`)
  }
}

/** A destination typed by hand or read from a CSV: an http(s) URL, or a path of the site (`/guides/install`). */
export function parseDestination(text: string, paths: SitePaths): { destination: SiteRedirectDestination } | { error: string } {
  const value = text.trim()
  if (!value) return { error: 'the destination is empty' }
  if (/^https?:\/\//i.test(value)) {
    try {
      new URL(value)
      return { destination: { kind: 'external', url: value } }
    } catch {
      return { error: `${value} is not a valid URL` }
    }
  }
  if (!value.startsWith('/')) return { error: 'the destination must be an http(s) URL or a path of the site starting with /' }
  const found = paths.byPath.get(normal(value.split(/[?#]/)[0]!))
  return found ? { destination: found } : { error: `no page, site space or section at ${value} in this site` }
}

/** Why a redirect deserves a look: its destination is gone, or its source is a live page it hides. */
export interface RedirectWarnings {
  missingDestination: boolean
  shadowsPage: boolean
}

export function redirectWarnings(redirect: Pick<SiteRedirect, 'source' | 'destination'>, paths: SitePaths): RedirectWarnings {
  const wildcard = redirect.source.endsWith('*')
  return {
    missingDestination: destinationText(redirect.destination, paths) === undefined,
    shadowsPage: !wildcard && paths.byPath.has(normal(redirect.source))
  }
}

// --- CSV ------------------------------------------------------------------------------------------------------

/** A line of an imported CSV, checked. */
export interface CsvRedirect {
  line: number
  source: string
  destination: SiteRedirectDestination
}

/** Splits CSV text into records (RFC 4180: quoted fields may hold commas, quotes as "" and line breaks). */
function records(text: string): { line: number; fields: string[] }[] {
  const out: { line: number; fields: string[] }[] = []
  let fields: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  let start = 1
  const end = () => {
    fields.push(field)
    if (fields.length > 1 || fields[0]!.trim() !== '') out.push({ line: start, fields })
    fields = []
    field = ''
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else {
        if (c === '\n') line++
        field += c
      }
    } else if (c === '"' && field.trim() === '') {
      quoted = true
      field = ''
    } else if (c === ',') {
      fields.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      end()
      line++
      start = line
    } else field += c
  }
  if (field !== '' || fields.length) end()
  return out
}

/**
 * Reads a CSV of redirects, one `source,destination` a line (a first line `source,destination` is a header).
 * Every line is checked before anything is sent: a source the API would refuse, a destination that is not a URL
 * or a path of the site, a source twice in the file. `errors` name their line.
 */
export function parseRedirectCsv(text: string, paths: SitePaths): { rows: CsvRedirect[]; errors: { line: number; message: string }[] } {
  const rows: CsvRedirect[] = []
  const errors: { line: number; message: string }[] = []
  const seen = new Map<string, number>()
  for (const [i, { line, fields }] of records(text.replace(/^\uFEFF/, '')).entries()) {
    const [source = '', destination = '', ...extra] = fields.map((f) => f.trim())
    if (i === 0 && source.toLowerCase() === 'source' && destination.toLowerCase() === 'destination') continue
    if (extra.some(Boolean)) {
      errors.push({ line, message: `expected 2 columns (source,destination), found ${fields.length}` })
      continue
    }
    const bad = sourceError(source)
    if (bad) {
      errors.push({ line, message: bad })
      continue
    }
    if (seen.has(source)) {
      errors.push({ line, message: `${source} is already on line ${seen.get(source)}` })
      continue
    }
    seen.set(source, line)
    const parsed = parseDestination(destination, paths)
    if ('error' in parsed) errors.push({ line, message: parsed.error })
    else rows.push({ line, source, destination: parsed.destination })
  }
  return { rows, errors }
}

const csvField = (value: string) => (/[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value)

/** The redirects as CSV (header, then `source,destination`), as the import reads it back. Gone destinations are left empty. */
export function redirectsToCsv(redirects: Pick<SiteRedirect, 'source' | 'destination'>[], paths: SitePaths): string {
  const lines = [
    'source,destination',
    ...redirects.map((r) => `${csvField(r.source)},${csvField(destinationText(r.destination, paths) ?? '')}`)
  ]
  return `${lines.join('\r\n')}\r\n`
}

/** Splits rows into batches the bulk write accepts. */
export function batches<T>(rows: T[], size = BULK_BATCH): T[][] {
  const out: T[][] = []
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size))
  return out
}
