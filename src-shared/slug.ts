// Slugs and heading anchors, shared by main (page slugs, search sections) and the renderer (the preview's
// heading ids, so a search result's section opens at its heading). Pure TypeScript, no imports.

/**
 * URL slug of a title: its letters, digits and marks of every script, lower-case (NFC), runs of anything else as
 * one dash, at most `max` characters (`Größe 文档` → `größe-文档`). Where a URL is built from it, each segment is
 * percent-encoded.
 */
export function slugify(title: string, max = 100): string {
  const slug = title
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
  // Cut by code points, never inside a surrogate pair.
  return (slug.length <= max ? slug : [...slug].slice(0, max).join('')).replace(/-+$/, '')
}

/**
 * ASCII slug of a name: lower-case ASCII letters and digits joined by dashes, accents dropped, at most `max`
 * characters, for names that must stay ASCII (workspace ids, file names of backups, site paths).
 */
export function asciiSlug(name: string, max = 100): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\u00df/g, 'ss') // ß
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '')
}

/**
 * Anchor ids of one document's headings, handed out in document order: the heading text's slug (`section` when
 * it has none), and `-1`, `-2`… after the first use of a slug. A search result's section id is one of these
 * (markdown.ts `sectionsOf`), and so is the id the editor's preview gives the heading.
 */
export function headingIds(): (text: string) => string {
  const used = new Map<string, number>()
  return (text) => {
    const base = slugify(text.trim()) || 'section'
    const n = used.get(base) ?? 0
    used.set(base, n + 1)
    return n ? `${base}-${n}` : base
  }
}

/** The shape of a page slug as slugify makes it: lower-case letters, digits and marks of any script, single dashes between. */
const SLUG_PART = '[\\p{Ll}\\p{Lm}\\p{Lo}\\p{N}\\p{M}]+'
export const SLUG_PATTERN = `^${SLUG_PART}(?:-${SLUG_PART})*$`
export const SLUG_PATTERN_HINT = 'lower-case letters and digits of any script, words joined by single dashes (getting-started)'
const SLUG_RE = new RegExp(SLUG_PATTERN, 'u')

/** True when `slug` is a page slug a writer may give (what SLUG_PATTERN and slugify agree on), at most 100 characters. */
export function isSlug(slug: string): boolean {
  return [...slug].length <= 100 && SLUG_RE.test(slug) && slug === slug.normalize('NFC')
}

/** The slug `base` numbered `n` among its siblings (`setup-2`), its base cut so the whole stays within 100 characters. */
export function numberedSlug(base: string, n: number): string {
  const suffix = `-${n}`
  const room = 100 - suffix.length
  const points = [...base]
  return `${(points.length <= room ? base : points.slice(0, room).join('')).replace(/-+$/, '')}${suffix}`
}

/** True when `slug` is `base` numbered among its siblings (`numberedSlug`). */
export function isNumberedSlug(slug: string, base: string): boolean {
  const n = /-(\d+)$/.exec(slug)
  return !!n && !!base && (slug.slice(0, n.index) === base || slug === numberedSlug(base, Number(n[1])))
}

/**
 * True when a page's `slug` is still the one its `title` gave it: the title's slug (`page` for a title without
 * letters), or that with the numeric suffix that kept it unique among siblings (`setup-2`). Such a slug follows
 * the title when the page is renamed; any other was given by hand and stays.
 */
export function slugFollowsTitle(slug: string, title: string): boolean {
  const fromTitle = slugify(title) || 'page'
  return slug === fromTitle || isNumberedSlug(slug, fromTitle)
}
