import type { SemanticChange, SemanticChangePage } from '../../../src-shared/schemas/history'
import { placedBy } from '../../content/merge'
import { PageTree } from '../../content/pageTree'
import { loadFiles, loadPages, type FileRecord, type PageRecord } from '../../content/revisions'
import { readDocuments } from '../../content/documents'
import { lineHunks } from '../../../src-shared/lineHunks'
import { frontMatterBlock } from '../../../src-shared/frontMatter'
import { coverFile, layoutOf } from '../../content/pageSettings'
import type { Ctx } from '../../workspace/context'

type Attributes = NonNullable<SemanticChange['attributes']>
type Cover = NonNullable<Attributes['cover']>['before']

/** `{before, after}` of a value a side may not have: that side is left out. */
function sides<T>(before: T | null | undefined, after: T | null | undefined): { before?: T; after?: T } {
  const out: { before?: T; after?: T } = {}
  if (before != null) out.before = before
  if (after != null) out.after = after
  return out
}

/** A file's download address in one revision. */
type FileUrl = (revisionId: string, file: FileRecord) => string

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
/** The page's text without its front matter (the settings it holds are attributes of their own). */
const bodyOf = (markdown: string) => markdown.slice(frontMatterBlock(markdown)?.end ?? 0)

/** Whether any of the page's settings a document's front matter may set differs. */
function settingsChanged(b: PageRecord, a: PageRecord): boolean {
  const p = b.props
  const q = a.props
  return (
    b.description !== a.description ||
    b.hidden !== a.hidden ||
    p.icon !== q.icon ||
    !same(p.layout, q.layout) ||
    !same(p.cover, q.cover) ||
    !!p.noIndex !== !!q.noIndex ||
    !!p.noRobotsIndex !== !!q.noRobotsIndex ||
    p.href !== q.href
  )
}

/**
 * What changed in a page's own fields and settings (not its place), or undefined when nothing a reader sees did
 * (a Git path alone). `document` is there when the text changed, front matter aside (`bodyChanged`), or when the
 * stored text changed and no other attribute says how.
 */
function pageAttributes(
  b: PageRecord,
  a: PageRecord,
  covers: { before(page: PageRecord): Cover | undefined; after(page: PageRecord): Cover | undefined },
  bodyChanged: (b: PageRecord, a: PageRecord) => boolean
): Attributes | undefined {
  const out: Attributes = {}
  if (b.title !== a.title) out.title = { before: b.title, after: a.title }
  if (b.slug !== a.slug) out.slug = { before: b.slug, after: a.slug }
  if (b.emoji !== a.emoji) out.emoji = sides(b.emoji, a.emoji)
  if (b.props.icon !== a.props.icon) out.icon = sides(b.props.icon, a.props.icon)
  if (b.description !== a.description) out.description = sides(b.description, a.description)
  if (b.hidden !== a.hidden) out.hidden = { before: b.hidden, after: a.hidden }
  if (b.type === 'document' && a.type === 'document') {
    const layouts = { before: layoutOf(b), after: layoutOf(a) }
    if (!same(layouts.before, layouts.after)) out.layout = { ...layouts }
    if (!same(b.props.cover, a.props.cover)) out.cover = sides(covers.before(b), covers.after(a))
    if (!!b.props.noIndex !== !!a.props.noIndex) out.noIndex = { before: !!b.props.noIndex, after: !!a.props.noIndex }
    if (!!b.props.noRobotsIndex !== !!a.props.noRobotsIndex)
      out.noRobotsIndex = { before: !!b.props.noRobotsIndex, after: !!a.props.noRobotsIndex }
  }
  if (b.props.href !== a.props.href) {
    const target = (href: string | undefined) => (href === undefined ? undefined : { kind: 'url' as const, url: href })
    out.target = sides(target(b.props.href), target(a.props.href))
  }
  if (b.documentHash !== a.documentHash && (bodyChanged(b, a) || !Object.keys(out).length))
    out.document = { ...sides(b.documentHash, a.documentHash), hunks: [] }
  return Object.keys(out).length ? out : undefined
}

function fileAttributes(b: FileRecord, a: FileRecord, urls: { before: string; after: string }): Attributes | undefined {
  const out: Attributes = {}
  if (b.name !== a.name) out.name = { before: b.name, after: a.name }
  if (b.contentType !== a.contentType) out.contentType = { before: b.contentType, after: a.contentType }
  if (b.size !== a.size) out.size = { before: b.size, after: a.size }
  const changed = Object.keys(out).length || b.blobHash !== a.blobHash || b.width !== a.width || b.height !== a.height
  // Each side's bytes are downloaded from their own revision.
  if (changed) out.downloadURL = urls
  return changed ? out : undefined
}

const fileSummary = (f: FileRecord, downloadURL: string) => ({
  id: f.id,
  name: f.name,
  contentType: f.contentType,
  size: f.size,
  downloadURL
})

const changedPage = (page: PageRecord, path: string) => ({
  id: page.id,
  type: page.type as SemanticChangePage['type'],
  title: page.title,
  path
})

/** A page's cover in one revision as a page read shows it: the file its front matter names (none while no file matches). */
function coversOf(ctx: Ctx, revisionId: string | null): (page: PageRecord) => Cover | undefined {
  let files: FileRecord[] | undefined
  return (page) => {
    const cover = page.props.cover
    if (!cover || !revisionId) return undefined
    files ??= loadFiles(ctx.db, revisionId)
    const file = coverFile(cover.src, files, page.props.git?.path)
    return file && { ref: { kind: 'file', file: file.id }, yPos: cover.yPos }
  }
}

/**
 * The changes of pages from the tree `before` (of revision `fromId`; none: an empty space) to `after` (of `toId`):
 * pages created, edited, moved (in the newer tree's order), then pages deleted (in the older one's). A page whose
 * fields and place both changed is listed twice (edited, moved). Only records that differ are compared: two
 * revisions share every unchanged record.
 */
export function pageChanges(ctx: Ctx, before: PageTree, after: PageTree, fromId: string | null, toId: string): SemanticChange[] {
  const beforePaths = before.paths()
  const afterPaths = after.paths()
  const beforeIndex = before.childrenIndex()
  const afterIndex = after.childrenIndex()
  // Moved: to another parent, or reordered among its siblings (not merely shifted by the pages placed around it).
  const placed = placedBy(before, after)
  const covers = { before: coversOf(ctx, fromId), after: coversOf(ctx, toId) }
  // Whether a text changed beyond its front matter is read only for pages whose settings changed too (rare): any
  // other new text changed in its body, or in front matter that sets nothing shown.
  const settled: [PageRecord, PageRecord][] = []
  for (const a of after.pages.values()) {
    const b = before.get(a.id)
    if (b && b !== a && b.documentHash !== a.documentHash && settingsChanged(b, a)) settled.push([b, a])
  }
  const texts = readDocuments(
    ctx.db,
    settled.flatMap(([b, a]) => [b.documentHash, a.documentHash])
  )
  const bodyChanged = (b: PageRecord, a: PageRecord) =>
    !settingsChanged(b, a) ||
    bodyOf(texts.get(b.documentHash ?? '') ?? '') !== bodyOf(texts.get(a.documentHash ?? '') ?? '') ||
    !b.documentHash !== !a.documentHash
  const changes: SemanticChange[] = []

  const walk = (parentId: string | null) => {
    for (const a of afterIndex.get(parentId) ?? []) {
      const path = afterPaths.get(a.id)!
      const page = changedPage(a, path)
      const b = before.get(a.id)
      if (!b) changes.push({ type: 'page_created', page })
      else if (b !== a) {
        const attributes = pageAttributes(b, a, covers, bodyChanged)
        if (attributes) changes.push({ type: 'page_edited', page, attributes })
        if (b.parentId !== a.parentId || placed.has(a.id)) {
          const parent: NonNullable<SemanticChange['parent']> = {}
          if (b.parentId) parent.before = changedPage(before.get(b.parentId)!, beforePaths.get(b.parentId)!)
          if (a.parentId) parent.after = changedPage(after.get(a.parentId)!, afterPaths.get(a.parentId)!)
          changes.push({ type: 'page_moved', page, parent, path: { before: beforePaths.get(b.id)!, after: path } })
        }
      }
      walk(a.id)
    }
  }
  walk(null)
  const deleted = (parentId: string | null) => {
    for (const b of beforeIndex.get(parentId) ?? []) {
      if (!after.has(b.id)) changes.push({ type: 'page_deleted', page: changedPage(b, beforePaths.get(b.id)!) })
      deleted(b.id)
    }
  }
  deleted(null)
  return changes
}

/**
 * The semantic changes from revision `fromId` (none: an empty space) to `toId`: the changes of pages
 * (`pageChanges`), then files created, edited and deleted.
 */
export function revisionChanges(ctx: Ctx, fromId: string | null, toId: string, fileUrl: FileUrl): SemanticChange[] {
  const before = PageTree.readOnly(fromId ? loadPages(ctx.db, fromId) : [])
  const after = PageTree.readOnly(loadPages(ctx.db, toId))
  const changes = pageChanges(ctx, before, after, fromId, toId)

  const beforeFiles = new Map((fromId ? loadFiles(ctx.db, fromId) : []).map((f) => [f.id, f]))
  const afterFiles = loadFiles(ctx.db, toId)
  for (const a of afterFiles) {
    const b = beforeFiles.get(a.id)
    if (!b) changes.push({ type: 'file_created', file: fileSummary(a, fileUrl(toId, a)) })
    else {
      const attributes = fileAttributes(b, a, { before: fileUrl(fromId!, b), after: fileUrl(toId, a) })
      if (attributes) changes.push({ type: 'file_edited', file: fileSummary(a, fileUrl(toId, a)), attributes })
    }
  }
  const kept = new Set(afterFiles.map((f) => f.id))
  for (const b of beforeFiles.values())
    if (!kept.has(b.id)) changes.push({ type: 'file_deleted', file: fileSummary(b, fileUrl(fromId!, b)) })
  return changes
}

/**
 * Fills in the line hunks of the edited texts among `changes` (those of one answer: a diff costs about a
 * millisecond per few hundred lines, so it is not worked out for changes left out past the limit).
 */
export function withTextHunks<C extends SemanticChange>(ctx: Ctx, changes: C[]): C[] {
  const edits = changes.map((c) => c.attributes?.document).filter((d): d is NonNullable<Attributes['document']> => !!d)
  const texts = readDocuments(
    ctx.db,
    edits.flatMap((d) => [d.before ?? null, d.after ?? null])
  )
  for (const d of edits) d.hunks = lineHunks(d.before ? (texts.get(d.before) ?? '') : '', d.after ? (texts.get(d.after) ?? '') : '')
  return changes
}
