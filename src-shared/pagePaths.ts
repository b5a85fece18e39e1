// How a link in a page names another page by its path (or a file by its name), shared by main (the links list,
// broken or not) and the renderer (a click on such a link in the editor's preview opens that page; an image shows
// that file). Pure TypeScript, no imports.

/** Drops `.`/`..`, `.md`, a trailing README/index; undefined when `..` climbs above the root. */
function normalizeSegments(segments: string[]): string[] | undefined {
  const out: string[] = []
  for (const raw of segments) {
    if (raw === '' || raw === '.') continue
    if (raw === '..') {
      if (!out.length) return undefined
      out.pop()
      continue
    }
    out.push(raw)
  }
  const last = out.length - 1
  if (last >= 0) {
    out[last] = out[last]!.replace(/\.md$/i, '')
    if (/^(readme|index)$/i.test(out[last]!)) out.pop()
  }
  return out
}

/** A link's path as written, percent-decoding undone (kept as is when it is not valid percent-encoding). */
export function decodeLinkPath(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '')

/**
 * The page paths (slugs from the root, no leading `/`) a link path may name, most likely first. Absolute
 * (`/guide/install`): from the root. Relative (`./install`, `../guide/install.md`): from the folder the linking
 * page lives in (its parent's path), then from the page's own path, since a page with children is a folder's
 * README in Git (for such a page, the other way round). `.md` and a trailing `README`/`index` are dropped; a
 * path climbing above the root names nothing.
 */
export function pagePathCandidates(path: string, fromPath: string, fromHasChildren: boolean): string[] {
  const segments = path.split('/')
  const bases = path.startsWith('/') ? [''] : fromHasChildren ? [fromPath, parentOf(fromPath)] : [parentOf(fromPath), fromPath]
  const found: string[] = []
  for (const base of bases) {
    const resolved = normalizeSegments([...base.split('/'), ...segments])
    if (resolved) found.push(resolved.join('/'))
  }
  return found
}

/**
 * The file a link path names by its name: its last segment, when that has an extension other than `.md`
 * (`../.gitbook/assets/diagram.png` → `diagram.png`, as a page from Git links its images). Undefined otherwise.
 */
export function linkedFileName(path: string): string | undefined {
  const last = path.slice(path.lastIndexOf('/') + 1)
  const extension = /\.([a-z0-9]{1,8})$/i.exec(last)?.[1]
  return extension && extension.toLowerCase() !== 'md' ? last : undefined
}

/**
 * The file a link or image URL names: `/files/<id>` by its id, a relative or absolute path by its file name
 * (linkedFileName); undefined for anything else (other sites, anchors, pages).
 */
export function fileReference(url: string): { id: string } | { name: string } | undefined {
  const byId = /^\/files\/([^/?#\s]+)(?:[?#].*)?$/.exec(url)
  if (byId) return { id: decodeLinkPath(byId[1]!) }
  if (!url || url.startsWith('#') || url.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined
  const name = linkedFileName(decodeLinkPath(url.split(/[?#]/, 1)[0]!))
  return name === undefined ? undefined : { name }
}
