import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { uptime } from 'node:os'
import { join } from 'node:path'

// One process at a time keeps a home: two would each write workspaces.json (the last write wins, and a workspace
// the other created would drop out of the list) and move folders under each other. The lock is a file naming the
// process that holds it; a lock whose process is gone (a crash, a kill) is taken over.
//
// A process id alone is not enough: after a crash the id can name another program, most often after a restart of
// the machine (where low ids are handed out again at once). So the lock also records when the machine started
// and, where the system tells (Linux), when the process started; a lock from an earlier boot, or whose id now
// names a process that started at another time, is taken over too. Windows is left to the id alone: its uptime
// may leave out time asleep, which would make a running holder look like one from an earlier boot.

export const HOME_LOCK_FILE = 'quire.lock'

/** Homes this process holds, with how many hosts hold each (tests open several hosts in one process). */
const held = new Map<string, number>()

/** When this machine started, in ms since the epoch (to the second or so: clock changes move it too). */
const bootTime = () => Math.round(Date.now() - uptime() * 1000)

/**
 * Boot times further apart than this are two boots. Clock adjustments move the estimate by less; two boots are
 * closer only when the earlier one lasted minutes, and then the lock is left to the process id.
 */
const BOOT_TOLERANCE_MS = 10 * 60_000

/** When a process started, as the system counts it (Linux: clock ticks since boot), where the system tells. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces and parentheses); the start time is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

interface LockRecord {
  pid: number
  boot?: number
  started?: string
}

/** Whether a process with this id runs (EPERM: it runs as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function recordOf(path: string): LockRecord | undefined {
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; boot?: unknown; started?: unknown }
    const pid = Number(raw.pid)
    if (!Number.isInteger(pid) || pid <= 0) return undefined
    return {
      pid,
      ...(typeof raw.boot === 'number' ? { boot: raw.boot } : {}),
      ...(typeof raw.started === 'string' ? { started: raw.started } : {})
    }
  } catch {
    return undefined
  }
}

/** Whether the process a lock names still runs: the same id, the same boot and (where known) the same start. */
function holds(record: LockRecord): boolean {
  if (record.pid === process.pid || !running(record.pid)) return false
  if (record.boot !== undefined && process.platform !== 'win32' && Math.abs(record.boot - bootTime()) > BOOT_TOLERANCE_MS) return false
  const started = record.started !== undefined ? processStart(record.pid) : undefined
  return started === undefined || started === record.started
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
          const started = processStart(process.pid)
          const record = { pid: process.pid, since: new Date().toISOString(), boot: bootTime(), ...(started ? { started } : {}) }
          writeSync(fd, `${JSON.stringify(record)}\n`)
        } finally {
          closeSync(fd)
        }
        break
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error
        const record = recordOf(path)
        if (record && holds(record)) {
          throw new Error(`Quire is already using ${home} (process ${record.pid}); stop it first, or delete ${path} if no Quire runs`)
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
      if (recordOf(path)?.pid === process.pid) unlinkSync(path)
    } catch {
      // already gone
    }
  }
}
