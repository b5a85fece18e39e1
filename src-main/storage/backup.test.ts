import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { tempDirs } from '../testing/tempDirs'
import { backupDatabase } from './backup'
import { openDatabase } from './database'

const tempDir = tempDirs('backup')

describe('backupDatabase', () => {
  it('holds every write committed before it began while another connection keeps writing, and passes integrity_check', async () => {
    const dir = tempDir()
    const file = join(dir, 'quire.db')
    const db = openDatabase({ file })
    db.exec('CREATE TABLE writes (n INTEGER PRIMARY KEY, text TEXT NOT NULL)')
    const insert = db.prepare('INSERT INTO writes (n, text) VALUES (?, ?)')
    let n = 0
    const write = () => insert.run(++n, `write ${n} `.repeat(20))
    for (let i = 0; i < 2000; i++) write()
    // A writer on its own connection that goes on, one commit per event-loop turn, while the copy is made.
    let writing = true
    const writer = (async () => {
      while (writing) {
        write()
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve))
    const committedBefore = n
    const target = join(dir, 'copy.quire.db')

    const size = await backupDatabase(file, target)

    writing = false
    await writer
    db.close()
    expect(size).toBeGreaterThan(0)
    const copy = new Database(target, { readonly: true, fileMustExist: true })
    const numbers = copy.prepare('SELECT n FROM writes ORDER BY n').pluck().all() as number[]
    expect(numbers.length).toBeGreaterThanOrEqual(committedBefore)
    expect(numbers.slice(0, committedBefore)).toEqual(Array.from({ length: committedBefore }, (_, i) => i + 1))
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok')
    copy.close()
    // One file: no log beside it, no partial copy left.
    expect(readdirSync(dir).filter((f) => f.startsWith('copy') || f.startsWith('.copy'))).toEqual(['copy.quire.db'])
  })

  it('refuses to replace an existing file unless forced, and copies nothing from a file that is not a workspace', async () => {
    const dir = tempDir()
    const file = join(dir, 'quire.db')
    openDatabase({ file }).close()
    const target = join(dir, 'backup.quire.db')
    writeFileSync(target, 'keep me')
    await expect(backupDatabase(file, target)).rejects.toThrow(`${target} already exists: give --force to replace it`)
    expect(await backupDatabase(file, target, { force: true })).toBeGreaterThan(0)

    const garbage = join(dir, 'garbage.db')
    writeFileSync(garbage, 'no database here')
    await expect(backupDatabase(garbage, join(dir, 'out.db'))).rejects.toThrow(`${garbage} is not a Quire workspace`)
    expect(existsSync(join(dir, 'out.db'))).toBe(false)
  })
})
