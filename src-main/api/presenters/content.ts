import type { File, Page, Revision } from '../../../src-shared/schemas/content'
import { markdownToDocument, reusableContentRefs } from '../../content/documentModel'
import { PageTree } from '../../content/pageTree'
import { coverFile, layoutOf } from '../../content/pageSettings'
import { loadFiles, loadPages, loadReusableContents, type FileRecord, type PageRecord, type RevisionRow } from '../../content/revisions'
import { readDocuments } from '../../content/documents'
import { changeRequestRepository } from '../../storage/repositories/changeRequestRepository'
import { revisionRepository } from '../../storage/repositories/revisionRepository'
import { spaceRepository } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { presentChangeRequest } from './changeRequest'
import { downloadUrl } from '../downloads'

/** Where a revision is read from: the space's primary content, or a change request (for app URLs). */
export interface ContentScope {
  spaceId: string
  revisionId: string
  /** Number of the change request whose content this is. */
  changeRequest?: number
}

export interface PresentOptions {
  /** Include each page's document: `markdown` (text) or `document` (the published document model). */
  format?: 'markdown' | 'document'
  /** false: omit mutable git metadata. */
  metadata?: boolean
}

function pageAppUrl(ctx: Ctx, scope: ContentScope, pageId: string): string {
  const base = scope.changeRequest ? `/spaces/${scope.spaceId}/change-requests/${scope.changeRequest}` : `/spaces/${scope.spaceId}`
  return ctx.appUrl(`${base}/pages/${pageId}`)
}

/** A page type by the older name the wire still requires in `kind`. */
const KIND = { document: 'sheet', group: 'group', link: 'link' } as const satisfies Record<Page['type'], Page['kind']>

type CoverResolver = (page: PageRecord) => Page['cover'] | undefined

/**
 * A page's cover in the wire shape, `{ref: {kind: 'file', file}, yPos}`: the file its front matter names, found
 * among the revision's files, which are read once per answer and only when a page has a cover. None while no
 * file matches.
 */
function coverResolver(ctx: Ctx, scope: ContentScope): CoverResolver {
  let files: FileRecord[] | undefined
  return (page) => {
    const cover = page.props.cover
    if (!cover) return undefined
    files ??= loadFiles(ctx.db, scope.revisionId)
    const file = coverFile(cover.src, files, page.props.git?.path)
    return file && { ref: { kind: 'file', file: file.id }, yPos: cover.yPos }
  }
}

/** One page (with its children when `tree` is given) in the wire shape. */
export function presentPage(
  ctx: Ctx,
  scope: ContentScope,
  page: PageRecord,
  path: string,
  options: PresentOptions & { markdown?: string; children?: Page[]; covers?: CoverResolver } = {}
): Page {
  const out: Page = {
    id: page.id,
    title: page.title,
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    type: page.type as Page['type'],
    kind: KIND[page.type as Page['type']],
    urls: { app: pageAppUrl(ctx, scope, page.id) },
    slug: page.slug,
    path,
    pages: options.children ?? [],
    hidden: page.hidden
  }
  if (page.emoji) out.emoji = page.emoji
  if (page.description) out.description = page.description
  if (page.documentId) out.documentId = page.documentId
  const p = page.props
  if (p.icon) out.icon = p.icon
  if (page.type === 'document') {
    // Set by the document's front matter (pageSettings.ts); the defaults otherwise.
    out.layout = layoutOf(page)
    const cover = (options.covers ?? coverResolver(ctx, scope))(page)
    if (cover) out.cover = cover
    out.noIndex = p.noIndex ?? false
    out.noRobotsIndex = p.noRobotsIndex ?? false
    out.tags = []
  }
  if (p.href) out.href = p.href
  if (p.git && options.metadata !== false) out.git = p.git
  if (options.markdown !== undefined) {
    if (options.format === 'document') {
      // An include names its reusable content by id in the model (by Git path in markdown).
      const refs = options.markdown.includes('{%') ? reusableContentRefs(loadReusableContents(ctx.db, scope.revisionId), p.git?.path) : {}
      out.document = markdownToDocument(options.markdown, refs) as unknown as Record<string, unknown>
    } else out.markdown = options.markdown
  }
  return out
}

/**
 * The page tree of a revision (or the subtree under `parentId`), nested, in order. Documents are included only
 * when a format is asked for.
 */
export function presentPageTree(
  ctx: Ctx,
  scope: ContentScope,
  tree: PageTree,
  options: PresentOptions = {},
  parentId: string | null = null,
  paths = tree.paths()
): Page[] {
  const index = tree.childrenIndex()
  const docs = options.format
    ? readDocuments(
        ctx.db,
        [...tree.pages.values()].map((p) => p.documentHash)
      )
    : undefined
  const covers = coverResolver(ctx, scope)
  const build = (parentId: string | null): Page[] =>
    (index.get(parentId) ?? []).map((page) =>
      presentPage(ctx, scope, page, paths.get(page.id)!, {
        ...options,
        markdown: docs ? (page.documentHash ? (docs.get(page.documentHash) ?? '') : '') : undefined,
        children: build(page.id),
        covers
      })
    )
  return build(parentId)
}

export function presentFile(ctx: Ctx, scope: ContentScope, file: FileRecord, options: PresentOptions = {}): File {
  const out: File = {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: downloadUrl(
      ctx,
      `/files/${scope.spaceId}/${scope.revisionId}/${file.id}/${encodeURIComponent(file.name)}`,
      scope.spaceId,
      scope.revisionId
    ),
    size: file.size
  }
  if (file.width != null && file.height != null) out.dimensions = { width: file.width, height: file.height }
  if (file.git && options.metadata !== false) out.git = file.git
  return out
}

/**
 * A revision's reusable contents: `{id, title, markdown, path, git}`. `git` is the blob one came from (with its
 * oid); one made in the app has a Git path of its own (`path`) and no blob yet.
 */
function presentReusableContents(ctx: Ctx, revisionId: string, options: PresentOptions): Revision['reusableContents'] {
  const contents = loadReusableContents(ctx.db, revisionId)
  if (!contents.length) return []
  const texts = readDocuments(
    ctx.db,
    contents.map((c) => c.documentHash)
  )
  return contents.map((c) => {
    const out: Revision['reusableContents'][number] = { id: c.id, title: c.title, markdown: texts.get(c.documentHash) ?? '' }
    if (c.git?.path) out.path = c.git.path
    if (c.git?.oid && c.git.path && options.metadata !== false) out.git = { oid: c.git.oid, path: c.git.path }
    return out
  })
}

export function presentRevision(ctx: Ctx, scope: ContentScope, revision: RevisionRow, options: PresentOptions = {}): Revision {
  const tree = PageTree.readOnly(loadPages(ctx.db, revision.id))
  const out: Revision = {
    object: 'revision',
    id: revision.id,
    parents: JSON.parse(revision.parents) as string[],
    pages: presentPageTree(ctx, scope, tree, { metadata: options.metadata }),
    files: loadFiles(ctx.db, revision.id).map((f) => presentFile(ctx, scope, f, options)),
    reusableContents: presentReusableContents(ctx, revision.id, options),
    tags: [],
    createdAt: revision.created_at,
    urls: {
      app: ctx.appUrl(scope.changeRequest ? `/spaces/${scope.spaceId}/change-requests/${scope.changeRequest}` : `/spaces/${scope.spaceId}`)
    },
    type: revision.type
  }
  if (revision.git && options.metadata !== false) out.git = JSON.parse(revision.git)
  if (revision.type === 'merge') {
    const merged = ctx.repo(revisionRepository).mergedBy(scope.spaceId, revision.id)
    const space = merged && ctx.repo(spaceRepository).get(scope.spaceId)
    const changeRequest = merged && ctx.repo(changeRequestRepository).get(scope.spaceId, merged)
    if (space && changeRequest) out.mergedFrom = presentChangeRequest(changeRequest, space, ctx)
  }
  return out
}
