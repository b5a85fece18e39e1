import type { Db } from '../database'

export interface ReactionRow {
  /** The comment's or the reply's id. */
  subject_id: string
  emoji: string
  user_id: string
  reacted_at: string
}

/** Emoji reactions on comments and replies: one row per (subject, emoji, user). */
export function reactionRepository(db: Db) {
  const forSubjects = db.prepare<[string], ReactionRow>(
    `SELECT * FROM reactions WHERE subject_id IN (SELECT value FROM json_each(?))
     ORDER BY subject_id, reacted_at, emoji, user_id`
  )
  const add = db.prepare('INSERT OR IGNORE INTO reactions (subject_id, emoji, user_id, reacted_at) VALUES (?, ?, ?, ?)')
  const remove = db.prepare('DELETE FROM reactions WHERE subject_id = ? AND emoji = ? AND user_id = ?')

  return {
    /** Reactions of many subjects in one query, oldest first within each subject. */
    forSubjects(ids: Iterable<string>): Map<string, ReactionRow[]> {
      const list = [...new Set(ids)]
      const map = new Map<string, ReactionRow[]>()
      if (!list.length) return map
      for (const row of forSubjects.all(JSON.stringify(list))) {
        const rows = map.get(row.subject_id)
        if (rows) rows.push(row)
        else map.set(row.subject_id, [row])
      }
      return map
    },
    /** The user's reaction with `emoji`; adding it again keeps the first `reactedAt`. */
    add: (subjectId: string, emoji: string, userId: string, at: string) => void add.run(subjectId, emoji, userId, at),
    remove: (subjectId: string, emoji: string, userId: string) => void remove.run(subjectId, emoji, userId)
  }
}
