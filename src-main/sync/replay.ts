// Sends a connected workspace's outbox to its server, in the order the writes were made: ids the copy made are
// replaced by the server's as they become known, each content batch names the revision it was written on
// (If-Match) so the server refuses it where someone changed those pages meanwhile, and such a batch is merged
// with what changed (line by line, as change requests merge) before it is sent again. What still clashes, or
// what the server refuses, waits in the outbox for the user, with the server's reason; nothing is overwritten.
import { mergeText } from '../../src-shared/textMerge'
import { entityTag, revisionsOfTags } from '../../src-shared/entityTags'
import { loadPages, type PageRecord } from '../content/revisions'
import { readDocument } from '../content/documents'
import type { Db } from '../storage/database'
import { numberKey, outbox, type OutboxEntry } from './outbox'

export interface ReplayDeps {
  /** The local copy. */
  db: Db
  /** A request to the server, as the workspace's account (the RemoteBackend). */
  send(request: Request): Promise<Response>
  now(): string
  /** Called once a change request has nothing left in the outbox (the copy then takes the server's version). */
  settled?(entry: { spaceId: string; changeRequestId: string; remoteId: string }): Promise<void>
}

export interface ReplayOutcome {
  /** Entries the server took. */
  sent: number
  /** Entries it refused this time (they wait, with the reason). */
  failed: number
  /**
   * Why the replay stopped before the end: the server went out of reach, refused the workspace's token (the
   * entries wait for a new one), or answered with an error of its own.
   */
  stopped?: 'unreachable' | 'refused' | 'server-error'
  /** The server's message when it stopped on an error of its own. */
  message?: string
  /** Change requests made offline that now have their server number (`from` is the number the copy gave them). */
  renumbered: { spaceId: string; from: number; to: number }[]
}

type Sent = { kind: 'sent'; answer: Record<string, unknown> }
type Stop = { kind: 'unreachable' } | { kind: 'token-refused' } | { kind: 'server-error'; message: string }
type Result = Sent | { kind: 'refused'; message: string } | Stop

const ORIGIN = 'http://quire.localhost'

/** Sends what the outbox holds; entries of a change request wait behind one of its entries the server refused. */
export async function replayOutbox(deps: ReplayDeps): Promise<ReplayOutcome> {
  const box = outbox(deps.db)
  const outcome: ReplayOutcome = { sent: 0, failed: 0, renumbered: [] }
  const waiting = new Set<string>()
  for (const listed of box.list()) {
    const entry = box.get(listed.seq)
    if (!entry) continue
    if (entry.failed_at || waiting.has(entry.change_request_id)) {
      waiting.add(entry.change_request_id)
      continue
    }
    const result = await sendEntry(deps, entry)
    if (result.kind === 'unreachable' || result.kind === 'token-refused' || result.kind === 'server-error') {
      outcome.stopped = result.kind === 'token-refused' ? 'refused' : result.kind
      if (result.kind === 'server-error') outcome.message = result.message
      return outcome
    }
    if (result.kind === 'refused') {
      box.markFailed(entry.seq, result.message, deps.now())
      waiting.add(entry.change_request_id)
      outcome.failed++
      continue
    }
    const renumbered = deps.db.transaction(() => record(deps.db, entry, result.answer)).immediate()
    if (renumbered) outcome.renumbered.push(renumbered)
    outcome.sent++
    if (!box.hasPending(entry.change_request_id)) {
      await deps.settled?.({ spaceId: entry.space_id, changeRequestId: entry.change_request_id, remoteId: String(result.answer.id) })
    }
  }
  return outcome
}

/** Takes a sent entry out of the outbox and keeps the server's ids for what it made (one transaction). */
function record(db: Db, entry: OutboxEntry, answer: Record<string, unknown>): ReplayOutcome['renumbered'][number] | undefined {
  const box = outbox(db)
  box.remove(entry.seq)
  if (entry.kind === 'create-change-request') {
    box.mapId(entry.change_request_id, String(answer.id), 'change-request')
    const local = box.changeRequestNumber(entry.change_request_id)
    if (local !== undefined) {
      box.mapId(numberKey(entry.space_id, local), String(answer.number), 'change-request-number')
      return { spaceId: entry.space_id, from: local, to: Number(answer.number) }
    }
  }
  if (entry.kind === 'content' && entry.result_revision && typeof answer.revision === 'string') {
    box.mapId(entry.result_revision, answer.revision, 'revision')
  }
  return undefined
}

async function sendEntry(deps: ReplayDeps, entry: OutboxEntry): Promise<Result> {
  const ids = outbox(deps.db).idMap()
  const path = entryPath(entry, ids)
  if (entry.kind !== 'content') return exchange(deps, entry.method, path, entry.body && rewriteIds(entry.body, ids))
  const changes = (JSON.parse(rewriteIds(entry.body ?? '{"changes":[]}', ids)) as { changes: Change[] }).changes
  const base = entry.base_revision && (ids.get(entry.base_revision) ?? entry.base_revision)
  const inserted = entry.result_revision && entry.base_revision && changes.some((c) => c.operation === 'insert_page')
    ? insertedPages(deps.db, entry.base_revision, entry.result_revision)
    : []
  const before = inserted.length ? await remotePageIds(deps, path) : undefined
  if (before && !(before instanceof Set)) return before
  let result = await exchange(deps, 'POST', path, JSON.stringify({ changes }), base ? entityTag(base) : undefined)
  if (result.kind === 'refused' && result.status === 412 && entry.base_revision) {
    // Someone changed pages of this batch since it was written: merge their edits in, then send it on top of them.
    const merged = await mergeWithServer(deps, path, entry.base_revision, changes)
    if ('conflict' in merged) return { kind: 'refused', message: merged.conflict }
    result = await exchange(deps, 'POST', path, JSON.stringify({ changes: merged.changes }), merged.revision ? entityTag(merged.revision) : undefined)
  }
  if (result.kind !== 'sent') return result.kind === 'refused' ? { kind: 'refused', message: result.message } : result
  if (inserted.length && before) {
    const after = await remotePages(deps, path)
    if (!Array.isArray(after)) return after
    matchInserted(deps.db, inserted, after.filter((p) => !before.has(p.id)), ids)
  }
  return result
}

type Change = { operation: string; page?: string; into?: string | null; document?: { markdown: string }; title?: string; [key: string]: unknown }

async function exchange(
  deps: ReplayDeps,
  method: string,
  path: string,
  body: string | null,
  ifMatch?: string
): Promise<Sent | { kind: 'refused'; status: number; message: string } | Stop> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (body !== null) headers['content-type'] = 'application/json'
  if (ifMatch) headers['if-match'] = ifMatch
  const res = await deps.send(new Request(`${ORIGIN}${path}`, { method, headers, body }))
  const text = await res.text()
  const json = parse(text)
  if (res.ok) return { kind: 'sent', answer: (json ?? {}) as Record<string, unknown> }
  const message = messageOf(json) ?? `${res.status}`
  // Out of reach (502) never reached the server; a timeout (504) may have: the user decides, nothing is sent twice.
  if (res.status === 502) return { kind: 'unreachable' }
  // The workspace's token, not the write: it waits for a new token.
  if (res.status === 401) return { kind: 'token-refused' }
  if (res.status === 504) return { kind: 'refused', status: 504, message: `${message}: it may have applied this change; check the change request, then send it again or discard it` }
  if (res.status >= 500) return { kind: 'server-error', message }
  return { kind: 'refused', status: res.status, message }
}

/**
 * Brings the batch's document edits onto what the server has now: for each page the batch writes, the text it
 * was written on (the copy's base revision), the batch's text and the server's merge line by line. Anything else
 * about a page someone changed (its title, its place, its removal) is left to the user.
 */
async function mergeWithServer(
  deps: ReplayDeps,
  path: string,
  baseRevision: string,
  changes: Change[]
): Promise<{ changes: Change[]; revision?: string } | { conflict: string }> {
  const base = new Map(loadPages(deps.db, baseRevision).map((p) => [p.id, p]))
  const contentPath = path.replace(/\/content$/, '')
  let revision: string | undefined
  const merged: Change[] = []
  for (const change of changes) {
    const page = change.page && base.get(change.page)
    if (!change.page || !page) {
      merged.push(change)
      continue
    }
    const res = await deps.send(new Request(`${ORIGIN}${contentPath}/content/page/${encodeURIComponent(change.page)}?format=markdown`))
    const theirs = parse(await res.text()) as { markdown?: string; title?: string } | undefined
    if (!res.ok) return { conflict: `“${page.title}”: ${messageOf(theirs) ?? `the server answered ${res.status}`}` }
    revision = revisionsOfTags(res.headers.get('etag') ?? undefined)[0] ?? revision
    const baseText = readDocument(deps.db, page.documentHash)
    const theirText = theirs?.markdown ?? ''
    const untouched = theirText === baseText && (theirs?.title ?? page.title) === page.title
    if (untouched) {
      merged.push(change)
      continue
    }
    const onlyDocument = change.operation === 'update_page' && Object.keys(change).every((k) => k === 'operation' || k === 'page' || k === 'document')
    if (!onlyDocument || !change.document) {
      return { conflict: `“${page.title}” was changed on the server since it was edited here: open the change request and apply the edit again` }
    }
    const text = mergeText(baseText, change.document.markdown, theirText)
    if (text === undefined) {
      return { conflict: `“${page.title}” was changed on the server in the same lines as here: open the change request to compare and apply the edit again` }
    }
    merged.push({ ...change, document: { markdown: text } })
  }
  return { changes: merged, revision }
}

interface RemotePage {
  id: string
  parentId: string | null
  title: string
}

async function remotePages(deps: ReplayDeps, contentPath: string): Promise<RemotePage[] | Stop | { kind: 'refused'; message: string }> {
  const res = await deps.send(new Request(`${ORIGIN}${contentPath.replace(/\/content$/, '')}/content/pages`))
  const json = parse(await res.text()) as { pages?: WirePage[] } | undefined
  if (res.status === 502) return { kind: 'unreachable' }
  if (res.status === 401) return { kind: 'token-refused' }
  // The workspace's token, not the write: it waits for a new token.
  if (res.status === 401) return { kind: 'token-refused' }
  if (!res.ok) return res.status >= 500 ? { kind: 'server-error', message: messageOf(json) ?? `${res.status}` } : { kind: 'refused', message: messageOf(json) ?? `${res.status}` }
  const flat: RemotePage[] = []
  const walk = (pages: WirePage[] | undefined, parentId: string | null) => {
    for (const p of pages ?? []) {
      flat.push({ id: p.id, parentId, title: p.title })
      walk(p.pages, p.id)
    }
  }
  walk(json?.pages, null)
  return flat
}

interface WirePage {
  id: string
  title: string
  pages?: WirePage[]
}

async function remotePageIds(deps: ReplayDeps, contentPath: string) {
  const pages = await remotePages(deps, contentPath)
  return Array.isArray(pages) ? new Set(pages.map((p) => p.id)) : pages
}

/** Pages a batch inserted in the copy: in its result revision and not in its base, in tree order. */
function insertedPages(db: Db, baseRevision: string, resultRevision: string): PageRecord[] {
  const before = new Set(loadPages(db, baseRevision).map((p) => p.id))
  return loadPages(db, resultRevision).filter((p) => !before.has(p.id))
}

/**
 * The server's ids for pages a batch inserted: each inserted page of the copy is the new page of the server under
 * the same parent with the same title (in order, when several share both), else the next unclaimed new page.
 */
function matchInserted(db: Db, inserted: PageRecord[], fresh: RemotePage[], ids: Map<string, string>): void {
  const box = outbox(db)
  const unclaimed = [...fresh]
  const claim = (i: number) => unclaimed.splice(i, 1)[0]!
  db.transaction(() => {
    for (const page of inserted) {
      const parent = page.parentId === null ? null : (ids.get(page.parentId) ?? page.parentId)
      const exact = unclaimed.findIndex((p) => p.parentId === parent && p.title === page.title)
      const match = exact >= 0 ? claim(exact) : unclaimed.length ? claim(0) : undefined
      if (!match) continue
      box.mapId(page.id, match.id, 'page')
      ids.set(page.id, match.id)
    }
  }).immediate()
}

/**
 * An entry's path for the server: its change request named by the server's id (the copy's number may mean another
 * change request there, and the app's own requests may have moved on to the server's number meanwhile), other ids
 * the copy made replaced by the server's.
 */
function entryPath(entry: OutboxEntry, ids: Map<string, string>): string {
  const [pathname, query] = splitQuery(entry.path)
  const segments = pathname.split('/')
  const cr = segments.indexOf('change-requests')
  if (cr > 0 && cr + 1 < segments.length) segments[cr + 1] = encodeURIComponent(entry.change_request_id)
  return rewritePath(segments.join('/') + (query === undefined ? '' : `?${query}`), entry.space_id, ids)
}

/** A path as the copy knew it, with the server's ids (and change request numbers) where they are known. */
export function rewritePath(path: string, spaceId: string, ids: Map<string, string>): string {
  const [pathname, query] = splitQuery(path)
  const segments = pathname.split('/')
  const cr = segments.indexOf('change-requests')
  const out = segments.map((segment, i) => {
    if (i === cr + 1 && cr > 0 && /^\d+$/.test(segment)) return ids.get(numberKey(spaceId, segment)) ?? segment
    return ids.get(segment) ?? segment
  })
  return out.join('/') + (query === undefined ? '' : `?${query}`)
}

/** Ids (20 URL-safe characters) in a JSON text replaced by the server's, where known. Markdown links to them too. */
export function rewriteIds(text: string, ids: Map<string, string>): string {
  if (!ids.size) return text
  return text.replace(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{20}(?![A-Za-z0-9_-])/g, (id) => ids.get(id) ?? id)
}

function splitQuery(path: string): [string, string | undefined] {
  const q = path.indexOf('?')
  return q < 0 ? [path, undefined] : [path.slice(0, q), path.slice(q + 1)]
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    return undefined
  }
}

function messageOf(json: unknown): string | undefined {
  const message = (json as { error?: { message?: unknown } } | undefined)?.error?.message
  return typeof message === 'string' ? message : undefined
}
