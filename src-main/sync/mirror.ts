// The mirror: what a connected workspace's account sees on its server, copied into the workspace's local database
// (an ordinary Quire workspace whose rows carry the server's ids), so the local API can answer it offline.
//
// Each pull reads everything it needs from the server first, then writes it in one transaction: a write
// transaction is never held across an await, and a pull that fails part-way writes nothing. Revisions are
// immutable, so one the copy holds is never fetched again, and a page whose id and update time the copy already
// has keeps its document instead of being downloaded again.
//
// Files: a revision's files are left out (their bytes are not fetched), so offline a revision lists no files
// and a cover image that names one shows no cover. Reusable contents are left out too (the wire gives them as a
// parsed document, not as markdown).
import type { ChangeRequest } from '../../src-shared/schemas/changeRequests'
import type { Collection } from '../../src-shared/schemas/collections'
import type { User } from '../../src-shared/schemas/common'
import type { Page, Revision } from '../../src-shared/schemas/content'
import type { Member } from '../../src-shared/schemas/members'
import type { Organization } from '../../src-shared/schemas/orgs'
import type { ChangeRequestReview, RequestedReviewer } from '../../src-shared/schemas/reviews'
import type { Space } from '../../src-shared/schemas/spaces'
import { getRevision, loadPages, writeRevision, type PageRecord } from '../content/revisions'
import { hashDocument, storeDocument } from '../content/documents'
import { dropSearchIndex, scheduleSearchIndex } from '../content/searchIndex'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { spaceRepository } from '../storage/repositories/spaceRepository'
import { flattenPages, hasDocument, mirrorRows, pageRecord, roleOfPermissions, type PageDocument, type WirePage } from './mirrorRows'

/** GETs a /v1 path on the server (the connected workspace's RemoteBackend answers it). */
export type RemoteGet = (path: string) => Promise<Response>

/** The server answered a pull's request with an error (`status`, and the message of its error envelope). */
export class MirrorError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
    this.name = 'MirrorError'
  }
}

export interface MirrorOptions {
  /** Page documents downloaded at a time (default 4). */
  concurrency?: number
  now?: () => Date
  /** `limit` of each list request (default 100). */
  pageSize?: number
  /**
   * Called after each transaction the mirror commits. The local API caches list counts until the next write of
   * its process (`services.writes`) or another connection's commit; a mirror writing on the API's own connection
   * passes `() => void services.writes++` so the counts follow.
   */
  committed?: () => void
  /**
   * Change requests the copy keeps as they are (writes made here that the server does not have yet): a pull of
   * their space leaves their rows alone.
   */
  keeps?: (changeRequestId: string) => boolean
  /** How a pull waits before asking a server that answered 429 again (tests). */
  sleep?: (ms: number) => Promise<void>
}

export interface Mirror {
  /** GET /v1/user: the account, upserted with its id and made the workspace's owner (settings 'owner'). */
  pullAccount(): Promise<{ id: string; displayName: string; email?: string }>
  /**
   * Every organization the account is a member of, its role in each (`read` when the server does not say), their
   * collections and their spaces (rows, not content). What the server no longer lists is removed from the copy.
   */
  pullOrganizations(): Promise<void>
  /** One space: its row, its primary content (made the space's revision) and its open and draft change requests' rows. */
  pullSpace(spaceId: string): Promise<void>
  /** One change request (id or number): its row, its content revision, its reviews and the reviewers asked for. */
  pullChangeRequest(spaceId: string, changeRequest: string): Promise<void>
}

/** How many times a content pull starts over when the content changes while its pages are read. */
const CONTENT_ATTEMPTS = 3

interface List<T> {
  items: T[]
  next?: { page: string }
}

/** A revision read from the server with its pages as the copy stores them (documents not stored yet). */
interface FetchedRevision {
  revision: Revision
  pages: WirePage[]
  documents: Map<number, PageDocument>
}

const enc = encodeURIComponent

/** Times a request the server answered 429 (too many requests) is asked again, after the wait it names. */
const RATE_LIMIT_RETRIES = 5
/** The longest wait taken from a Retry-After (a pull runs in the background: it may wait, not forever). */
const RETRY_AFTER_MAX_MS = 60_000

/**
 * A server that limits its requests answers 429 with the wait it wants (`Retry-After`, seconds or a date): a pull
 * waits that long and asks again, rather than failing (and being retried at once by the next pull).
 */
export function politeGet(get: RemoteGet, sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms))): RemoteGet {
  return async (path) => {
    for (let attempt = 0; ; attempt++) {
      const res = await get(path)
      if (res.status !== 429 || attempt >= RATE_LIMIT_RETRIES) return res
      await res.arrayBuffer().catch(() => undefined)
      await sleep(retryAfterMs(res.headers.get('retry-after'), attempt))
    }
  }
}

function retryAfterMs(header: string | null, attempt: number): number {
  const seconds = header && /^\d+$/.test(header.trim()) ? Number(header) * 1000 : NaN
  const date = header && Number.isNaN(seconds) ? Date.parse(header) - Date.now() : NaN
  const wanted = Number.isFinite(seconds) ? seconds : Number.isFinite(date) ? date : 1000 * 2 ** attempt
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(0, wanted))
}

export function createMirror(db: Db, remoteGet: RemoteGet, options: MirrorOptions = {}): Mirror {
  const get = politeGet(remoteGet, options.sleep)
  const concurrency = Math.max(1, options.concurrency ?? 4)
  const pageSize = options.pageSize ?? 100
  const now = () => (options.now ?? (() => new Date()))().toISOString()
  const rows = repository(db, mirrorRows)

  const commit = <T>(fn: () => T): T => {
    const result = db.transaction(fn).immediate()
    options.committed?.()
    return result
  }

  async function getJson<T>(path: string): Promise<T> {
    const res = await get(path)
    if (!res.ok) throw await errorOf(res, path)
    return (await res.json()) as T
  }

  /** Every page of a list, following `next.page`. */
  async function getAll<T>(path: string, query: Record<string, string> = {}): Promise<T[]> {
    const items: T[] = []
    const seen = new Set<string>()
    let page: string | undefined
    do {
      const params = new URLSearchParams({ ...query, limit: String(pageSize) })
      if (page) params.set('page', page)
      const body = await getJson<List<T>>(`${path}?${params}`)
      items.push(...body.items)
      page = body.next?.page
      if (page && seen.has(page)) throw new MirrorError(502, `${path}: the server named page ${page} twice`)
      if (page) seen.add(page)
    } while (page)
    return items
  }

  /** The account's id: the copy's owner (openLocalBackend made it), else asked of the server. */
  async function accountId(): Promise<string> {
    return rows.owner() ?? (await pullAccount()).id
  }

  async function pullAccount() {
    const user = await getJson<User>('/v1/user')
    commit(() => {
      rows.upsertUsers([user], now())
      rows.setOwner(user.id)
    })
    return { id: user.id, displayName: user.displayName, ...(user.email ? { email: user.email } : {}) }
  }

  async function pullOrganizations(): Promise<void> {
    const userId = await accountId()
    const orgs = await getAll<Organization>('/v1/orgs')
    const details = new Map<string, { member?: Member; collections: Collection[]; spaces: Space[] }>()
    await eachLimited(orgs, concurrency, async (org) => {
      const o = enc(org.id)
      const [member, collections, spaces] = await Promise.all([
        getJson<Member>(`/v1/orgs/${o}/members/${enc(userId)}`).catch((error: unknown) => {
          // A guest may not read members: the server does not say, and the copy keeps what it knows.
          if (error instanceof MirrorError && (error.status === 403 || error.status === 404)) return undefined
          throw error
        }),
        getAll<Collection>(`/v1/orgs/${o}/collections`),
        getAll<Space>(`/v1/orgs/${o}/spaces`)
      ])
      details.set(org.id, { member, collections, spaces })
    })

    commit(() => {
      const at = now()
      rows.upsertOrganizations(orgs)
      const known = rows.memberships(userId)
      for (const org of orgs) rows.upsertMembership(org.id, userId, details.get(org.id)!.member, known.get(org.id), at)
      const collectionIds: string[] = []
      const spaceIds: string[] = []
      for (const org of orgs) {
        const { collections, spaces } = details.get(org.id)!
        rows.upsertCollections(collections, at)
        const listed = new Set(collections.map((c) => c.id))
        // Spaces follow the collections in one order per parent, in the server's list order.
        spaces.forEach((s, i) => {
          rows.upsertSpace(s, s.parent && listed.has(s.parent) ? s.parent : null, collections.length + i + 1, 0)
          rows.setAccountGrant(s.id, userId, roleOfPermissions(s.permissions), at)
        })
        collectionIds.push(...listed)
        spaceIds.push(...spaces.map((s) => s.id))
      }
      // A space the outbox still writes to stays (the server then says what became of it when it is sent).
      removeSpaces(rows.spacesNotIn(spaceIds).filter((id) => !rows.liveChangeRequests(id).some((cr) => options.keeps?.(cr.id))))
      rows.deleteUnlisted(
        collectionIds,
        orgs.map((o) => o.id)
      )
    })
  }

  /** Spaces gone from the server: their rows and content, and their search rows (which no foreign key removes). */
  function removeSpaces(ids: string[]): void {
    for (const id of ids) dropSearchIndex(db, id)
    rows.deleteSpaces(ids)
  }

  /**
   * A revision of a space's primary content or of a change request (`scope` is the path both hang off), unless
   * the copy holds `expected` or the revision the server answers: then its id. Page documents the copy holds are
   * reused; the others are read at most `concurrency` at a time. A page whose answer is newer than the tree (the
   * content moved on meanwhile) starts the read over, so a revision is never stored with another one's documents.
   */
  async function fetchRevision(
    spaceId: string,
    scope: string,
    expected: string | undefined,
    reuseFrom: () => string[]
  ): Promise<FetchedRevision | string> {
    if (expected && rows.revisionsIn([expected]).size) return expected
    for (let attempt = 1; attempt <= CONTENT_ATTEMPTS; attempt++) {
      const revision = await getJson<Revision>(`${scope}/content`)
      if (rows.revisionsIn([revision.id]).size) return revision.id
      const pages = flattenPages(revision.pages ?? [])
      const withDocuments = pages.flatMap((p, i) => (hasDocument(p.page) ? [{ i, id: p.page.id, updatedAt: p.page.updatedAt }] : []))
      const reused = rows.reusableDocuments(withDocuments, reuseFrom())
      const documents = new Map<number, PageDocument>()
      withDocuments.forEach((p, j) => {
        const found = reused.get(j)
        if (found) documents.set(p.i, found)
      })
      const missing = withDocuments.filter((p) => !documents.has(p.i))
      let moved = false
      await eachLimited(missing, concurrency, async (p) => {
        if (moved) return
        const res = await get(`${scope}/content/page/${enc(p.id)}?format=markdown`)
        if (res.status === 404) return void (moved = true)
        if (!res.ok) throw await errorOf(res, `${scope}/content/page/${p.id}`)
        const page = (await res.json()) as Page
        if (page.updatedAt !== p.updatedAt) return void (moved = true)
        const markdown = page.markdown ?? ''
        documents.set(p.i, { markdown, hash: hashDocument(markdown) })
      })
      if (!moved) return { revision, pages, documents }
    }
    throw new MirrorError(409, `The content of space ${spaceId} kept changing while it was read`)
  }

  /** Whether a page of the copy is the fetched one as it is (any difference: it is written again). */
  const samePage = (held: PageRecord | undefined, page: PageRecord) => !!held && canonical(held) === canonical(page)

  /**
   * Writes a fetched revision (in the caller's transaction) with the server's id, parents, type and time, as the
   * changes from a revision of the copy (its first parent the copy holds, else `near`): it costs what changed.
   */
  function storeRevision(spaceId: string, changeRequestId: string | null, fetched: FetchedRevision, near: string[]): string {
    const { revision, pages, documents } = fetched
    const records = pages.map((p, i) => {
      const doc = documents.get(i)
      if (doc && 'markdown' in doc) storeDocument(db, doc.markdown)
      return pageRecord(p, doc)
    })
    const held = rows.revisionsIn([...(revision.parents ?? []), ...near])
    const base = [...(revision.parents ?? []), ...near].find((id) => held.has(id) && getRevision(db, id)?.space_id === spaceId) ?? null
    const before = new Map(base ? loadPages(db, base).map((p) => [p.id, p]) : [])
    const kept = new Set(records.map((p) => p.id))
    return writeRevision(db, {
      id: revision.id,
      spaceId,
      changeRequestId,
      parents: revision.parents ?? [],
      type: revision.type ?? 'edits',
      createdBy: null,
      now: revision.createdAt,
      git: revision.git ?? null,
      base,
      pages: {
        upsert: records.filter((p) => !samePage(before.get(p.id), p)),
        remove: [...before.keys()].filter((id) => !kept.has(id))
      }
    })
  }

  /**
   * Makes sure the space's organization is in the copy, and the parent collection of a space new to the copy (a
   * space pulled before the organizations). A space the copy has keeps a parent the account cannot see at the root.
   */
  async function ensureContainers(space: Space): Promise<void> {
    const newParent = !!space.parent && !rows.spaceExists(space.id) && !rows.collectionExists(space.parent)
    if (!rows.organizationExists(space.organization) || newParent) await pullOrganizations()
    if (!rows.organizationExists(space.organization)) {
      throw new MirrorError(404, `Organization ${space.organization} of space ${space.id} is not among the account's organizations`)
    }
  }

  /** The row of a space the copy may not have yet (placed after its siblings then). */
  function writeSpaceRow(space: Space): void {
    const parentId = space.parent && rows.collectionExists(space.parent) ? space.parent : null
    const exists = rows.spaceExists(space.id)
    rows.upsertSpace(space, parentId, undefined, exists ? 0 : repository(db, spaceRepository).nextPosition(space.organization, parentId))
    const owner = rows.owner()
    if (owner) rows.setAccountGrant(space.id, owner, roleOfPermissions(space.permissions), now())
  }

  async function pullSpace(spaceId: string): Promise<void> {
    const s = `/v1/spaces/${enc(spaceId)}`
    let space = await getJson<Space>(s)
    await ensureContainers(space)
    if (space.deletedAt) {
      // In the server's trash: its content is not readable there any more.
      commit(() => writeSpaceRow(space))
      return
    }
    const lists = () =>
      Promise.all([
        getAll<ChangeRequest>(`${s}/change-requests`, { status: 'open' }),
        getAll<ChangeRequest>(`${s}/change-requests`, { status: 'draft' })
      ])
    const current = repository(db, spaceRepository).get(space.id)?.revision_id
    const [content, read] = await Promise.all([fetchRevision(space.id, s, space.revision, () => (current ? [current] : [])), lists()])
    let [open, draft] = read
    if ((typeof content === 'string' ? content : content.revision.id) !== space.revision) {
      // The content moved on since the space was read: its row and lists are read again, to go with that content.
      ;[space, [open, draft]] = await Promise.all([getJson<Space>(s), lists()])
    }
    const kept = (cr: { id: string }) => !!options.keeps?.(cr.id)
    const listed = [...open, ...draft].filter((cr) => !kept(cr))
    // Change requests the copy has as open or draft that the server no longer lists so: merged or archived since.
    const listedIds = new Set([...open, ...draft].map((cr) => cr.id))
    const moved = rows.liveChangeRequests(space.id).filter((cr) => !listedIds.has(cr.id) && !kept(cr))
    const gone: string[] = []
    await eachLimited(moved, concurrency, async (cr) => {
      try {
        listed.push(await getJson<ChangeRequest>(`${s}/change-requests/${enc(cr.id)}`))
      } catch (error) {
        if (!(error instanceof MirrorError && error.status === 404)) throw error
        gone.push(cr.id)
      }
    })

    commit(() => {
      writeSpaceRow(space)
      const revisionId = typeof content === 'string' ? content : storeRevision(space.id, null, content, current ? [current] : [])
      // The search index catches up after the commit, as after a merge (or before the space's next search).
      if (rows.setSpaceRevision(space.id, revisionId)) scheduleSearchIndex(db, space.id)
      // The revision it moved from goes once nothing needs it (the search rows, once they caught up: a later pull).
      rows.pruneSpaceRevisions(space.id)
      rows.upsertUsers(
        listed.flatMap((cr) => (cr.createdBy ? [cr.createdBy] : [])),
        now()
      )
      rows.upsertChangeRequests(space.id, listed)
      rows.deleteChangeRequests(gone)
    })
  }

  async function pullChangeRequest(spaceId: string, ref: string): Promise<void> {
    const s = `/v1/spaces/${enc(spaceId)}`
    const cr = await getJson<ChangeRequest>(`${s}/change-requests/${enc(ref)}`)
    if (!rows.spaceExists(spaceId)) await pullSpace(spaceId)
    const c = `${s}/change-requests/${enc(cr.id)}`
    const [content, reviews, requested] = await Promise.all([
      fetchRevision(spaceId, c, cr.revision, () => rows.spaceRevisions(spaceId)),
      getAll<ChangeRequestReview>(`${c}/reviews`, { format: 'markdown' }),
      getAll<RequestedReviewer>(`${c}/requested-reviewers`)
    ])
    commit(() => {
      const primary = repository(db, spaceRepository).get(spaceId)?.revision_id
      const revisionId = typeof content === 'string' ? content : storeRevision(spaceId, cr.id, content, primary ? [primary] : [])
      if (cr.createdBy) rows.upsertUsers([cr.createdBy], now())
      // The content read may be newer than the row read just before it.
      rows.upsertChangeRequests(spaceId, [{ ...cr, revision: revisionId }])
      rows.mirrorReviews(spaceId, cr.id, reviews, requested, now())
    })
  }

  return { pullAccount, pullOrganizations, pullSpace, pullChangeRequest }
}

async function errorOf(res: Response, path: string): Promise<MirrorError> {
  let message = `GET ${path} answered ${res.status}`
  try {
    const body = (await res.json()) as { error?: { message?: unknown } }
    if (typeof body?.error?.message === 'string') message = body.error.message
  } catch {
    // Not the error envelope: the status says enough.
  }
  return new MirrorError(res.status, message)
}

/** Runs `fn` over `items`, at most `limit` at a time; the first failure stops taking new items and is thrown. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!
      try {
        await fn(item)
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/** JSON with object keys in order: equal values give equal text, however their objects were built. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v
  )
}
