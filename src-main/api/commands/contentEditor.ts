import type { ContentChangeInput } from '../../../src-shared/schemas/changeRequests'
import { storeFile } from '../../content/files'
import { titleOf } from '../../content/markdown'
import { applyDocumentSettings } from '../../content/pageSettings'
import { PageTree } from '../../content/pageTree'
import { includePathFor } from '../../content/reusableContents'
import {
  getRevision,
  loadFiles,
  loadPages,
  loadReusableContents,
  writeRevision,
  type FileRecord,
  type PageRecord,
  type ReusableContentRecord
} from '../../content/revisions'
import { storeDocument } from '../../content/documents'
import { slugFollowsTitle, slugify } from '../../../src-shared/slug'
import { newId } from '../../storage/ids'
import { changeRequestRepository, type ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { badRequest, conflict, preconditionFailed } from '../../base/errors'

const MAX_FILE_BYTES = 1024 * 1024

/**
 * Whether base64 text whose characters the schema has checked (alphabet, `=` only at the end, ASCII spaces and
 * line breaks) encodes whole bytes: 2 or 3 characters in the last group, with `==` or `=` when padded. Decoding
 * would otherwise drop a lone last character or accept padding that does not fit. One pass, no copy.
 */
function isWholeBase64(text: string): boolean {
  let data = 0
  let padding = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x3d) padding++
    else if (code > 0x20) data++
  }
  return padding === 0 ? data % 4 !== 1 : (data % 4) + padding === 4
}

/** What a change to an existing page overwrites: its document, its title, or (a removal) both. */
type Overwrites = { document: boolean; title: boolean }

/**
 * The check a batch written against revision `basedOn` (its `If-Match`) gets when the change request has moved
 * on since: a change that overwrites a page's document or title, or removes the page, is refused (412) when that
 * page changed since (or did not exist then), so a writer never overwrites an edit it has not seen. Changes to
 * pages nobody touched meanwhile apply as usual. No check without `If-Match`, or when it names the head.
 */
function writtenSince(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow, head: PageTree, basedOn: string[] | undefined) {
  if (!basedOn || basedOn.includes(cr.revision_id)) return () => {}
  const known = basedOn.map((id) => getRevision(ctx.db, id)).find((r) => r?.space_id === space.id)
  if (!known) throw preconditionFailed(`If-Match: ${basedOn.join(', ')} is not a revision of this space`)
  const then = PageTree.readOnly(loadPages(ctx.db, known.id))
  return (pageId: string, overwrites: Overwrites, field: string) => {
    const now = head.get(pageId)
    // A page made earlier in this batch (by its ref) is new to everyone.
    if (!now) return
    const before = then.get(pageId)
    if (!before || (overwrites.document && before.documentHash !== now.documentHash) || (overwrites.title && before.title !== now.title)) {
      throw preconditionFailed(
        `${field}: “${now.title}” changed since revision ${known.id} (If-Match): read it again before writing over it`
      )
    }
  }
}

/** What the batch changed in the reusable contents: those it wrote or edited, and those it removed. */
function reusableChangesFrom(before: ReusableContentRecord[], after: Map<string, ReusableContentRecord>) {
  const old = new Map(before.map((r) => [r.id, r]))
  const upsert = [...after.values()].filter((r) => {
    const o = old.get(r.id)
    return !o || o.title !== r.title || o.documentHash !== r.documentHash
  })
  return { upsert, remove: before.filter((r) => !after.has(r.id)).map((r) => r.id) }
}

/** A page a batch affected, as it stands after the batch: made by it (with the batch's `ref`), edited, or removed. */
export type PageOutcome = { kind: 'created'; pageId: string; ref?: string } | { kind: 'updated' | 'deleted'; pageId: string }

export interface ContentBatchResult {
  cr: ChangeRequestRow
  /** One entry per page a change named (not the pages under a removed one), in the order the batch first named them. */
  pages: PageOutcome[]
  /** The files `insert_files` added, in order. */
  insertedFiles: FileRecord[]
}

/**
 * Applies a batch of content changes to a change request: all of them or none (the caller's transaction), as
 * one new revision of the change request. `ref`s name pages and files created earlier in the same batch.
 * `basedOn`: the revisions the writer read (an `If-Match` header), checked by writtenSince.
 */
export function applyContentChanges(
  ctx: Ctx,
  space: SpaceRow,
  cr: ChangeRequestRow,
  changes: ContentChangeInput[],
  basedOn?: string[]
): ContentBatchResult {
  const base = PageTree.readOnly(loadPages(ctx.db, cr.revision_id))
  // Pages the changes name, in the order first named (a page added and removed in the same batch affects nothing).
  const touched = new Map<string, string | undefined>()
  const touch = (pageId: string, ref?: string) => {
    if (!touched.has(pageId)) touched.set(pageId, ref)
  }
  const checkUnchanged = writtenSince(ctx, space, cr, base, basedOn)
  const tree = new PageTree(base.pages.values())
  const files = new Map(loadFiles(ctx.db, cr.revision_id).map((f) => [f.id, f]))
  const addedFiles: FileRecord[] = []
  const refs = new Map<string, string>()
  const fileRefs = new Map<string, string>()
  const reusables = new Map(loadReusableContents(ctx.db, cr.revision_id).map((r) => [r.id, r]))
  const reusableRefs = new Map<string, string>()
  const reusableOf = (ref: string, field: string): ReusableContentRecord => {
    const content = reusables.get(reusableRefs.get(ref) ?? ref)
    if (!content) throw badRequest(`${field}: no reusable content ${ref} in the change request`)
    return content
  }

  const pageOf = (ref: string, field: string): PageRecord => {
    const page = tree.get(refs.get(ref) ?? ref)
    if (!page) throw badRequest(`${field}: no page ${ref} in the change request`)
    return page
  }
  // A document may link a file of this batch by its ref: `/files/<ref>` becomes `/files/<fileId>`.
  const withFileIds = (markdown: string) =>
    fileRefs.size
      ? markdown.replace(/\/files\/([^\s)"'#?]+)/g, (all, ref: string) => (fileRefs.has(ref) ? `/files/${fileRefs.get(ref)}` : all))
      : markdown

  changes.forEach((change, i) => {
    const at = `changes.${i}`
    switch (change.operation) {
      case 'insert_page': {
        const parent = change.into ? pageOf(change.into, `${at}.into`) : null
        if (change.ref && refs.has(change.ref)) throw badRequest(`${at}.ref: ${change.ref} is already used in this batch`)
        const markdown = withFileIds(change.document.markdown)
        const title = change.title ?? titleOf(markdown) ?? 'Untitled'
        const page: PageRecord = {
          id: newId(),
          parentId: parent?.id ?? null,
          position: 0,
          type: 'document',
          title,
          emoji: change.emoji ?? null,
          slug: slugify(title) || 'page',
          description: null,
          documentId: newId(),
          documentHash: storeDocument(ctx.db, markdown),
          hidden: false,
          props: {},
          createdAt: ctx.now,
          updatedAt: ctx.now
        }
        applyDocumentSettings(page, markdown)
        if (change.description !== undefined) page.description = change.description
        tree.place(page, page.parentId, change.at)
        if (change.ref) refs.set(change.ref, page.id)
        touch(page.id, change.ref)
        break
      }
      case 'update_page': {
        const page = pageOf(change.page, `${at}.page`)
        touch(page.id)
        if (change.document || change.title !== undefined)
          checkUnchanged(page.id, { document: !!change.document, title: change.title !== undefined }, `${at}.page`)
        if (change.document) {
          const markdown = withFileIds(change.document.markdown)
          page.documentHash = storeDocument(ctx.db, markdown)
          applyDocumentSettings(page, markdown)
        }
        if (change.title !== undefined && change.title !== page.title) {
          // A slug still made from the old title follows the new one (normalize numbers it among the siblings);
          // one given by hand stays.
          if (slugFollowsTitle(page.slug, page.title)) page.slug = slugify(change.title) || 'page'
          page.title = change.title
        }
        if (change.emoji !== undefined) page.emoji = change.emoji
        if (change.description !== undefined) page.description = change.description
        if (change.hidden !== undefined) page.hidden = change.hidden
        if (change.into !== undefined || change.at !== undefined) {
          const parentId = change.into === undefined ? page.parentId : change.into === null ? null : pageOf(change.into, `${at}.into`).id
          if (parentId && tree.isWithin(parentId, page.id))
            throw badRequest(`${at}.into: a page cannot move into itself or its own children`)
          tree.place(page, parentId, change.at)
        }
        // A slug given by hand stays when the title changes (it no longer follows it); checked where the page now is.
        if (change.slug !== undefined && change.slug !== page.slug) {
          const slug = change.slug.normalize('NFC')
          const taken = tree.children(page.parentId).find((p) => p.id !== page.id && p.slug === slug)
          if (taken)
            throw conflict(`${at}.slug: “${slug}” is the slug of “${taken.title}” beside this page; slugs are unique among siblings`)
          page.slug = slug
        }
        page.updatedAt = ctx.now
        break
      }
      case 'delete_page': {
        const page = pageOf(change.page, `${at}.page`)
        checkUnchanged(page.id, { document: true, title: true }, `${at}.page`)
        touch(page.id)
        tree.remove(page.id)
        break
      }
      case 'revert_page': {
        const revisionId = change.revision ?? cr.revision_initial
        const revision = getRevision(ctx.db, revisionId)
        if (!revision || revision.space_id !== space.id) throw badRequest(`${at}.revision: no revision ${revisionId} in this space`)
        const id = refs.get(change.page) ?? change.page
        const old = PageTree.readOnly(loadPages(ctx.db, revisionId)).get(id)
        const current = tree.get(id)
        if (!old && !current) throw badRequest(`${at}.page: no page ${change.page} in the change request or that revision`)
        touch(id)
        if (!old) tree.remove(id)
        else if (current) Object.assign(current, { ...old, parentId: current.parentId, position: current.position, updatedAt: ctx.now })
        else tree.place({ ...old, updatedAt: ctx.now }, old.parentId && tree.has(old.parentId) ? old.parentId : null, old.position)
        break
      }
      case 'insert_files':
        change.files.forEach((f, j) => {
          if (!isWholeBase64(f.base64))
            throw badRequest(`${at}.files.${j}.base64: must be complete base64: a character is missing or the = padding is wrong`)
          const bytes = Buffer.from(f.base64, 'base64')
          if (bytes.byteLength > MAX_FILE_BYTES) throw badRequest(`${at}.files.${j}.base64: must decode to at most 1 MB`)
          if (f.ref && fileRefs.has(f.ref)) throw badRequest(`${at}.files.${j}.ref: ${f.ref} is already used in this batch`)
          const file = storeFile(ctx.db, f.name, bytes, f.contentType)
          files.set(file.id, file)
          addedFiles.push(file)
          if (f.ref) fileRefs.set(f.ref, file.id)
        })
        break
      case 'insert_reusable_content': {
        if (change.ref && reusableRefs.has(change.ref)) throw badRequest(`${at}.ref: ${change.ref} is already used in this batch`)
        // A Git path from the start: includes name a reusable content by it, and a Git export writes it there.
        const content: ReusableContentRecord = {
          id: newId(),
          title: change.title,
          documentHash: storeDocument(ctx.db, withFileIds(change.document.markdown)),
          git: { path: includePathFor(change.title, reusables.values()) }
        }
        reusables.set(content.id, content)
        if (change.ref) reusableRefs.set(change.ref, content.id)
        break
      }
      case 'update_reusable_content': {
        const content = reusableOf(change.reusableContent, `${at}.reusableContent`)
        // Its Git path stays when it is renamed: the includes that name it keep finding it.
        const next = { ...content }
        if (change.title !== undefined) next.title = change.title
        if (change.document) next.documentHash = storeDocument(ctx.db, withFileIds(change.document.markdown))
        reusables.set(content.id, next)
        break
      }
      case 'delete_reusable_content':
        // Pages that include it show it as missing (previews, PDF), as when it goes from Git.
        reusables.delete(reusableOf(change.reusableContent, `${at}.reusableContent`).id)
        break
    }
  })

  tree.normalize(base)
  const revision = writeRevision(ctx.db, {
    spaceId: space.id,
    changeRequestId: cr.id,
    parents: [cr.revision_id],
    type: 'edits',
    createdBy: ctx.actor.id,
    now: ctx.now,
    base: cr.revision_id,
    pages: tree.diffFrom(base),
    files: { upsert: addedFiles, remove: [] },
    reusableContents: reusableChangesFrom(loadReusableContents(ctx.db, cr.revision_id), reusables)
  })
  const crs = ctx.repo(changeRequestRepository)
  crs.update(cr.id, { revision_id: revision, updated_at: ctx.now })
  crs.addContributor(cr.id, ctx.actor.id)
  const pages: PageOutcome[] = []
  for (const [pageId, ref] of touched) {
    const before = base.has(pageId)
    const after = tree.has(pageId)
    if (after && !before) pages.push(ref === undefined ? { kind: 'created', pageId } : { kind: 'created', pageId, ref })
    else if (after) pages.push({ kind: 'updated', pageId })
    else if (before) pages.push({ kind: 'deleted', pageId })
  }
  return { cr: crs.get(space.id, cr.id)!, pages, insertedFiles: addedFiles }
}
