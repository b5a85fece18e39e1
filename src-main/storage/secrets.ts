import { randomBytes } from 'node:crypto'
import type { Db } from './database'

const cache = new WeakMap<Db, Map<string, string>>()

/**
 * A workspace-wide signing secret (32 random bytes, base64url), made on first use and kept in `settings` under
 * `<name>Secret`, so signatures survive restarts and stay valid in a copied workspace. It never changes, so it
 * is read once per database.
 */
export function workspaceSecret(db: Db, name: string): string {
  let byName = cache.get(db)
  if (!byName) cache.set(db, (byName = new Map()))
  const cached = byName.get(name)
  if (cached) return cached
  const key = `${name}Secret`
  const stored = db.prepare<[string], string>('SELECT value FROM settings WHERE key = ?').pluck().get(key)
  if (stored) {
    byName.set(name, stored)
    return stored
  }
  // Not cached yet: the surrounding transaction may still roll the new row back.
  const secret = randomBytes(32).toString('base64url')
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(key, secret)
  return secret
}
