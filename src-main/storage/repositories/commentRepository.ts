import type { Db } from '../database'
import { newId } from '../ids'
import { updateById } from './patch'
import { upsertSql } from './upsert'

export interface CommentRow {
  seq: number
  id: string
  space_id: string
  /** NULL: a comment on the space's primary content. */
  change_request_id: string | null
  page_id: string | null
  node_id: string | null
  node_preview: string | null
  /** The revision of the content the comment was posted on (primary or the change request's head). */
  revision_id: string | null
  body: string
  posted_by: string | null
  posted_at: string
  edited_at: string | null
  resolved_at: string | null
  resolved_by: string | null
  replies: number
}

export interface CommentReplyRow {
  seq: number
  id: string
  comment_id: string
  body: string
  posted_by: string | null
  posted_at: string
  edited_at: string | null
}

/** One user's replies to one comment. */
export interface ReplierRow {
  comment_id: string
  user_id: string
  count: number
  updated_at: string
}

/** What a comment list selects: one content scope of a space, then optional filters. */
export interface CommentFilter {
  spaceId: string
  /** null: the primary content. */
  changeRequestId: string | null
  status: 'all' | 'open' | 'resolved'
  pageId?: string
  authors?: string[]
}

/** A comment as a connected workspace's copy holds it: the server's row, under the server's id. */
export type MirroredComment = Omit<CommentRow, 'seq'>
const MIRRORED_COLUMNS = [
  'space_id',
  'change_request_id',
  'page_id',
  'node_id',
  'node_preview',
  'revision_id',
  'body',
  'posted_by',
  'posted_at',
  'edited_at',
  'resolved_at',
  'resolved_by',
  'replies'
] as const

/** A page as a comment target shows it, with its path in that revision. */
export type CommentPatch = Partial<Pick<CommentRow, 'body' | 'edited_at'>>
export type CommentReplyPatch = Partial<Pick<CommentReplyRow, 'body' | 'edited_at'>>

/** One SQL text per filter shape; the expressions match the indexes of migration 0007. */
function listSql(f: CommentFilter, order: 'asc' | 'desc' | 'count'): string {
  const where = ['space_id = @space', 'change_request_id IS @cr']
  if (f.status !== 'all') where.push(`(resolved_at IS NOT NULL) = ${f.status === 'resolved' ? 1 : 0}`)
  if (f.pageId !== undefined) where.push('page_id = @page')
  if (f.authors !== undefined) where.push('posted_by IN (SELECT value FROM json_each(@authors))')
  // Without statistics the planner walks the whole scope in seq order for an author filter; looking up the
  // authors' rows costs what they match instead (a rare author in a busy space stays fast).
  const from = f.authors !== undefined && f.pageId === undefined ? 'comments INDEXED BY comments_scope_author' : 'comments'
  if (order === 'count') return `SELECT count(*) FROM ${from} WHERE ${where.join(' AND ')}`
  where.push(order === 'desc' ? 'seq < @after' : 'seq > @after')
  return `SELECT * FROM ${from} WHERE ${where.join(' AND ')} ORDER BY seq ${order.toUpperCase()} LIMIT @limit`
}

/**
 * Comments and their replies. The open-comment counters (`spaces.comments_open` for the primary content,
 * `change_requests.comments_open` for a change request's comments) change here, in the caller's transaction,
 * with every create, resolve, unresolve and delete, so they cannot drift from the rows.
 */
export function commentRepository(db: Db) {
  const byId = db.prepare<[string, string], CommentRow>('SELECT * FROM comments WHERE space_id = ? AND id = ?')
  const byIds = db.prepare<[string, string], CommentRow>(
    'SELECT * FROM comments WHERE space_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY seq'
  )
  const insert = db.prepare(
    `INSERT INTO comments (id, space_id, change_request_id, page_id, node_id, node_preview, revision_id, body, posted_by, posted_at)
     VALUES (@id, @space_id, @change_request_id, @page_id, @node_id, @node_preview, @revision_id, @body, @posted_by, @posted_at)`
  )
  const remove = db.prepare('DELETE FROM comments WHERE id = ?')
  const upsertMirrored = db.prepare(upsertSql('comments', ['id'], ['id', ...MIRRORED_COLUMNS], MIRRORED_COLUMNS))
  const setResolution = db.prepare('UPDATE comments SET resolved_at = ?, resolved_by = ? WHERE id = ?')
  const spaceCounter = db.prepare('UPDATE spaces SET comments_open = comments_open + ? WHERE id = ?')
  const changeRequestCounter = db.prepare('UPDATE change_requests SET comments_open = comments_open + ? WHERE id = ?')
  const replyCounter = db.prepare('UPDATE comments SET replies = replies + ? WHERE id = ?')
  const statements = new Map<string, ReturnType<Db['prepare']>>()
  const prepared = (sql: string) => {
    let s = statements.get(sql)
    if (!s) statements.set(sql, (s = db.prepare(sql)))
    return s
  }
  const filterParams = (f: CommentFilter) => ({
    space: f.spaceId,
    cr: f.changeRequestId,
    ...(f.pageId !== undefined ? { page: f.pageId } : {}),
    ...(f.authors !== undefined ? { authors: JSON.stringify(f.authors) } : {})
  })

  const replyById = db.prepare<[string, string], CommentReplyRow>('SELECT * FROM comment_replies WHERE comment_id = ? AND id = ?')
  const repliesAfter = db.prepare<[string, number, number], CommentReplyRow>(
    'SELECT * FROM comment_replies WHERE comment_id = ? AND seq > ? ORDER BY seq LIMIT ?'
  )
  const insertReply = db.prepare(
    'INSERT INTO comment_replies (id, comment_id, body, posted_by, posted_at) VALUES (@id, @comment_id, @body, @posted_by, @posted_at)'
  )
  const removeReply = db.prepare('DELETE FROM comment_replies WHERE id = ?')
  // Reactions name their subject (a comment or a reply) without a foreign key, so they go explicitly.
  const removeThreadReactions = db.prepare(
    'DELETE FROM reactions WHERE subject_id = @id OR subject_id IN (SELECT id FROM comment_replies WHERE comment_id = @id)'
  )
  const removeReactions = db.prepare('DELETE FROM reactions WHERE subject_id = ?')

  const changeRequestHeads = db.prepare<[string], { id: string; revision_id: string }>(
    'SELECT id, revision_id FROM change_requests WHERE id IN (SELECT value FROM json_each(?))'
  )
  const repliersOf = db.prepare<[string], ReplierRow>(
    `SELECT comment_id, posted_by AS user_id, count(*) AS count, max(coalesce(edited_at, posted_at)) AS updated_at
     FROM comment_replies WHERE comment_id IN (SELECT value FROM json_each(?)) AND posted_by IS NOT NULL
     GROUP BY comment_id, posted_by ORDER BY comment_id, min(seq)`
  )
  const adjustOpen = (row: CommentRow, delta: number) => {
    if (row.change_request_id) changeRequestCounter.run(delta, row.change_request_id)
    else spaceCounter.run(delta, row.space_id)
  }

  return {
    get: (spaceId: string, id: string) => byId.get(spaceId, id),
    /** Comments of a space by id (those that exist), oldest first. */
    getMany: (spaceId: string, ids: string[]): CommentRow[] => (ids.length ? byIds.all(spaceId, JSON.stringify([...new Set(ids)])) : []),

    /** A page of comments after the keyset `after` (a seq), in `order`. */
    list(filter: CommentFilter, order: 'asc' | 'desc', after: number | undefined, limit: number): CommentRow[] {
      const start = after ?? (order === 'desc' ? Number.MAX_SAFE_INTEGER : 0)
      return prepared(listSql(filter, order)).all({ ...filterParams(filter), after: start, limit }) as CommentRow[]
    },

    count: (filter: CommentFilter) => prepared(listSql(filter, 'count')).pluck().get(filterParams(filter)) as number,

    create(input: Omit<CommentRow, 'seq' | 'id' | 'edited_at' | 'resolved_at' | 'resolved_by' | 'replies'>): CommentRow {
      const id = newId()
      insert.run({ ...input, id })
      const row = byId.get(input.space_id, id)!
      adjustOpen(row, 1)
      return row
    },

    update: (id: string, patch: CommentPatch) => updateById(db, 'comments', id, patch),

    /**
     * A comment the copy takes from its server (a review's): written as the server has it, leaving the open-comment
     * counters alone (the copy takes those from the server's rows too).
     */
    upsertMirrored: (row: MirroredComment) => void upsertMirrored.run(row),

    /** Resolves or reopens; a comment already in the asked state keeps its `resolvedAt` and `resolvedBy`. */
    setResolved(row: CommentRow, resolved: boolean, by: string, at: string): void {
      if (resolved === !!row.resolved_at) return
      setResolution.run(resolved ? at : null, resolved ? by : null, row.id)
      adjustOpen(row, resolved ? -1 : 1)
    },

    /** Deletes a comment, its replies (cascade) and the reactions on all of them. */
    delete(row: CommentRow): void {
      removeThreadReactions.run({ id: row.id })
      remove.run(row.id)
      if (!row.resolved_at) adjustOpen(row, -1)
    },

    getReply: (commentId: string, id: string) => replyById.get(commentId, id),
    listReplies: (commentId: string, afterSeq: number, limit: number) => repliesAfter.all(commentId, afterSeq, limit),

    createReply(input: Omit<CommentReplyRow, 'seq' | 'id' | 'edited_at'>): CommentReplyRow {
      const id = newId()
      insertReply.run({ ...input, id })
      replyCounter.run(1, input.comment_id)
      return replyById.get(input.comment_id, id)!
    },

    updateReply: (id: string, patch: CommentReplyPatch) => updateById(db, 'comment_replies', id, patch),

    deleteReply(reply: CommentReplyRow): void {
      removeReactions.run(reply.id)
      removeReply.run(reply.id)
      replyCounter.run(-1, reply.comment_id)
    },

    /** Head revisions of change requests, by id (the content a change request comment's page is read from). */
    changeRequestHeads(ids: Iterable<string>): Map<string, string> {
      const list = [...new Set(ids)]
      return new Map(list.length ? changeRequestHeads.all(JSON.stringify(list)).map((r) => [r.id, r.revision_id]) : [])
    },

    /** Who replied to each comment, in the order of their first reply: their reply count and latest reply (or edit). */
    repliers(commentIds: string[]): Map<string, ReplierRow[]> {
      const byComment = new Map<string, ReplierRow[]>()
      if (!commentIds.length) return byComment
      for (const row of repliersOf.all(JSON.stringify(commentIds))) {
        const list = byComment.get(row.comment_id)
        if (list) list.push(row)
        else byComment.set(row.comment_id, [row])
      }
      return byComment
    }
  }
}
