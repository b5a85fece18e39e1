import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'

// One process at a time keeps a home: two would each write workspaces.json (the last write wins, and a workspace
// the other created would drop out of the list) and move folders under each other. The lock is a file naming the
// process that holds it; a lock whose process is gone (a crash, a kill) is taken over.

export const HOME_LOCK_FILE = 'quire.lock'

/** Homes this process holds, with how many hosts hold each (tests open several hosts in one process). */
const held = new Map<string, number>()

/** Whether a process with this id runs (EPERM: it runs as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function holderOf(path: string): number | undefined {
  try {
    const pid = Number((JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown }).pid)
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/**
 * Takes the lock of `home` for this process, or throws naming the process that holds it. Returns the release,
 * which removes the file once the last holder in this process let go.
 */
export function lockHome(home: string): () => void {
  const path = join(home, HOME_LOCK_FILE)
  const count = held.get(home) ?? 0
  if (count === 0) {
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(path, 'wx', 0o600)
        try {
          writeSync(fd, `${JSON.stringify({ pid: process.pid, since: new Date().toISOString() })}\n`)
        } finally {
          closeSync(fd)
        }
        break
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error
        const pid = holderOf(path)
        if (pid !== undefined && pid !== process.pid && running(pid)) {
          throw new Error(`Quire is already using ${home} (process ${pid}); stop it first, or delete ${path} if no Quire runs`)
        }
        // Left by a process that is gone (or unreadable): taken over.
        unlinkSync(path)
      }
    }
  }
  held.set(home, count + 1)
  let released = false
  return () => {
    if (released) return
    released = true
    const left = (held.get(home) ?? 1) - 1
    if (left > 0) {
      held.set(home, left)
      return
    }
    held.delete(home)
    try {
      if (holderOf(path) === process.pid) unlinkSync(path)
    } catch {
      // already gone
    }
  }
}
