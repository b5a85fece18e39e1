import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { uptime } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
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

  it('refuses a home another Quire process holds, and takes it once that process is gone', async () => {
    const home = tempHome()
    const module = fileURLToPath(new URL('./homeLock.ts', import.meta.url))
    const script = `import(${JSON.stringify(module)}).then(({ lockHome }) => { lockHome(process.argv[1]); console.log('locked'); setInterval(() => {}, 1000) })`
    const other = spawn(process.execPath, ['--import', 'tsx', '-e', script, home], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      await once(other.stdout!, 'data')
      const lock = JSON.parse(readFileSync(join(home, HOME_LOCK_FILE), 'utf8'))
      expect(lock).toMatchObject({ pid: other.pid, boot: expect.any(Number) })
      expect(() => lockHome(home)).toThrow(`Quire is already using ${home} (process ${other.pid})`)
    } finally {
      other.kill()
      await once(other, 'exit')
    }
    const release = lockHome(home)
    expect(holder(home)).toBe(process.pid)
    release()
  })

  it('takes over a lock whose process id now names another process: from an earlier boot, or started later', () => {
    const home = tempHome()
    if (process.platform !== 'win32') {
      // The parent of this test process runs, but the lock is from a boot a day before this one (the machine
      // restarted since). Counted from this boot: "a day ago" would be this very boot on a machine up for a day.
      writeFileSync(join(home, HOME_LOCK_FILE), JSON.stringify({ pid: process.ppid, boot: Date.now() - uptime() * 1000 - 86_400_000 }))
      lockHome(home)()
      expect(existsSync(join(home, HOME_LOCK_FILE))).toBe(false)
    }
    if (process.platform === 'linux') {
      // This boot, but the process with that id started at another time than the lock says.
      writeFileSync(join(home, HOME_LOCK_FILE), JSON.stringify({ pid: process.ppid, boot: Date.now() - uptime() * 1000, started: '1' }))
      lockHome(home)()
      expect(existsSync(join(home, HOME_LOCK_FILE))).toBe(false)
    }
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
