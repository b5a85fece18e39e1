import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { tempDirs } from '../testing/tempDirs'
import { checkDatabaseFile, isCorruption, openDatabase, WorkspaceFileError } from './database'

const tempDir = tempDirs('database')
const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

/** A workspace file with a few rows, closed (its log folded in). */
function workspaceFile(rows = 0): string {
  const file = join(tempDir(), 'quire.db')
  const db = openDatabase({ file })
  if (rows) {
    db.exec('CREATE TABLE filler (text TEXT)')
    const insert = db.prepare('INSERT INTO filler VALUES (?)')
    for (let i = 0; i < rows; i++) insert.run(`row ${i} `.repeat(40))
  }
  db.close()
  return file
}

/** What opening `file` throws, as a WorkspaceFileError (its kind, file and message). */
function refusal(file: string): Pick<WorkspaceFileError, 'kind' | 'file' | 'message'> {
  try {
    openDatabase({ file }).close()
  } catch (error) {
    expect(error).toBeInstanceOf(WorkspaceFileError)
    const { kind, file: named, message } = error as WorkspaceFileError
    return { kind, file: named, message }
  }
  throw new Error(`${file} opened`)
}

describe('openDatabase on a file it cannot take as it is', () => {
  it('refuses a workspace from a newer Quire, naming the file, and leaves the file byte for byte as it was', () => {
    const file = workspaceFile()
    const newer = new Database(file)
    newer.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from_the_future', '2030-01-01')").run()
    newer.close()
    const before = hash(file)

    const error = refusal(file)

    expect(error.kind).toBe('newer')
    expect(error.file).toBe(file)
    expect(error.message).toContain(file)
    expect(error.message).toMatch(/comes from a newer version of Quire \(its schema has version 99; this version knows up to \d+\)/)
    expect(hash(file)).toBe(before)
  })

  it('refuses a file that is not an SQLite database, and one of another application, untouched', () => {
    const garbage = join(tempDir(), 'quire.db')
    writeFileSync(garbage, 'this is not a database\n'.repeat(200))
    expect(refusal(garbage)).toMatchObject({
      kind: 'not-workspace',
      message: `${garbage} is not a Quire workspace: it is not an SQLite database`
    })
    expect(readFileSync(garbage, 'utf8')).toBe('this is not a database\n'.repeat(200))

    const other = join(tempDir(), 'other.db')
    const db = new Database(other)
    db.exec("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')")
    db.close()
    const before = hash(other)
    expect(refusal(other)).toMatchObject({
      kind: 'not-workspace',
      message: `${other} is not a Quire workspace: an SQLite database without its tables`
    })
    expect(hash(other)).toBe(before)
  })

  it('refuses a truncated file; a deep check refuses one whose pages fail PRAGMA quick_check', () => {
    const truncated = workspaceFile(2000)
    truncateSync(truncated, Math.floor(readFileSync(truncated).length / 2))
    expect(refusal(truncated)).toMatchObject({
      kind: 'damaged',
      message: expect.stringMatching(/is damaged: it holds \d+ bytes where its header counts \d+ \(truncated\)/)
    })

    const scrambled = workspaceFile(2000)
    const bytes = readFileSync(scrambled)
    const pageSize = bytes.readUInt16BE(16)
    // Pages in the middle of the filler table: the header stays valid, the B-tree does not.
    bytes.fill(0x5a, pageSize * 20, pageSize * 24)
    writeFileSync(scrambled, bytes)
    let error: WorkspaceFileError | undefined
    try {
      checkDatabaseFile(scrambled, { deep: true })
    } catch (caught) {
      error = caught as WorkspaceFileError
    }
    expect(error).toBeInstanceOf(WorkspaceFileError)
    expect(error!.kind).toBe('damaged')
    expect(error!.message).toMatch(new RegExp(`^${scrambled.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(`))
    // Opening reads only the header and the schema: the damage shows when its pages are read, as a corruption.
    const opened = openDatabase({ file: scrambled })
    let readError: unknown
    for (const table of opened.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()) {
      try {
        opened.prepare(`SELECT * FROM "${table}"`).all()
      } catch (caught) {
        readError = caught
        break
      }
    }
    opened.close()
    expect(isCorruption(readError)).toBe(true)
    expect(isCorruption(new Error('other'))).toBe(false)
  })

  it('refuses a path it cannot read as a file', () => {
    const dir = join(tempDir(), 'quire.db')
    mkdirSync(dir)
    expect(refusal(dir)).toMatchObject({ kind: 'unreadable', message: `${dir} cannot be read: it is not a file` })
  })

  it('opens a missing or empty file as a new workspace, and a healthy one as it is', () => {
    const missing = join(tempDir(), 'quire.db')
    openDatabase({ file: missing }).close()
    const empty = join(tempDir(), 'quire.db')
    writeFileSync(empty, '')
    openDatabase({ file: empty }).close()
    expect(() => checkDatabaseFile(workspaceFile(10))).not.toThrow()
    // A file handed in to be opened must hold a workspace.
    expect(() => checkDatabaseFile(empty, { allowEmpty: true })).not.toThrow()
    const blank = join(tempDir(), 'blank.db')
    writeFileSync(blank, '')
    expect(() => checkDatabaseFile(blank, { allowEmpty: false })).toThrow(`${blank} is empty`)
  })
})
