import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HOME_LOCK_FILE, lockHome } from './homeLock'
import { tempDirs } from '../testing/tempDirs'

const tempHome = tempDirs('lock')

const holder = (home: string) => JSON.parse(readFileSync(join(home, HOME_LOCK_FILE), 'utf8')).pid

describe('home lock', () => {
  it('is held by this process until its last holder lets go', () => {
    const home = tempHome()
    const first = lockHome(home)
    expect(holder(home)).toBe(process.pid)
    const second = lockHome(home)
    first()
    first()
    expect(existsSync(join(home, HOME_LOCK_FILE))).toBe(true)
    second()
    expect(existsSync(join(home, HOME_LOCK_FILE))).toBe(false)
  })

  it('refuses a home another running process holds, naming it', () => {
    const home = tempHome()
    // The parent of this test process runs as long as the test does.
    writeFileSync(join(home, HOME_LOCK_FILE), JSON.stringify({ pid: process.ppid }))
    expect(() => lockHome(home)).toThrow(`Quire is already using ${home} (process ${process.ppid})`)
    expect(holder(home)).toBe(process.ppid)
  })

  it('takes over a lock whose process is gone, or that cannot be read', () => {
    const home = tempHome()
    const gone = spawnSync(process.execPath, ['-e', '0']).pid
    writeFileSync(join(home, HOME_LOCK_FILE), JSON.stringify({ pid: gone }))
    const release = lockHome(home)
    expect(holder(home)).toBe(process.pid)
    release()
    writeFileSync(join(home, HOME_LOCK_FILE), 'not json')
    lockHome(home)()
    expect(existsSync(join(home, HOME_LOCK_FILE))).toBe(false)
  })
})
