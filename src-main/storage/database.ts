import { closeSync, openSync, readSync, statSync } from 'node:fs'
import Database from 'better-sqlite3'
import { hashToken } from './ids'
import { migrations } from './migrations'

export type Db = Database.Database

export interface OpenOptions {
  /** A file path, or ':memory:' for tests. */
  file: string
  /** Applies migrations up to this version only (tests of a migration: the workspace an older Quire wrote). */
  migrateTo?: number
}

/**
 * Opens a workspace database: WAL (readers never wait for the writer), foreign keys on, a busy timeout so a
 * second process (the CLI beside a running server) waits instead of failing, then applies pending migrations.
 * An existing file is checked first, read-only (`checkDatabaseFile`): one that is truncated, not a workspace or
 * from a newer Quire throws a `WorkspaceFileError` and is left exactly as it was. Only the header and the schema
 * are read: `quick_check` reads the whole file (about a second per 800 MB), too slow for every start and switch,
 * so it runs on files handed in to be opened, and damage found later answers as such (`isCorruption`).
 */
export function openDatabase({ file, migrateTo = Infinity }: OpenOptions): Db {
  if (file !== ':memory:') checkDatabaseFile(file, { deep: false })
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
  migrate(db, migrateTo)
  return db
}

/**
 * Applies the pending migrations in one transaction: a file is never left between two versions, and a new workspace
 * (every migration) is created in a third less time than one transaction per migration took. What is pending is read
 * again under the write lock: two processes opening the same new file apply each migration once.
 */
function migrate(db: Db, upTo: number): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)')
  const applied = db.prepare('SELECT version FROM schema_migrations').pluck()
  const pending = () => {
    const done = new Set(applied.all() as number[])
    return migrations.filter((m) => !done.has(m.version) && m.version <= upTo)
  }
  if (pending().length === 0) return
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  db.transaction(() => {
    for (const m of pending()) {
      db.exec(m.sql)
      m.run?.(db)
      record.run(m.version, m.name, new Date().toISOString())
    }
  }).immediate()
}

/** Whether an error is SQLite finding the file damaged (a page that does not read as it should). */
export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
}

/** What is wrong with a workspace file, in a word the app can act on (what to tell the user to do). */
export type FileProblemKind = 'newer' | 'damaged' | 'not-workspace' | 'unreadable'

/** A workspace file that cannot be opened as it is. The message names the file and says what is wrong. */
export class WorkspaceFileError extends Error {
  constructor(
    readonly file: string,
    readonly kind: FileProblemKind,
    /** What is wrong, without the file's name (`is damaged (…)`). */
    readonly reason: string
  ) {
    super(`${file} ${reason}`)
    this.name = 'WorkspaceFileError'
  }
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1')

/** The schema versions this build knows (a file holding another one was written by a newer Quire). */
export const KNOWN_SCHEMA_VERSIONS: ReadonlySet<number> = new Set(migrations.map((m) => m.version))
const LATEST_SCHEMA_VERSION = Math.max(...KNOWN_SCHEMA_VERSIONS)

export interface CheckOptions {
  /** Run `PRAGMA quick_check` (reads the whole file); without it only the header and the schema are read. Default true. */
  deep?: boolean
  /** An empty or missing file is a new workspace (true, the default), or a refusal (a file handed in to open). */
  allowEmpty?: boolean
}

/**
 * Checks a workspace file without writing a byte of it: its SQLite header (and that the file is as long as the
 * header says), `PRAGMA quick_check` (`deep`), that it holds Quire's schema and no migration this build does not
 * know. Throws a `WorkspaceFileError` naming the file. A missing or empty file passes (a new workspace) unless
 * `allowEmpty` is false. Another process may have the file open meanwhile (a running server): it is only read.
 */
export function checkDatabaseFile(file: string, { deep = true, allowEmpty = true }: CheckOptions = {}): void {
  const refuse = (kind: FileProblemKind, why: string): never => {
    throw new WorkspaceFileError(file, kind, why)
  }
  let st: ReturnType<typeof statSync>
  try {
    st = statSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && allowEmpty) return
    return refuse('unreadable', `cannot be read (${(error as Error).message})`)
  }
  if (!st.isFile()) return refuse('unreadable', 'cannot be read: it is not a file')
  const size = st.size
  if (size === 0) return allowEmpty ? undefined : refuse('not-workspace', 'is empty')
  const header = Buffer.alloc(100)
  let read: number
  try {
    const fd = openSync(file, 'r')
    try {
      read = readSync(fd, header, 0, 100, 0)
    } finally {
      closeSync(fd)
    }
  } catch (error) {
    return refuse('unreadable', `cannot be read (${(error as Error).message})`)
  }
  if (read < SQLITE_MAGIC.length || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    return refuse('not-workspace', 'is not a Quire workspace: it is not an SQLite database')
  }
  if (read < 100) return refuse('damaged', 'is damaged: the file ends inside its header (truncated)')
  // The header's page count is valid when its two change counters agree (SQLite 3.7.0 and later write both).
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16)
  const pages = header.readUInt32BE(28)
  // With a write-ahead log holding frames the file is not the whole database, and a checkpoint running in another
  // process (a live server) writes page 1, with the new count, before the pages that extend the file: there the
  // size says nothing, and SQLite, reading through the log below, finds real damage.
  const walFrames = (() => {
    try {
      return statSync(`${file}-wal`).size > 0
    } catch {
      return false
    }
  })()
  if (!walFrames && header.readUInt32BE(24) === header.readUInt32BE(92) && pages > 0 && size < pages * pageSize) {
    return refuse('damaged', `is damaged: it holds ${size} bytes where its header counts ${pages * pageSize} (truncated)`)
  }
  let db: Database.Database | undefined
  try {
    db = new Database(file, { readonly: true, fileMustExist: true })
    db.pragma('busy_timeout = 5000')
    if (deep) {
      const found = db.pragma('quick_check(5)', { simple: false }) as { quick_check: string }[]
      const lines = found.map((row) => row.quick_check)
      if (lines.join() !== 'ok') return refuse('damaged', `is damaged (PRAGMA quick_check: ${lines.join('; ')})`)
    }
    const tables = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()
    if (!tables.length) {
      if (!allowEmpty) refuse('not-workspace', 'is not a Quire workspace: the database is empty')
      return
    }
    if (!tables.includes('schema_migrations'))
      return refuse('not-workspace', 'is not a Quire workspace: an SQLite database without its tables')
    const versions = db.prepare<[], number>('SELECT version FROM schema_migrations').pluck().all()
    if (!versions.length && !allowEmpty) refuse('not-workspace', 'is not a Quire workspace: its schema is empty')
    const unknown = versions.filter((v) => !KNOWN_SCHEMA_VERSIONS.has(v))
    if (unknown.length) {
      refuse(
        'newer',
        `comes from a newer version of Quire (its schema has version ${Math.max(...unknown)}; this version knows up to ${LATEST_SCHEMA_VERSION}): open it with that version of Quire or a later one`
      )
    }
  } catch (error) {
    if (error instanceof WorkspaceFileError) throw error
    const code = (error as { code?: string }).code ?? ''
    const message = (error as Error).message
    if (code === 'SQLITE_NOTADB') refuse('not-workspace', 'is not a Quire workspace: it is not an SQLite database')
    if (code.startsWith('SQLITE_CORRUPT')) refuse('damaged', `is damaged (${message})`)
    if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_PERM'))
      refuse('unreadable', `cannot be read (${message})`)
    throw error
  } finally {
    db?.close()
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
