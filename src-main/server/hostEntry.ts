// The workspace host's process entry: `child_process.fork` under Node (its IPC channel is the port), Electron's
// `utilityProcess.fork` in the desktop app (the first message hands over a MessagePortMain to speak on). No
// electron import: a utility process is Node with `process.parentPort`.
import type { HostPort } from '../workspaces/hostProtocol'
import { serveHost } from './hostProcess'

interface PortMain {
  postMessage(message: unknown): void
  on(event: 'message', listener: (event: { data: unknown }) => void): void
  start(): void
}
interface ParentPort {
  once(event: 'message', listener: (event: { data: unknown; ports: PortMain[] }) => void): void
}

// A throw nothing caught is not swallowed: it is logged and the process ends, so the parent sees the host stop,
// fails what it had not answered and starts it again.
process.on('uncaughtException', (error) => {
  console.error('The workspace host failed:', error)
  process.exit(70)
})

const exit = (code: number) => process.exit(code)
const parentPort = (process as { parentPort?: ParentPort }).parentPort
if (parentPort) {
  parentPort.once('message', ({ ports }) => {
    const port = ports[0]!
    const hostPort: HostPort = {
      postMessage: (message) => port.postMessage(message),
      on: (_event, listener) => port.on('message', ({ data }) => listener(data))
    }
    serveHost(hostPort, exit)
    port.start()
  })
} else if (process.send) {
  const hostPort: HostPort = {
    postMessage: (message) => void process.send!(message),
    on: (_event, listener) => void process.on('message', listener)
  }
  const host = serveHost(hostPort, exit)
  // The parent went away without closing: close the workspaces (checkpoint) and end. Ctrl+C in a terminal signals
  // the whole process group: the parent closes the host, so the host does not stop on its own.
  process.on('disconnect', () => host.close())
  process.on('SIGINT', () => {})
  process.on('SIGTERM', () => host.close())
} else {
  console.error('The workspace host runs as a child process of Quire (it has no parent to answer)')
  process.exit(2)
}
