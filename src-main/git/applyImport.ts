import { posix } from 'node:path'
import { storeFile } from '../content/files'
import { fitTitle } from '../content/markdown'
import { PageTree, samePage } from '../content/pageTree'
import { applyDocumentSettings } from '../content/pageSettings'
import {
  loadFiles,
  loadPages,
  loadReusableContents,
  writeRevision,
  type PageRecord,
  type ReusableContentRecord
} from '../content/revisions'
import { storeDocument } from '../content/documents'
import { syncSearchIndex } from '../content/searchIndex'
import { slugify } from '../../src-shared/slug'
import type { Db } from '../storage/database'
import { newId } from '../storage/ids'
import { repository } from '../storage/repositories/memo'
import type { SpaceRow } from '../storage/repositories/spaceRepository'
import { spaceRepository } from '../storage/repositories/spaceRepository'
import type { ImportedNode, ImportedReusable } from './layout'

export interface ImportedAsset {
  /** Path relative to the docs root. */
  path: string
  oid: string
  bytes: Uint8Array
}

export interface ApplyImportInput {
  space: SpaceRow
  actorId: string
  now: string
  nodes: ImportedNode[]
  /** The repository's reusable contents: they replace the space's (matched by Git path, keeping their ids). */
  reusables: ImportedReusable[]
  assets: ImportedAsset[]
  /** true: a revision on top of the primary content that does not become primary. */
  standalone: boolean
  git: { oid: string; message: string; ref: string; url?: string }
}

/**
 * Writes the repository's pages as one revision of the space (in the caller's write transaction). Pages keep
 * their ids across imports where they can be matched (documents by `git.path`, groups by title, links by URL),
 * so comments and links to them survive a re-import; pages the repository no longer has are removed. Files
 * uploaded in the app (no `git`) stay; files that came from Git are replaced by the referenced ones.
 */
export function applyImport(db: Db, input: ApplyImportInput): string {
  const primary = input.space.revision_id!
  const base = new PageTree(loadPages(db, primary))
  const byPath = new Map<string, PageRecord>()
  const byKey = new Map<string, PageRecord>()
  for (const p of base.pages.values()) {
    if (p.type === 'document' && p.props.git?.path && !byPath.has(p.props.git.path)) byPath.set(p.props.git.path, p)
    else if (p.type === 'group' && p.parentId === null) byKey.set(`group:${p.title}`, p)
    else if (p.type === 'link' && p.props.href) byKey.set(`link:${p.props.href}`, p)
  }
  const claimed = new Set<string>()
  const matchOf = (node: ImportedNode): PageRecord | undefined => {
    const found =
      node.type === 'document'
        ? node.path
          ? byPath.get(node.path)
          : undefined
        : byKey.get(node.type === 'group' ? `group:${node.title}` : `link:${node.href}`)
    if (!found || claimed.has(found.id)) return undefined
    claimed.add(found.id)
    return found
  }

  const records: PageRecord[] = []
  const matched = new Map<string, PageRecord>()
  const visit = (nodes: ImportedNode[], parentId: string | null) => {
    nodes.forEach((node, position) => {
      const old = matchOf(node)
      const props = { ...(old?.props ?? {}) }
      delete props.git
      delete props.href
      if (node.type === 'document' && node.path) props.git = { oid: node.oid, path: node.path }
      if (node.type === 'link') props.href = node.href
      const record: PageRecord = {
        id: old?.id ?? newId(),
        parentId,
        position,
        type: node.type,
        title: fitTitle(node.title) || 'Untitled',
        emoji: old?.emoji ?? null,
        slug: slugify(node.slug) || slugify(node.title) || 'page',
        description: null,
        documentId: node.type === 'document' ? (old?.documentId ?? newId()) : null,
        documentHash: node.type === 'document' ? storeDocument(db, node.markdown ?? '') : null,
        hidden: old?.hidden ?? false,
        props,
        createdAt: old?.createdAt ?? input.now,
        updatedAt: old?.updatedAt ?? input.now
      }
      if (node.type === 'document') applyDocumentSettings(record, node.markdown ?? '')
      if (old) matched.set(record.id, old)
      records.push(record)
      visit(node.children, record.id)
    })
  }
  visit(input.nodes, null)
  const tree = new PageTree(records)
  tree.normalize()
  for (const page of tree.pages.values()) {
    const old = matched.get(page.id)
    if (old && !samePage(old, page)) page.updatedAt = input.now
  }

  const revision = writeRevision(db, {
    spaceId: input.space.id,
    parents: [primary],
    type: 'update',
    createdBy: input.actorId,
    now: input.now,
    git: { ...input.git, createdByService: false },
    base: primary,
    pages: tree.diffFrom(base),
    files: filesDiff(db, primary, input.assets),
    reusableContents: reusableDiff(db, primary, input.reusables)
  })
  if (!input.standalone) {
    repository(db, spaceRepository).update(input.space.id, { revision_id: revision, updated_at: input.now })
    syncSearchIndex(db, input.space.id, revision)
  }
  return revision
}

/**
 * What an import changes in the records that come from Git (files, reusable contents): a record whose `git.path`
 * the repository still has keeps its id and is written again only when its blob changed, a new path makes a new
 * record (`make`), and a record from Git whose path is gone is removed. Records made in the app (no `git`, or a
 * path without an oid) stay.
 */
function diffByGitPath<T extends { id: string; git: { oid?: string; path?: string } | null }, I extends { path: string; oid: string }>(
  existing: T[],
  imported: I[],
  make: (item: I) => T
): { upsert: T[]; remove: string[] } {
  const fromGit = new Map(existing.filter((r) => r.git?.path).map((r) => [r.git!.path!, r]))
  const upsert: T[] = []
  const kept = new Set<string>()
  for (const item of imported) {
    const old = fromGit.get(item.path)
    if (old) kept.add(old.id)
    if (old && old.git?.oid === item.oid) continue
    const record = make(item)
    upsert.push({ ...record, id: old?.id ?? record.id, git: { oid: item.oid, path: item.path } })
  }
  // A record made in the app with a path of its own (a reusable content: no oid) is not the repository's to remove.
  return { upsert, remove: [...fromGit.values()].filter((r) => !kept.has(r.id) && r.git?.oid).map((r) => r.id) }
}

function reusableDiff(db: Db, primary: string, reusables: ImportedReusable[]) {
  return diffByGitPath(loadReusableContents(db, primary), reusables, (r): ReusableContentRecord => ({
    id: newId(),
    title: fitTitle(r.title),
    documentHash: storeDocument(db, r.markdown),
    git: null
  }))
}

function filesDiff(db: Db, primary: string, assets: ImportedAsset[]) {
  return diffByGitPath(loadFiles(db, primary), assets, (asset) => storeFile(db, posix.basename(asset.path), asset.bytes))
}
