// The workspace host in a child process under plain Node (`quire serve --host-process`, the tests). A child process
// rather than a worker thread: like Electron's utilityProcess it has its own heap and event loop, and a native crash
// or an out-of-memory in SQLite ends it alone; the parent sees it stop and can start it again. Its IPC channel
// carries the protocol's messages with V8's serialization (`advanced`), so bytes cross as ArrayBuffers (copied: a
// process boundary cannot move them).
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { HostProcess } from '../workspaces/hostClient'

/** The entry to fork: the TypeScript source (run with tsx) or the built `host.js` beside the bundle. */
function hostEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url)
  if (here.endsWith('.ts')) return { file: join(dirname(here), 'hostEntry.ts'), execArgv: ['--import', 'tsx'] }
  for (const dir of [dirname(here), join(dirname(here), '..')]) {
    if (existsSync(join(dir, 'host.js'))) return { file: join(dir, 'host.js'), execArgv: [] }
  }
  throw new Error(`The workspace host's entry (host.js) is not beside ${here}: build with electron-vite`)
}

/** Starts a host process; it waits for the protocol's `start` message. */
export function forkHost(): HostProcess {
  // node:child_process (and the dgram, cluster… it loads) only when a host is started, not at every server start.
  const { fork } = process.getBuiltinModule('node:child_process')
  const { file, execArgv } = hostEntry()
  const child = fork(file, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? `exit code ${code}`))
  })
  return {
    port: {
      postMessage: (message) => {
        // A message to a process that is gone is dropped; its requests fail when its exit is seen.
        if (child.connected) child.send(message as never)
      },
      on: (_event, listener) => void child.on('message', listener)
    },
    exited,
    kill: () => void child.kill('SIGKILL')
  }
}
