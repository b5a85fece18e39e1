import Database from 'better-sqlite3'
import { hashToken } from './ids'
import { migrations } from './migrations'

export type Db = Database.Database

export interface OpenOptions {
  /** A file path, or ':memory:' for tests. */
  file: string
}

/**
 * Opens a workspace database: WAL (readers never wait for the writer), foreign keys on, a busy timeout so a
 * second process (the CLI beside a running server) waits instead of failing, then applies pending migrations.
 */
export function openDatabase({ file }: OpenOptions): Db {
  const db = new Database(file)
  if (file !== ':memory:') db.pragma('journal_mode = WAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  // NORMAL is durable in WAL mode across process crashes (SIGKILL); only an OS crash can lose the last commit.
  db.pragma('synchronous = NORMAL')
  // SQLite's default page cache is 2 MB: a space of 10,000 pages (its revision rows, documents and search
  // index) does not fit, and merges and searches re-read it from the OS on every call. 64 MB (a negative size
  // is in KiB) holds a few such spaces; temporary B-trees (sorts, IN lists) stay in memory.
  db.pragma('cache_size = -65536')
  db.pragma('temp_store = MEMORY')
  // Unicode lower case for case-insensitive substring filters (SQLite's lower() and LIKE fold only ASCII).
  // Such filters scan the organization's rows; no B-tree index serves a substring.
  db.function('casefold', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value))
  // SHA-256 (hex) of a text, as hashToken computes it: migration 17 hashes the share-link keys stored before it.
  db.function('sha256_hex', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? hashToken(value) : value))
  migrate(db)
  return db
}

function migrate(db: Db): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)')
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[])
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  for (const m of migrations) {
    if (applied.has(m.version)) continue
    db.transaction(() => {
      db.exec(m.sql)
      record.run(m.version, m.name, new Date().toISOString())
    })()
  }
}

const dataVersionStatements = new WeakMap<Db, Database.Statement<[], number>>()

/**
 * SQLite's `data_version`: changes when ANOTHER connection (the CLI beside a running server) commits. Caches of
 * derived values key on it together with the process's own write counter. Prepared once per database
 * (`db.pragma()` would prepare on every call).
 */
export function dataVersion(db: Db): number {
  let st = dataVersionStatements.get(db)
  if (!st) dataVersionStatements.set(db, (st = db.prepare<[], number>('PRAGMA data_version').pluck()))
  return st.get()!
}
