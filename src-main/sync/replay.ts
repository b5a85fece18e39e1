// Sends a connected workspace's outbox to its server, in the order the writes were made, each exactly once and
// never as a blind overwrite (docs/sync.md):
// - Before a request leaves, the entry records it (its idempotency key, body and If-Match) in a transaction of
//   its own. An answer lost in any way (a reset, a timeout, a proxy's 502/504, a crash of either side) leaves that
//   record, and the next round settles it before anything else is sent: a change request it may have created is
//   looked for on the server, then the same request goes again with the same key (a Quire server answers a key
//   it has seen with its first answer; a content batch carries If-Match, so a server without keys refuses a
//   repeat it already applied, 412, and the server's pages then show whether it did).
// - A content batch is sent on the server's revision that holds exactly what it was made on (If-Match), when that
//   revision is known; otherwise, or when the server refuses it (412: someone changed the change request), the
//   batch is rebased: each page it touches is merged three ways (what it was made on, the batch's, the server's),
//   line by line. Overlapping edits become a conflict held in the outbox with the three versions, for the user.
// - What the server acknowledges is recorded in one transaction: the entry leaves the outbox, and the server's
//   ids of what it created (change request, its number, pages) and the revision it holds exactly are mapped.
import { randomUUID } from 'node:crypto'
import { entityTag, revisionsOfTags } from '../../src-shared/entityTags'
import { mergeText } from '../../src-shared/textMerge'
import { DELIVERY_HEADER } from '../backend/remoteBackend'
import type { ContentChangeWire } from '../../src-shared/schemas/changeRequests'
import { readDocument } from '../content/documents'
import { withMarkdownDocuments } from '../content/documentModel'
import { loadPages, type PageRecord } from '../content/revisions'
import type { OutboxCommand } from '../workspace/offline'
import type { Db } from '../storage/database'
import { numberKey, outbox, type Attempt, type Conflict, type ConflictPage, type IdKind, type OutboxEntry, type Rebase } from './outbox'

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
  /** Entries it refused this time (they wait for the user, with the reason). */
  failed: number
  /** Entries held as conflicts this time (they wait for the user to choose). */
  conflicts: number
  /**
   * Why the replay stopped before the end: the server went out of reach (or an answer was lost: the entry is
   * settled first next time), refused the workspace's token (the entries wait for a new one), or answered with an
   * error of its own.
   */
  stopped?: 'unreachable' | 'refused' | 'server-error'
  /** The server's message when it stopped on an error of its own. */
  message?: string
  /** How long the server asked to be left alone (Retry-After), when it did. */
  retryAfterMs?: number
  /** Change requests made offline that now have their server number (`from` is the number the copy gave them). */
  renumbered: { spaceId: string; from: number; to: number }[]
}

/** The server took the entry: its answer, and what to map. */
interface Sent {
  kind: 'sent'
  answer: Record<string, unknown>
  /** The server's revision now holds exactly the entry's result revision in the copy (nothing merged in). */
  exact: boolean
  /** Pages the entry inserted: the copy's id → the server's. */
  pages?: Map<string, string>
  /** Entries sent together with it as one batch (their seqs, this one first). */
  covers?: number[]
}
type Stop = { kind: 'unreachable' } | { kind: 'token-refused' } | { kind: 'server-error'; message: string; retryAfterMs?: number }
type Outcome = Sent | { kind: 'refused'; message: string } | { kind: 'conflict'; conflict: Conflict; message: string } | Stop

/** How one request went. `lost`: it may or may not have been applied. */
type Exchange =
  | { kind: 'ok'; answer: Record<string, unknown> }
  | { kind: 'stale' }
  | { kind: 'refused'; status: number; message: string }
  | { kind: 'lost' }
  | Stop

const ORIGIN = 'http://quire.localhost'

/**
 * How each outbox command (the `queue` a route declares, api/offline.ts) is sent: a content batch is rebased onto
 * the server's version of what it touches; the others are sent as they were made (opening a change request,
 * setting its subject or status). A command without an entry here cannot be declared (the type) and is refused if
 * an outbox written by another version holds one.
 */
export const REPLAYS: Record<OutboxCommand, 'rebased' | 'as-made'> = {
  'create-change-request': 'as-made',
  'update-change-request': 'as-made',
  content: 'rebased'
}
/** Rebases of one entry in one round before it waits for the next (someone keeps changing the change request). */
const MAX_REBASES = 3

/** Sends what the outbox holds; entries of a change request wait behind one of its entries that waits for the user. */
export async function replayOutbox(deps: ReplayDeps): Promise<ReplayOutcome> {
  const box = outbox(deps.db)
  const outcome: ReplayOutcome = { sent: 0, failed: 0, conflicts: 0, renumbered: [] }
  const waiting = new Set<string>()
  // The copy's ids the server knows by others: read once, then kept along with what each entry maps.
  const ids = box.idMap()
  const listed = box.list()
  for (let i = 0; i < listed.length; i++) {
    const entry = box.get(listed[i]!.seq)
    if (!entry) continue
    if (entry.failed_at || entry.conflict || waiting.has(entry.change_request_id)) {
      waiting.add(entry.change_request_id)
      continue
    }
    // Saves of a change request's pages made one after another go as one batch when nothing stands between them.
    const group = savesFrom(listed, i)
    const result = (group.length > 1 && (await sendGroup(deps, group, ids))) || (await sendEntry(deps, entry, ids))
    if (result.kind === 'unreachable' || result.kind === 'token-refused' || result.kind === 'server-error') {
      outcome.stopped = result.kind === 'token-refused' ? 'refused' : result.kind
      if (result.kind === 'server-error') {
        outcome.message = result.message
        if (result.retryAfterMs !== undefined) outcome.retryAfterMs = result.retryAfterMs
      }
      return outcome
    }
    if (result.kind === 'refused' || result.kind === 'conflict') {
      deps.db
        .transaction(() => {
          if (result.kind === 'conflict') box.markConflict(entry.seq, result.conflict, result.message, deps.now())
          else box.markFailed(entry.seq, result.message, deps.now())
          box.markAttempt(entry.seq, null)
        })
        .immediate()
      waiting.add(entry.change_request_id)
      if (result.kind === 'conflict') outcome.conflicts++
      else outcome.failed++
      continue
    }
    const renumbered = deps.db.transaction(() => record(deps.db, entry, result, ids)).immediate()
    if (renumbered) outcome.renumbered.push(renumbered)
    // Entries a batch covered are gone from the outbox: the loop passes them by.
    outcome.sent += result.covers?.length ?? 1
    if (!box.hasPending(entry.change_request_id)) {
      await deps.settled?.({ spaceId: entry.space_id, changeRequestId: entry.change_request_id, remoteId: String(result.answer.id) })
    }
  }
  return outcome
}

/** Takes a sent entry out of the outbox and keeps the server's ids for what it made (one transaction). */
function record(db: Db, first: OutboxEntry, sent: Sent, ids: Map<string, string>): ReplayOutcome['renumbered'][number] | undefined {
  const box = outbox(db)
  const answer = sent.answer
  const map = (local: string, remote: string, kind: IdKind) => {
    box.mapId(local, remote, kind)
    ids.set(local, remote)
  }
  // A batch of several saves: all of them were sent; the last one's revision is what the server now holds.
  let entry = first
  for (const seq of sent.covers ?? [first.seq]) {
    entry = box.get(seq) ?? entry
    box.remove(seq)
  }
  for (const [local, remote] of sent.pages ?? []) map(local, remote, 'page')
  if (entry.kind === 'create-change-request') {
    map(entry.change_request_id, String(answer.id), 'change-request')
    const local = box.changeRequestNumber(entry.change_request_id)
    if (local !== undefined) {
      map(numberKey(entry.space_id, local), String(answer.number), 'change-request-number')
      return { spaceId: entry.space_id, from: local, to: Number(answer.number) }
    }
  }
  // Only a revision that holds exactly what the copy's does: a later entry made on it is sent on it as it is.
  if (entry.kind === 'content' && sent.exact && entry.result_revision && typeof answer.revision === 'string') {
    map(entry.result_revision, answer.revision, 'revision')
  }
  return undefined
}

type Change = {
  operation: string
  page?: string
  parent?: string | null
  document?: { markdown: string }
  title?: string
  [key: string]: unknown
}

async function sendEntry(deps: ReplayDeps, entry: OutboxEntry, ids: Map<string, string>): Promise<Outcome> {
  const box = outbox(deps.db)
  if (entry.attempt) {
    // The last request's answer was lost: settle it before anything else goes.
    const settled = await settle(deps, entry, JSON.parse(entry.attempt) as Attempt, ids)
    if (settled) return settled
    box.markAttempt(entry.seq, null)
  }
  const path = entryPath(entry, ids)
  const replay = (REPLAYS as Record<string, string | undefined>)[entry.kind]
  if (!replay) return { kind: 'refused', message: `This version of Quire cannot send a ${entry.kind} change` }
  if (replay === 'as-made') {
    const attempt = newAttempt(deps, entry.method, path, entry.body && rewriteIds(entry.body, ids))
    const result = await send(deps, entry, attempt)
    return result.kind === 'ok' ? { kind: 'sent', answer: result.answer, exact: false } : outcomeOf(deps, entry, result)
  }
  const local = changesOf(entry.body)
  let pairs: Pair[] = changesOf(entry.body && rewriteIds(entry.body, ids)).map((change, i) => ({ local: local[i]!, change }))
  const rebase = entry.rebase ? (JSON.parse(entry.rebase) as Rebase) : undefined
  // The server's revision holding exactly what the entry was made on: known when the entry before it went as it
  // was (or the entry was made on the server's own revision), or a user's resolution named it.
  let ifMatch = rebase?.revision ?? (entry.base_revision ? (ids.get(entry.base_revision) ?? entry.base_revision) : undefined)
  let exact = !rebase
  for (let round = 0; round <= MAX_REBASES; round++) {
    const changes = pairs.flatMap((p) => (p.change ? [p.change] : []))
    if (!changes.length) {
      // Nothing left to send (what it did, the server did too): the entry is done.
      const res = await deps.send(new Request(`${ORIGIN}${path.replace(/\/content$/, '')}`))
      if (!res.ok) return res.status === 401 ? { kind: 'token-refused' } : { kind: 'unreachable' }
      return { kind: 'sent', answer: parse(await res.text()) as Record<string, unknown>, exact: false }
    }
    const attempt = newAttempt(deps, 'POST', path, JSON.stringify({ changes }), ifMatch)
    const result = await send(deps, entry, attempt)
    if (result.kind === 'ok') {
      const pages = await insertedPageIds(deps, entry, path, ids, true)
      if (!(pages instanceof Map)) return pages
      return { kind: 'sent', answer: result.answer, exact, pages }
    }
    if (result.kind !== 'stale') return outcomeOf(deps, entry, result)
    deps.db.transaction(() => outbox(deps.db).markAttempt(entry.seq, null)).immediate()
    // Someone changed the change request since the entry's base: merge the server's version in.
    const merged = await rebaseChanges(deps, entry, path, pairs, rebase)
    if (merged.kind !== 'merged') return merged
    pairs = merged.pairs
    ifMatch = merged.revision
    exact = false
  }
  return {
    kind: 'server-error',
    message: 'The change request kept changing on the server while this edit was being sent: it is sent again later'
  }
}

/** The next request of an entry, with a key of its own (a different request must never reuse a key). */
function newAttempt(deps: ReplayDeps, method: string, path: string, body: string | null, ifMatch?: string): Attempt {
  return { key: randomUUID(), at: deps.now(), method, path, body, ...(ifMatch ? { ifMatch: entityTag(ifMatch) } : {}) }
}

/** Records the attempt (its own transaction: it must be on disk before the request leaves), then sends it. */
async function send(deps: ReplayDeps, entry: OutboxEntry, attempt: Attempt): Promise<Exchange> {
  deps.db.transaction(() => outbox(deps.db).markAttempt(entry.seq, attempt)).immediate()
  return exchange(deps, attempt)
}

/** What a failed exchange means for the entry. A lost answer keeps the attempt, to be settled next time. */
function outcomeOf(deps: ReplayDeps, entry: OutboxEntry, result: Exclude<Exchange, { kind: 'ok' }>): Outcome {
  if (result.kind === 'lost') return { kind: 'unreachable' }
  if (result.kind === 'stale')
    return { kind: 'refused', message: 'The server refused this change: it was made on a version of the change request it no longer has' }
  // Certainly not applied: the attempt goes (a refusal is shown to the user; the rest is sent again later).
  if (result.kind !== 'server-error') deps.db.transaction(() => outbox(deps.db).markAttempt(entry.seq, null)).immediate()
  if (result.kind === 'refused') return { kind: 'refused', message: result.message }
  return result
}

/**
 * The outcome of a request whose answer was lost. Undefined: it was certainly not applied (a new request may go).
 */
async function settle(deps: ReplayDeps, entry: OutboxEntry, attempt: Attempt, ids: Map<string, string>): Promise<Outcome | undefined> {
  if (entry.kind === 'create-change-request') {
    const found = await createdBefore(deps, entry, attempt, ids)
    if (found && 'kind' in found) return found as Stop
    if (found) return { kind: 'sent', answer: found, exact: false }
  }
  if (entry.kind === 'content' && (!attempt.ifMatch || changesOf(attempt.body).some((c) => c.operation === 'insert_page'))) {
    // Nothing would make a server without keys refuse a repeat (its If-Match guards the pages a batch changes, not
    // the pages it adds): look for the batch's effect first.
    const applied = await appliedBefore(deps, entry, attempt, ids)
    if (applied.kind === 'applied') return { kind: 'sent', answer: applied.answer, exact: false, pages: applied.pages }
    if (applied.kind !== 'not-applied') return applied
  }
  // The same request again, with the same key: a server that saw the key answers as it did the first time.
  const result = await exchange(deps, attempt)
  const covers = attempt.covers ? { covers: attempt.covers } : {}
  if (result.kind === 'ok') {
    if (entry.kind !== 'content') return { kind: 'sent', answer: result.answer, exact: false }
    if (attempt.covers) return { kind: 'sent', answer: result.answer, exact: false, ...covers }
    const pages = await insertedPageIds(deps, entry, attempt.path, ids, true)
    return pages instanceof Map ? { kind: 'sent', answer: result.answer, exact: false, pages } : pages
  }
  if (result.kind === 'stale') {
    // The change request moved on since: by this batch (then its pages read as it wrote them), or by someone else.
    const applied = await appliedBefore(deps, entry, attempt, ids)
    if (applied.kind === 'applied') return { kind: 'sent', answer: applied.answer, exact: false, pages: applied.pages, ...covers }
    if (applied.kind === 'not-applied') return undefined
    return applied
  }
  if (result.kind === 'refused') return undefined
  return result.kind === 'lost' ? { kind: 'unreachable' } : result
}

async function exchange(deps: ReplayDeps, attempt: Attempt): Promise<Exchange> {
  const headers: Record<string, string> = { accept: 'application/json', 'idempotency-key': attempt.key }
  if (attempt.body !== null) headers['content-type'] = 'application/json'
  if (attempt.ifMatch) headers['if-match'] = attempt.ifMatch
  const res = await deps.send(new Request(`${ORIGIN}${attempt.path}`, { method: attempt.method, headers, body: attempt.body }))
  const text = await res.text()
  const json = parse(text)
  if (res.ok) return { kind: 'ok', answer: (json ?? {}) as Record<string, unknown> }
  const message = messageOf(json) ?? `${res.status}`
  // The workspace's token, not the write: it waits for a new token.
  if (res.status === 401) return { kind: 'token-refused' }
  if (res.status === 412) return { kind: 'stale' }
  // Never reached the server (the connection was refused, the name not found): nothing to settle.
  if (res.headers.get(DELIVERY_HEADER) === 'none') return { kind: 'unreachable' }
  // A reset, a timeout, a proxy that lost the server's answer: it may have been applied.
  if (res.status === 502 || res.status === 504 || res.status === 408) return { kind: 'lost' }
  if (res.status === 503 || res.status === 429) {
    return { kind: 'server-error', message, ...retryAfter(res.headers.get('retry-after')) }
  }
  // An error of the server's own: it may have been applied too (a server other than Quire may not roll back).
  if (res.status >= 500) return { kind: 'lost' }
  return { kind: 'refused', status: res.status, message }
}

function retryAfter(value: string | null): { retryAfterMs?: number } {
  if (!value) return {}
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return { retryAfterMs: Math.max(0, seconds * 1000) }
  const at = Date.parse(value)
  return Number.isNaN(at) ? {} : { retryAfterMs: Math.max(0, at - Date.now()) }
}

// --- saves sent together -----------------------------------------------------------------------------------

/** Most entries sent as one batch, and most pages in it (a content batch takes 50 changes). */
const GROUP_ENTRIES = 50
const GROUP_PAGES = 50

/** An entry's changes when it only sets documents of pages (what the editor's saves are), else undefined. */
function documentSaves(entry: OutboxEntry): Change[] | undefined {
  if (entry.kind !== 'content' || entry.attempt || entry.conflict || entry.rebase || entry.failed_at) return undefined
  const changes = changesOf(entry.body)
  const plain = (c: Change) =>
    c.operation === 'update_page' &&
    !!c.page &&
    !!c.document &&
    Object.keys(c).every((k) => k === 'operation' || k === 'page' || k === 'document')
  return changes.length && changes.every(plain) ? changes : undefined
}

/**
 * The entries from `listed[i]` on that can go as one batch: saves of the same change request, each made on the
 * one before (its base is the previous one's result), at most 50 entries and 50 pages. One entry: none to join.
 */
function savesFrom(listed: readonly OutboxEntry[], i: number): OutboxEntry[] {
  const first = listed[i]!
  if (!documentSaves(first)) return [first]
  const group = [first]
  const pages = new Set(changesOf(first.body).map((c) => c.page!))
  for (let j = i + 1; j < listed.length && group.length < GROUP_ENTRIES; j++) {
    const next = listed[j]!
    const prev = group[group.length - 1]!
    const changes =
      next.change_request_id === first.change_request_id && next.base_revision === prev.result_revision ? documentSaves(next) : undefined
    if (!changes) break
    const more = new Set([...pages, ...changes.map((c) => c.page!)])
    if (more.size > GROUP_PAGES) break
    for (const page of more) pages.add(page)
    group.push(next)
  }
  return group
}

/**
 * Sends consecutive saves as one batch on the server's revision that holds exactly what the first was made on:
 * each page's last text (each save holds whole documents). Undefined when the server refused it as stale (someone
 * changed the change request): the entries then go one by one, each rebased. The first entry records the attempt,
 * naming the entries it covers.
 */
async function sendGroup(deps: ReplayDeps, group: OutboxEntry[], ids: Map<string, string>): Promise<Outcome | undefined> {
  const first = group[0]!
  const texts = new Map<string, string>()
  for (const entry of group) for (const change of changesOf(entry.body)) texts.set(change.page!, change.document!.markdown)
  const changes = [...texts].map(([page, markdown]) => ({ operation: 'update_page', page, document: { markdown } }))
  const base = first.base_revision ? (ids.get(first.base_revision) ?? first.base_revision) : undefined
  const attempt: Attempt = {
    ...newAttempt(deps, 'POST', entryPath(first, ids), rewriteIds(JSON.stringify({ changes }), ids), base),
    covers: group.map((e) => e.seq)
  }
  const result = await send(deps, first, attempt)
  if (result.kind === 'ok') return { kind: 'sent', answer: result.answer, exact: true, covers: attempt.covers }
  if (result.kind !== 'stale') return outcomeOf(deps, first, result)
  deps.db.transaction(() => outbox(deps.db).markAttempt(first.seq, null)).immediate()
  return undefined
}

// --- rebasing ----------------------------------------------------------------------------------------------

/** A change as the copy made it (its ids) and as it is sent (the server's ids, merged; null: nothing left to send). */
interface Pair {
  local: Change
  change: Change | null
}

type Rebased =
  { kind: 'merged'; pairs: Pair[]; revision?: string } | { kind: 'conflict'; conflict: Conflict; message: string } | Exclude<Outcome, Sent>

/**
 * Brings a batch onto what the server has now: for each existing page it touches, the text it was made on (the
 * copy's base revision, or a user's resolution's), the batch's and the server's merge line by line. Anything else
 * about a page both changed (its title, its place, its removal) is a conflict, as are overlapping lines.
 */
async function rebaseChanges(deps: ReplayDeps, entry: OutboxEntry, path: string, pairs: Pair[], rebase?: Rebase): Promise<Rebased> {
  const base = new Map(entry.base_revision ? loadPages(deps.db, entry.base_revision).map((p) => [p.id, p]) : [])
  const contentPath = path.replace(/\/content$/, '')
  let revision: string | undefined
  const merged: Pair[] = []
  const conflicts: ConflictPage[] = []
  for (const pair of pairs) {
    const change = pair.change
    const localId = pair.local.page
    const page = localId ? base.get(localId) : undefined
    if (!change || !change.page || !page || change.operation === 'insert_page') {
      merged.push(pair)
      continue
    }
    const res = await deps.send(new Request(`${ORIGIN}${contentPath}/content/page/${encodeURIComponent(change.page)}?format=markdown`))
    const theirs = parse(await res.text()) as { markdown?: string; title?: string; error?: unknown } | undefined
    if (res.status === 502 || res.status === 504) return { kind: 'unreachable' }
    if (res.status === 401) return { kind: 'token-refused' }
    revision = revisionsOfTags(res.headers.get('etag') ?? undefined)[0] ?? revision
    const baseText = rebase?.pages[localId!] ?? readDocument(deps.db, page.documentHash)
    const mineText = change.document?.markdown ?? baseText
    if (res.status === 404) {
      // Removed on the server: removing it here too is done; anything else is for the user.
      if (change.operation === 'delete_page') {
        merged.push({ ...pair, change: null })
        continue
      }
      conflicts.push({
        page: localId!,
        title: page.title,
        kind: 'page',
        base: baseText,
        mine: mineText,
        theirs: '',
        message: `“${page.title}” was removed on the server`
      })
      continue
    }
    if (!res.ok) return { kind: 'refused', message: `“${page.title}”: ${messageOf(theirs) ?? `the server answered ${res.status}`}` }
    const theirText = theirs?.markdown ?? ''
    const untouched = theirText === baseText && (rebase?.pages[localId!] !== undefined || (theirs?.title ?? page.title) === page.title)
    if (untouched) {
      merged.push(pair)
      continue
    }
    const onlyDocument =
      change.operation === 'update_page' && Object.keys(change).every((k) => k === 'operation' || k === 'page' || k === 'document')
    if (!onlyDocument || !change.document) {
      conflicts.push({
        page: localId!,
        title: page.title,
        kind: 'page',
        base: baseText,
        mine: mineText,
        theirs: theirText,
        message: `“${page.title}” was changed on the server since it was edited here`
      })
      continue
    }
    const text = mergeText(baseText, change.document.markdown, theirText)
    if (text === undefined) {
      conflicts.push({
        page: localId!,
        title: page.title,
        kind: 'text',
        base: baseText,
        mine: mineText,
        theirs: theirText,
        message: `“${page.title}” was changed on the server in the same lines as here`
      })
      continue
    }
    merged.push({ ...pair, change: { ...change, document: { markdown: text } } })
  }
  if (revision === undefined) {
    // No page read (a batch that only inserts): the change request's revision now, so the batch still goes with
    // If-Match and a resend after a lost answer cannot apply it twice on a server without idempotency keys.
    const res = await deps.send(new Request(`${ORIGIN}${contentPath}`))
    if (res.status === 502 || res.status === 504) return { kind: 'unreachable' }
    if (res.status === 401) return { kind: 'token-refused' }
    const cr = parse(await res.text()) as { revision?: string } | undefined
    if (!res.ok || !cr?.revision)
      return { kind: 'refused', message: `The change request: ${messageOf(cr) ?? `the server answered ${res.status}`}` }
    revision = cr.revision
  }
  if (conflicts.length) {
    return { kind: 'conflict', conflict: { revision, pages: conflicts }, message: conflicts.map((c) => c.message).join('; ') }
  }
  return { kind: 'merged', pairs: merged, revision }
}

// --- what the server already has ---------------------------------------------------------------------------

/**
 * The change request a lost answer created, if the server has it: a draft or open one with the same subject, made
 * by the same account, that the copy does not know (neither pulled nor mapped to another entry's). Clocks are not
 * compared: the server's may be anything.
 */
async function createdBefore(
  deps: ReplayDeps,
  entry: OutboxEntry,
  attempt: Attempt,
  ids: Map<string, string>
): Promise<Record<string, unknown> | Stop | undefined> {
  const subject = (parse(attempt.body ?? '') as { subject?: string } | undefined)?.subject ?? ''
  const box = outbox(deps.db)
  const taken = new Set(ids.values())
  const author = box.changeRequestAuthor(entry.change_request_id)
  // A change request is opened as a draft; a later entry that moved it on waits behind this one.
  for (const status of ['draft', 'open']) {
    const res = await deps.send(
      new Request(`${ORIGIN}/v1/spaces/${encodeURIComponent(entry.space_id)}/change-requests?status=${status}&limit=100`)
    )
    if (res.status === 502 || res.status === 504) return { kind: 'unreachable' }
    if (res.status === 401) return { kind: 'token-refused' }
    const list = parse(await res.text()) as { items?: { id: string; subject?: string; createdBy?: { id?: string } }[] } | undefined
    if (!res.ok || !list?.items) continue
    const found = list.items.find(
      (cr) =>
        !taken.has(cr.id) &&
        box.changeRequestNumber(cr.id) === undefined &&
        (cr.subject ?? '') === subject &&
        (!author || cr.createdBy?.id === author)
    )
    if (found) return found as Record<string, unknown>
  }
  return undefined
}

type Applied = { kind: 'applied'; answer: Record<string, unknown>; pages: Map<string, string> } | { kind: 'not-applied' } | Stop

/** Whether the server's change request holds what a batch sent (its pages read as the batch wrote them). */
async function appliedBefore(deps: ReplayDeps, entry: OutboxEntry, attempt: Attempt, ids: Map<string, string>): Promise<Applied> {
  const changes = changesOf(attempt.body)
  const contentPath = attempt.path.replace(/\/content$/, '')
  for (const change of changes) {
    if (change.operation === 'insert_page' || !change.page) continue
    const res = await deps.send(new Request(`${ORIGIN}${contentPath}/content/page/${encodeURIComponent(change.page)}?format=markdown`))
    if (res.status === 502 || res.status === 504) return { kind: 'unreachable' }
    if (res.status === 401) return { kind: 'token-refused' }
    const page = parse(await res.text()) as { markdown?: string; title?: string } | undefined
    if (change.operation === 'delete_page') {
      if (res.status !== 404) return { kind: 'not-applied' }
      continue
    }
    if (!res.ok || !page) return { kind: 'not-applied' }
    if (change.document && page.markdown !== change.document.markdown) return { kind: 'not-applied' }
    if (change.title !== undefined && page.title !== change.title) return { kind: 'not-applied' }
  }
  const pages = await insertedPageIds(deps, entry, attempt.path, ids)
  if (!(pages instanceof Map)) return pages.kind === 'refused' ? { kind: 'not-applied' } : (pages as Stop)
  const inserted = changes.filter((c) => c.operation === 'insert_page')
  if (pages.size < inserted.length) return { kind: 'not-applied' }
  // The pages found by parent and title hold what the batch wrote (not pages someone else added alike meanwhile).
  const written = inserted.map((c) => c.document?.markdown ?? '')
  for (const remoteId of pages.values()) {
    const res = await deps.send(new Request(`${ORIGIN}${contentPath}/content/page/${encodeURIComponent(remoteId)}?format=markdown`))
    if (res.status === 502 || res.status === 504) return { kind: 'unreachable' }
    const page = parse(await res.text()) as { markdown?: string } | undefined
    const at = written.indexOf(page?.markdown ?? '')
    if (!res.ok || at < 0) return { kind: 'not-applied' }
    written.splice(at, 1)
  }
  const res = await deps.send(new Request(`${ORIGIN}${contentPath}`))
  if (!res.ok) return res.status === 401 ? { kind: 'token-refused' } : { kind: 'unreachable' }
  return { kind: 'applied', answer: parse(await res.text()) as Record<string, unknown>, pages }
}

interface RemotePage {
  id: string
  parentId: string | null
  title: string
}

interface WirePage {
  id: string
  title: string
  pages?: WirePage[]
}

async function remotePages(deps: ReplayDeps, contentPath: string): Promise<RemotePage[] | Stop | { kind: 'refused'; message: string }> {
  const res = await deps.send(new Request(`${ORIGIN}${contentPath.replace(/\/content$/, '')}/content/pages`))
  const json = parse(await res.text()) as { pages?: WirePage[] } | undefined
  if (res.status === 502 || res.status === 504) return { kind: 'unreachable' }
  if (res.status === 401) return { kind: 'token-refused' }
  if (!res.ok)
    return res.status >= 500
      ? { kind: 'server-error', message: messageOf(json) ?? `${res.status}` }
      : { kind: 'refused', message: messageOf(json) ?? `${res.status}` }
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

/**
 * The server's ids for the pages a batch inserted (none: an empty map, without asking): each inserted page of the
 * copy is the server's page under the same parent with the same title that the copy does not know yet (in order,
 * when several share both).
 */
async function insertedPageIds(
  deps: ReplayDeps,
  entry: OutboxEntry,
  path: string,
  ids: Map<string, string>,
  /** The batch is known to be applied: a page not found by parent and title takes the next new page. */
  applied = false
): Promise<Map<string, string> | Stop | { kind: 'refused'; message: string }> {
  const found = new Map<string, string>()
  if (!entry.result_revision || !entry.base_revision || !changesOf(entry.body).some((c) => c.operation === 'insert_page')) return found
  const before = loadPages(deps.db, entry.base_revision)
  const inserted = insertedPages(before, loadPages(deps.db, entry.result_revision))
  if (!inserted.length) return found
  const server = await remotePages(deps, path)
  if (!Array.isArray(server)) return server
  // Pages the server had before the batch, as far as the copy knows them, and pages already claimed.
  const known = new Set([...before.map((p) => ids.get(p.id) ?? p.id), ...ids.values()])
  const unclaimed = server.filter((p) => !known.has(p.id))
  const claim = (i: number) => unclaimed.splice(i, 1)[0]!
  for (const page of inserted) {
    const parent = page.parentId === null ? null : (found.get(page.parentId) ?? ids.get(page.parentId) ?? page.parentId)
    const exact = unclaimed.findIndex((p) => p.parentId === parent && p.title === page.title)
    const match = exact >= 0 ? claim(exact) : applied && unclaimed.length ? claim(0) : undefined
    if (match) found.set(page.id, match.id)
  }
  return found
}

/** Pages a batch inserted in the copy: in its result revision and not in its base, in tree order. */
function insertedPages(before: readonly PageRecord[], after: readonly PageRecord[]): PageRecord[] {
  const had = new Set(before.map((p) => p.id))
  return after.filter((p) => !had.has(p.id))
}

// --- paths and ids -----------------------------------------------------------------------------------------

function changesOf(body: string | null): Change[] {
  // A batch may carry a document model: the replay compares and merges markdown.
  const changes = ((body ? JSON.parse(body) : { changes: [] }) as { changes?: ContentChangeWire[] }).changes ?? []
  return withMarkdownDocuments(changes) as Change[]
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
  const error = (json as { error?: { message?: unknown } } | undefined)?.error
  return typeof error?.message === 'string' ? error.message : undefined
}
