import type { SemanticChange, SemanticChangePage } from '../../../src-shared/schemas/history'
import { placedBy } from '../../content/merge'
import { PageTree } from '../../content/pageTree'
import { loadFiles, loadPages, type FileRecord, type PageRecord } from '../../content/revisions'
import { readDocuments } from '../../content/documents'
import { lineHunks } from '../../../src-shared/lineHunks'
import type { Ctx } from '../../workspace/context'

type Attributes = NonNullable<SemanticChange['attributes']>

/** `{before, after}` of a value a side may not have: that side is left out. */
function sides(before: string | null | undefined, after: string | null | undefined): { before?: string; after?: string } {
  const out: { before?: string; after?: string } = {}
  if (before != null) out.before = before
  if (after != null) out.after = after
  return out
}

/** A file's download address in one revision. */
type FileUrl = (revisionId: string, file: FileRecord) => string

/** What changed in a page's own fields (not its place), or undefined when nothing did. */
function pageAttributes(b: PageRecord, a: PageRecord): Attributes | undefined {
  const out: Attributes = {}
  if (b.title !== a.title) out.title = { before: b.title, after: a.title }
  if (b.slug !== a.slug) out.slug = { before: b.slug, after: a.slug }
  if (b.emoji !== a.emoji) out.emoji = sides(b.emoji, a.emoji)
  if (b.description !== a.description) out.description = sides(b.description, a.description)
  if (b.hidden !== a.hidden) out.hidden = { before: b.hidden, after: a.hidden }
  if (b.documentHash !== a.documentHash) out.document = { ...sides(b.documentHash, a.documentHash), hunks: [] }
  const settingsChanged = b.type !== a.type || JSON.stringify(b.props) !== JSON.stringify(a.props)
  return Object.keys(out).length || settingsChanged ? out : undefined
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

/**
 * The semantic changes from revision `fromId` (none: an empty space) to `toId`: pages created, edited, moved (in
 * the newer revision's tree order), pages deleted (in the older one's), then files created, edited and deleted.
 * A page whose fields and place both changed is listed twice (edited, moved). Only records that differ are
 * compared: two revisions share every unchanged record.
 */
export function revisionChanges(ctx: Ctx, fromId: string | null, toId: string, fileUrl: FileUrl): SemanticChange[] {
  const before = PageTree.readOnly(fromId ? loadPages(ctx.db, fromId) : [])
  const after = PageTree.readOnly(loadPages(ctx.db, toId))
  const beforePaths = before.paths()
  const afterPaths = after.paths()
  const beforeIndex = before.childrenIndex()
  const afterIndex = after.childrenIndex()
  // Moved: to another parent, or reordered among its siblings (not merely shifted by the pages placed around it).
  const placed = placedBy(before, after)
  const changes: SemanticChange[] = []

  const walk = (parentId: string | null) => {
    for (const a of afterIndex.get(parentId) ?? []) {
      const path = afterPaths.get(a.id)!
      const page = changedPage(a, path)
      const b = before.get(a.id)
      if (!b) changes.push({ type: 'page_created', page })
      else if (b !== a) {
        const attributes = pageAttributes(b, a)
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
export function withTextHunks(ctx: Ctx, changes: SemanticChange[]): SemanticChange[] {
  const edits = changes.map((c) => c.attributes?.document).filter((d): d is NonNullable<Attributes['document']> => !!d)
  const texts = readDocuments(
    ctx.db,
    edits.flatMap((d) => [d.before ?? null, d.after ?? null])
  )
  for (const d of edits) d.hunks = lineHunks(d.before ? (texts.get(d.before) ?? '') : '', d.after ? (texts.get(d.after) ?? '') : '')
  return changes
}
