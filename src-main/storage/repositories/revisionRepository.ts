import type { Db } from '../database'
import { jsonIds } from './jsonIds'

/** A revision of a space's history with the change request it merged, if any. */
export interface RevisionListRow {
  seq: number
  id: string
  parents: string
  type: string
  created_by: string | null
  created_at: string
  cr_id: string | null
  cr_number: number | null
  cr_subject: string | null
}

/**
 * Revisions as rows of `revisions` (ids, spaces, parents): a space's history and which revisions exist or are
 * still needed. What a revision holds (pages, files, deltas) is content/revisions.ts's alone.
 */
export function revisionRepository(db: Db) {
  // The space's history: the revisions of its primary content (made outside any change request: first revisions,
  // merges, Git imports). A change request's own revisions are its work in progress and appear through the merge
  // revision that took them in. Keyset on `seq` (newest first) over the `revisions_space(space_id, seq)` index.
  // A merge revision's second parent is the change request's head, whose row names the change request: two
  // lookups by unique id, where matching `revision_merged` would scan the space's change requests for each row.
  const list = db.prepare<[string, number, number], RevisionListRow>(
    `SELECT r.seq, r.id, r.parents, r.type, r.created_by, r.created_at, cr.id AS cr_id, cr.number AS cr_number, cr.subject AS cr_subject
     FROM revisions r
     LEFT JOIN revisions head ON head.id = json_extract(r.parents, '$[1]')
     LEFT JOIN change_requests cr ON cr.id = head.change_request_id AND cr.revision_merged = r.id
     WHERE r.space_id = ? AND r.change_request_id IS NULL AND r.seq < ? ORDER BY r.seq DESC LIMIT ?`
  )
  // One revision of the space as the history lists it (a change request's own revision too, naming no merge).
  const summary = db.prepare<[string, string], RevisionListRow>(
    `SELECT r.seq, r.id, r.parents, r.type, r.created_by, r.created_at, cr.id AS cr_id, cr.number AS cr_number, cr.subject AS cr_subject
     FROM revisions r
     LEFT JOIN revisions head ON head.id = json_extract(r.parents, '$[1]')
     LEFT JOIN change_requests cr ON cr.id = head.change_request_id AND cr.revision_merged = r.id
     WHERE r.space_id = ? AND r.id = ?`
  )
  const count = db.prepare<[string], number>('SELECT count(*) FROM revisions WHERE space_id = ? AND change_request_id IS NULL').pluck()
  const mergedBy = db
    .prepare<[string, string], string>(
      `SELECT cr.id FROM revisions r JOIN revisions head ON head.id = json_extract(r.parents, '$[1]')
     JOIN change_requests cr ON cr.id = head.change_request_id AND cr.revision_merged = r.id
     WHERE r.space_id = ? AND r.id = ?`
    )
    .pluck()
  const held = db.prepare<[string], string>('SELECT id FROM revisions WHERE id IN (SELECT value FROM json_each(?))').pluck()
  const ofSpace = db.prepare<[string], string>('SELECT id FROM revisions WHERE space_id = ? ORDER BY seq DESC').pluck()
  // What still needs a primary revision of the space: the space itself, its change requests (base, head, merge),
  // its search rows (until they catch up) and the outbox (its replay merges against the revisions it names).
  const unneeded = db
    .prepare<{ space: string }, string>(
      `SELECT id FROM revisions WHERE space_id = @space AND change_request_id IS NULL
       AND id IS NOT (SELECT revision_id FROM spaces WHERE id = @space)
       AND id NOT IN (SELECT revision_initial FROM change_requests WHERE space_id = @space)
       AND id NOT IN (SELECT revision_id FROM change_requests WHERE space_id = @space)
       AND id NOT IN (SELECT revision_merged_ancestor FROM change_requests WHERE space_id = @space AND revision_merged_ancestor IS NOT NULL)
       AND id NOT IN (SELECT revision_merged FROM change_requests WHERE space_id = @space AND revision_merged IS NOT NULL)
       AND id NOT IN (SELECT revision_id FROM search_state WHERE space_id = @space)
       AND id NOT IN (SELECT base_revision FROM sync_outbox WHERE base_revision IS NOT NULL)
       AND id NOT IN (SELECT result_revision FROM sync_outbox WHERE result_revision IS NOT NULL)`
    )
    .pluck()

  return {
    list: (spaceId: string, beforeSeq: number, limit: number) => list.all(spaceId, beforeSeq, limit),
    count: (spaceId: string) => count.get(spaceId)!,
    /** One revision of the space with the change request it merged, as `list` answers it. */
    summary: (spaceId: string, revisionId: string) => summary.get(spaceId, revisionId),
    /** The id of the change request whose merge wrote `revisionId`. */
    mergedBy: (spaceId: string, revisionId: string) => mergedBy.get(spaceId, revisionId),
    /** Which of these revisions the database holds. */
    heldOf: (ids: Iterable<string>) => new Set(held.all(jsonIds(ids))),
    /** Ids of every revision of the space (its change requests' too), newest first. */
    idsOfSpace: (spaceId: string) => ofSpace.all(spaceId),
    /**
     * Ids of the space's primary revisions nothing refers to (see `unneeded`): content/revisions.ts's
     * deleteRevisions may drop them.
     */
    unneededInSpace: (spaceId: string) => unneeded.all({ space: spaceId })
  }
}
