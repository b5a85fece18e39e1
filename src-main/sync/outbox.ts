// The outbox of a connected workspace's local copy: writes made there while the server was out of reach, in
// the order they were made, and the server's ids for what they created once sent (migration 0015).
import type { OutboxConflictPage, OutboxItem } from '../../src-shared/workspaces'
import type { OutboxCommand } from '../workspace/offline'
import { deleteRevisions } from '../content/revisions'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'

/** What an entry does: the command its route declared (api/offline.ts). */
export type OutboxKind = OutboxCommand

export interface OutboxEntry {
  seq: number
  method: string
  path: string
  body: string | null
  kind: OutboxKind
  space_id: string
  change_request_id: string
  base_revision: string | null
  result_revision: string | null
  created_at: string
  failed_at: string | null
  error: string | null
  /** JSON `Attempt`: the request last sent for this entry, recorded before it was sent. */
  attempt: string | null
  /** JSON `Conflict`: what the server changed in the same places, held for the user. */
  conflict: string | null
  /** JSON `Rebase`: the server's version a user's resolution was made against. */
  rebase: string | null
}

/** A request as sent for an entry: resent as is (same key) while its outcome is unknown. */
export interface Attempt {
  key: string
  at: string
  method: string
  path: string
  body: string | null
  ifMatch?: string
  /** Entries (seqs) this request sends together, as one batch: this entry first. */
  covers?: number[]
}

/** A page of a conflict as held: what the user sees of it (OutboxConflictPage), and why, in words. */
export interface ConflictPage extends OutboxConflictPage {
  message: string
}

export interface Conflict {
  /** The server's revision of the change request the versions were read at. */
  revision: string
  pages: ConflictPage[]
}

/** The server's version of pages a user resolved against: the base of their next merge, and the If-Match. */
export interface Rebase {
  revision: string
  pages: Record<string, string>
}

export type IdKind = 'change-request' | 'change-request-number' | 'revision' | 'page'

/** The key a change request number is mapped under (numbers are per space). */
export const numberKey = (spaceId: string, number: number | string) => `number:${spaceId}:${number}`

export function outboxRepository(db: Db) {
  const insert = db.prepare(
    `INSERT INTO sync_outbox (method, path, body, kind, space_id, change_request_id, base_revision, result_revision, created_at)
     VALUES (@method, @path, @body, @kind, @space_id, @change_request_id, @base_revision, @result_revision, @created_at)`
  )
  const all = db.prepare<[], OutboxEntry>('SELECT * FROM sync_outbox ORDER BY seq')
  const first = db.prepare<[], OutboxEntry>('SELECT * FROM sync_outbox ORDER BY seq LIMIT 1')
  const bySeq = db.prepare<[number], OutboxEntry>('SELECT * FROM sync_outbox WHERE seq = ?')
  const remove = db.prepare('DELETE FROM sync_outbox WHERE seq = ?')
  const fail = db.prepare('UPDATE sync_outbox SET failed_at = ?, error = ? WHERE seq = ?')
  const clear = db.prepare('UPDATE sync_outbox SET failed_at = NULL, error = NULL, conflict = NULL WHERE seq = ?')
  const setAttempt = db.prepare('UPDATE sync_outbox SET attempt = ? WHERE seq = ?')
  const setConflict = db.prepare('UPDATE sync_outbox SET conflict = ?, failed_at = ?, error = ? WHERE seq = ?')
  const setResolved = db.prepare(
    'UPDATE sync_outbox SET body = ?, rebase = ?, conflict = NULL, failed_at = NULL, error = NULL, attempt = NULL WHERE seq = ?'
  )
  const pendingFor = db.prepare<[string], number>('SELECT count(*) FROM sync_outbox WHERE change_request_id = ?').pluck()
  const created = db
    .prepare<[string], number>("SELECT count(*) FROM sync_outbox WHERE change_request_id = ? AND kind = 'create-change-request'")
    .pluck()
  const count = db.prepare<[], number>('SELECT count(*) FROM sync_outbox').pluck()
  const failed = db.prepare<[], number>('SELECT count(*) FROM sync_outbox WHERE failed_at IS NOT NULL AND conflict IS NULL').pluck()
  const conflicts = db.prepare<[], number>('SELECT count(*) FROM sync_outbox WHERE conflict IS NOT NULL').pluck()
  const setId = db.prepare(
    'INSERT INTO sync_ids (local_id, remote_id, kind) VALUES (?, ?, ?) ON CONFLICT (local_id) DO UPDATE SET remote_id = excluded.remote_id'
  )
  const getId = db.prepare<[string], string>('SELECT remote_id FROM sync_ids WHERE local_id = ?').pluck()
  const deleteId = db.prepare('DELETE FROM sync_ids WHERE local_id = ?')
  const allIds = db.prepare<[], { local_id: string; remote_id: string }>('SELECT local_id, remote_id FROM sync_ids')
  // The copy's change requests as the outbox names them (an id, or a number of the space).
  const changeRequestRef = db
    .prepare<[string, string, string], string>(
      'SELECT id FROM change_requests WHERE space_id = ? AND (id = ? OR number = CAST(? AS INTEGER))'
    )
    .pluck()
  const changeRequestNumber = db.prepare<[string], number>('SELECT number FROM change_requests WHERE id = ?').pluck()
  const changeRequestAuthor = db.prepare<[string], string | null>('SELECT created_by FROM change_requests WHERE id = ?').pluck()
  const changeRequestsNamed = db.prepare<[string], { id: string; number: number; subject: string; space_title: string }>(
    `SELECT cr.id, cr.number, cr.subject, s.title AS space_title FROM change_requests cr JOIN spaces s ON s.id = cr.space_id
     WHERE cr.id IN (SELECT value FROM json_each(?))`
  )
  const deleteChangeRequest = db.prepare('DELETE FROM change_requests WHERE id = ?')
  // Revisions of a change request that neither it nor the outbox refers to.
  const prunable = db
    .prepare<{ cr: string }, string>(
      `SELECT id FROM revisions WHERE change_request_id = @cr
       AND id NOT IN (SELECT revision_id FROM change_requests WHERE id = @cr)
       AND id NOT IN (SELECT revision_initial FROM change_requests WHERE id = @cr)
       AND id NOT IN (SELECT revision_merged_ancestor FROM change_requests WHERE id = @cr AND revision_merged_ancestor IS NOT NULL)
       AND id NOT IN (SELECT base_revision FROM sync_outbox WHERE base_revision IS NOT NULL)
       AND id NOT IN (SELECT result_revision FROM sync_outbox WHERE result_revision IS NOT NULL)`
    )
    .pluck()

  return {
    append(entry: Omit<OutboxEntry, 'seq' | 'failed_at' | 'error' | 'attempt' | 'conflict' | 'rebase'>): void {
      insert.run(entry)
    },
    list: () => all.all(),
    first: () => first.get(),
    get: (seq: number) => bySeq.get(seq),
    count: () => count.get()!,
    failedCount: () => failed.get()!,
    conflictCount: () => conflicts.get()!,
    /** Sent: gone from the outbox. */
    remove: (seq: number) => void remove.run(seq),
    markFailed: (seq: number, error: string, now: string) => void fail.run(now, error, seq),
    /** Records the request about to be sent (its own transaction, before the request leaves). */
    markAttempt: (seq: number, attempt: Attempt | null) => void setAttempt.run(attempt && JSON.stringify(attempt), seq),
    /** Holds an entry for the user: the server changed what it changes. */
    markConflict: (seq: number, conflict: Conflict, message: string, now: string) =>
      void setConflict.run(JSON.stringify(conflict), now, message, seq),
    /** The user's resolution: the entry's new body, sent on top of the server's version it was made against. */
    resolve: (seq: number, body: string, rebase: Rebase) => void setResolved.run(body, JSON.stringify(rebase), seq),
    clearFailure: (seq: number) => void clear.run(seq),
    /** True while a change request has writes the server does not have yet. */
    hasPending: (changeRequestId: string) => pendingFor.get(changeRequestId)! > 0,
    /** True for a change request created in the copy and not yet on the server. */
    isLocalOnly: (changeRequestId: string) => created.get(changeRequestId)! > 0,
    mapId(localId: string, remoteId: string, kind: IdKind): void {
      setId.run(localId, remoteId, kind)
    },
    remoteId: (localId: string): string | undefined => getId.get(localId),
    unmapId: (localId: string) => void deleteId.run(localId),
    /** Every mapping, local → remote (a replay rewrites many ids at once). */
    idMap: () => new Map(allIds.all().map((r) => [r.local_id, r.remote_id])),
    /** The copy's change request a path names by id or number, if the copy has it. */
    changeRequestId: (spaceId: string, ref: string): string | undefined =>
      changeRequestRef.get(spaceId, ref, /^\d+$/.test(ref) ? ref : '-1'),
    changeRequestNumber: (id: string): number | undefined => changeRequestNumber.get(id),
    /** Who made a change request of the copy (the account, for one made here). */
    changeRequestAuthor: (id: string): string | undefined => changeRequestAuthor.get(id) ?? undefined,
    /** Number, subject and space title of the copy's change requests, by id (one query for a whole list). */
    changeRequestsNamed: (ids: Iterable<string>) =>
      new Map(changeRequestsNamed.all(JSON.stringify([...new Set(ids)])).map((r) => [r.id, r])),
    /**
     * The copy's own version of a change request, once the server has it (or the user gave it up): one made here is
     * removed; one of the server's keeps its row (the next pull brings the server's revision). Either way the
     * revisions made here that nothing refers to any more go. Its ids stay mapped, so the app's addresses keep
     * leading to it.
     */
    forgetLocal(changeRequestId: string, localOnly: boolean): void {
      if (localOnly) deleteChangeRequest.run(changeRequestId)
      deleteRevisions(db, prunable.all({ cr: changeRequestId }))
    },
    pruneRevisions: (changeRequestId: string) => void deleteRevisions(db, prunable.all({ cr: changeRequestId }))
  }
}

export const outbox = (db: Db) => repository(db, outboxRepository)

/** An entry as the user sees it (`GET /app/workspaces/{id}/outbox`), with its change request as the copy has it. */
export function describeEntry(
  entry: OutboxEntry,
  cr: { id: string; number: number; subject: string; space_title: string } | undefined
): OutboxItem {
  const body = entry.body ? (JSON.parse(entry.body) as Record<string, unknown>) : {}
  return {
    seq: entry.seq,
    kind: entry.kind,
    createdAt: entry.created_at,
    space: { id: entry.space_id, title: cr?.space_title ?? entry.space_id },
    changeRequest: { id: entry.change_request_id, number: cr?.number ?? 0, subject: cr?.subject ?? '' },
    summary: summarize(entry, body),
    ...(entry.conflict
      ? {
          conflict: {
            at: entry.failed_at ?? entry.created_at,
            message: entry.error ?? '',
            pages: (JSON.parse(entry.conflict) as Conflict).pages.map(({ message: _, ...page }) => page)
          }
        }
      : entry.failed_at
        ? { failed: { at: entry.failed_at, message: entry.error ?? '' } }
        : {})
  }
}

function summarize(entry: OutboxEntry, body: Record<string, unknown>): string {
  if (entry.kind === 'create-change-request') return 'Opened the change request'
  if (entry.kind === 'update-change-request') {
    const parts = [
      body.subject !== undefined ? 'renamed it' : '',
      body.status !== undefined ? `moved it to ${String(body.status)}` : ''
    ].filter(Boolean)
    return parts.length ? `${parts.join(' and ').replace(/^./, (c) => c.toUpperCase())}` : 'Updated the change request'
  }
  const changes = (body.changes as { operation: string; title?: string }[] | undefined) ?? []
  const verbs: Record<string, string> = { insert_page: 'added', update_page: 'edited', delete_page: 'removed', revert_page: 'reverted' }
  const counts = new Map<string, number>()
  for (const change of changes) counts.set(change.operation, (counts.get(change.operation) ?? 0) + 1)
  const words = [...counts].map(([op, n]) => `${verbs[op] ?? op} ${n} page${n === 1 ? '' : 's'}`)
  return words.length ? words.join(', ').replace(/^./, (c) => c.toUpperCase()) : 'Changed the content'
}
