import type { Db } from '../database'

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
 * The space's history: the revisions of its primary content (made outside any change request: first revisions,
 * merges, Git imports). A change request's own revisions are its work in progress and appear through the merge
 * revision that took them in. Keyset on `seq` (newest first) over the `revisions_space(space_id, seq)` index.
 * A merge revision's second parent is the change request's head, whose row names the change request: two
 * lookups by unique id, where matching `revision_merged` would scan the space's change requests for each row.
 */
export function revisionRepository(db: Db) {
  const list = db.prepare<[string, number, number], RevisionListRow>(
    `SELECT r.seq, r.id, r.parents, r.type, r.created_by, r.created_at, cr.id AS cr_id, cr.number AS cr_number, cr.subject AS cr_subject
     FROM revisions r
     LEFT JOIN revisions head ON head.id = json_extract(r.parents, '$[1]')
     LEFT JOIN change_requests cr ON cr.id = head.change_request_id AND cr.revision_merged = r.id
     WHERE r.space_id = ? AND r.change_request_id IS NULL AND r.seq < ? ORDER BY r.seq DESC LIMIT ?`
  )
  const count = db.prepare<[string], number>('SELECT count(*) FROM revisions WHERE space_id = ? AND change_request_id IS NULL').pluck()
  const mergedBy = db.prepare<[string, string], string>(
    `SELECT cr.id FROM revisions r JOIN revisions head ON head.id = json_extract(r.parents, '$[1]')
     JOIN change_requests cr ON cr.id = head.change_request_id AND cr.revision_merged = r.id
     WHERE r.space_id = ? AND r.id = ?`
  ).pluck()

  return {
    list: (spaceId: string, beforeSeq: number, limit: number) => list.all(spaceId, beforeSeq, limit),
    count: (spaceId: string) => count.get(spaceId)!,
    /** The id of the change request whose merge wrote `revisionId`. */
    mergedBy: (spaceId: string, revisionId: string) => mergedBy.get(spaceId, revisionId)
  }
}
