import type { Db } from '../database'

export interface IdempotencyKeyRow {
  seq: number
  user_id: string
  key: string
  method: string
  path: string
  /** SHA-256 (hex) of the request's JSON body. */
  body_hash: string
  status: number
  /** The JSON body as sent; null for an answer without one (204, 205). */
  response: string | null
  created_at: string
}

export type IdempotencyKeyInput = Omit<IdempotencyKeyRow, 'seq'>

export function idempotencyKeyRepository(db: Db) {
  const get = db.prepare<[string, string, string], IdempotencyKeyRow>(
    'SELECT * FROM idempotency_keys WHERE user_id = ? AND key = ? AND created_at > ?'
  )
  // A record past its expiry that the sweep has not removed yet is replaced; a live one is kept (0 changes).
  const insert = db.prepare<[IdempotencyKeyInput & { expired_before: string }]>(
    `INSERT INTO idempotency_keys (user_id, key, method, path, body_hash, status, response, created_at)
     VALUES (@user_id, @key, @method, @path, @body_hash, @status, @response, @created_at)
     ON CONFLICT (user_id, key) DO UPDATE SET
       method = excluded.method, path = excluded.path, body_hash = excluded.body_hash, status = excluded.status,
       response = excluded.response, created_at = excluded.created_at
     WHERE idempotency_keys.created_at <= @expired_before`
  )
  const sweep = db.prepare<[string]>('DELETE FROM idempotency_keys WHERE created_at <= ?')

  return {
    /** The user's live record of `key` (created after `expiredBefore`). */
    get: (userId: string, key: string, expiredBefore: string) => get.get(userId, key, expiredBefore),
    /** Records an answer; false when a live record of the same user and key exists (nothing written). */
    record: (row: IdempotencyKeyInput, expiredBefore: string): boolean =>
      insert.run({ ...row, expired_before: expiredBefore }).changes === 1,
    /** Removes the records created at or before `expiredBefore`; how many went. */
    sweep: (expiredBefore: string): number => sweep.run(expiredBefore).changes
  }
}
