import type { Db } from '../database'
import { hashToken, newId } from '../ids'

export interface UserRow {
  seq: number
  id: string
  display_name: string
  email: string
  photo_url: string | null
  created_at: string
}

export function userRepository(db: Db) {
  const byId = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?')
  const byEmail = db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?')
  const byToken = db.prepare<[string], UserRow>(
    'SELECT u.* FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ? AND t.revoked_at IS NULL'
  )
  const insert = db.prepare(
    'INSERT INTO users (id, display_name, email, photo_url, created_at) VALUES (@id, @display_name, @email, @photo_url, @created_at)'
  )
  const insertToken = db.prepare(
    'INSERT INTO tokens (id, user_id, token_hash, label, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (token_hash) DO NOTHING'
  )
  const deleteLabelled = db.prepare('DELETE FROM tokens WHERE user_id = ? AND label = ? AND token_hash <> ?')
  const upsertLabelled = db.prepare(
    'INSERT INTO tokens (id, user_id, token_hash, label, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (token_hash) DO UPDATE SET label = excluded.label'
  )
  const manyById = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))')
  const upsertById = db.prepare(
    `INSERT INTO users (id, display_name, email, photo_url, created_at) VALUES (@id, @display_name, @email, @photo_url, @created_at)
     ON CONFLICT (id) DO UPDATE SET display_name = excluded.display_name, email = excluded.email, photo_url = excluded.photo_url`
  )

  return {
    get: (id: string) => byId.get(id),
    getByEmail: (email: string) => byEmail.get(email),
    getByToken: (token: string) => byToken.get(hashToken(token)),
    /** Users by id, in one query (presenters resolve nested users without N+1). */
    getMany(ids: Iterable<string>): Map<string, UserRow> {
      const list = [...new Set(ids)]
      const map = new Map<string, UserRow>()
      if (list.length) for (const row of manyById.all(JSON.stringify(list))) map.set(row.id, row)
      return map
    },
    create(input: { email: string; displayName?: string; photoURL?: string | null }, now: string): UserRow {
      const row = {
        id: newId(),
        display_name: input.displayName?.trim() || input.email.split('@')[0]!,
        email: input.email.trim(),
        photo_url: input.photoURL ?? null,
        created_at: now
      }
      insert.run(row)
      return byId.get(row.id)!
    },
    /**
     * A user known by its id elsewhere (a connected workspace's server): added with that id, or brought up to date.
     * No address (the server shows none) becomes one that cannot be mistaken for a real one.
     */
    upsert(input: { id: string; displayName: string; email?: string | null; photoURL?: string | null }, now: string): UserRow {
      upsertById.run({
        id: input.id,
        display_name: input.displayName,
        email: input.email || `${input.id}@users.invalid`,
        photo_url: input.photoURL ?? null,
        created_at: now
      })
      return byId.get(input.id)!
    },
    /** Stores a token's hash; the token itself is never stored. Adding an existing token is a no-op. */
    /** Adds a token; false when it was already there (nothing written). */
    addToken(userId: string, token: string, label: string, now: string): boolean {
      return insertToken.run(newId(), userId, hashToken(token), label, now).changes > 0
    },
    /**
     * Makes `token` the user's one token with `label`, removing the previous ones: a process that mints a fresh
     * token on every start (the desktop app's session) keeps one row instead of one per start.
     */
    replaceLabelledToken(userId: string, token: string, label: string, now: string): void {
      const hash = hashToken(token)
      deleteLabelled.run(userId, label, hash)
      upsertLabelled.run(newId(), userId, hash, label, now)
    }
  }
}
