// The workspace host in Electron's utility process (src-main/server/hostEntry.ts, built as out/main/host.js), spoken
// to over a MessagePortMain. Only the transport is here; the protocol and both its sides are plain Node modules,
// tested under Node with a child process (src-main/server/hostFork.ts) in its place.
import { join } from 'node:path'
import { app, MessageChannelMain, utilityProcess } from 'electron'
import type { HostProcess } from '../workspaces/hostClient.ts'

export function utilityHost(): HostProcess {
  // host.js runs its bundle with V8's code cache (src-main/base/codeCache.ts), kept in the user's data: the install
  // beside it is read-only.
  const env = { ...process.env, QUIRE_CODE_CACHE_DIR: join(app.getPath('userData'), 'host-code-cache') }
  const child = utilityProcess.fork(join(import.meta.dirname, 'host.js'), [], {
    serviceName: 'Quire workspace host',
    stdio: 'inherit',
    env
  })
  const { port1, port2 } = new MessageChannelMain()
  // The first message hands the host its end of the channel; everything after goes over the ports.
  child.postMessage(null, [port2])
  port1.start()
  return {
    // MessagePortMain copies ArrayBuffers (it transfers only ports).
    port: {
      postMessage: (message) => port1.postMessage(message),
      on: (_event, listener) => void port1.on('message', ({ data }) => listener(data))
    },
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(`exit code ${code}`))),
    kill: () => void child.kill()
  }
}
