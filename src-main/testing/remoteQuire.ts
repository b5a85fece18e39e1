// Test-only: a Quire server in a child process (remoteQuireChild.ts, run with tsx as bench/children.ts runs the
// benchmark's servers), so a test can kill it with SIGKILL mid-request and start it again on the same workspace
// folder and port, as a remote that crashed and came back.
import { fork, type ChildProcess } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { newToken } from '../storage/ids'
import type { Role } from '../../src-shared/schemas/common'
import { httpClient, type Client } from './harness'
import type { ChildMessage, ParentMessage } from './remoteQuireChild'

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'remoteQuireChild.ts')

export interface RemoteUser {
  id: string
  email: string
  token: string
  api: Client
}

export interface RemoteQuire {
  /** `http://127.0.0.1:PORT`, the same across restarts. */
  readonly url: string
  readonly port: number
  readonly dataDir: string
  /** An owner token (organization admin of `orgId`). */
  readonly token: string
  readonly orgId: string
  /** A client with the owner token. */
  readonly owner: Client
  client(token?: string): Client
  /** True between a start and a kill (or close). */
  readonly running: boolean
  /** A new user with a token, member of the organization with `role` (default read; 'none': not a member). */
  user(options?: { role?: Role | null | 'none'; email?: string; name?: string }): Promise<RemoteUser>
  /** A new space with no page, made by the owner; its id. */
  emptySpace(title?: string): Promise<string>
  /** SIGKILL: the process dies at once, whatever it was doing; resolves once it is gone. */
  kill(): Promise<void>
  /** Starts the server again on the same folder and port (after kill or close). */
  restart(): Promise<void>
  /** Stops it cleanly. */
  close(): Promise<void>
}

let users = 0

/** Starts a server on `dataDir` (an empty folder gets an owner, an organization and `token`), on `port` (0: any). */
export async function startRemoteQuire(dataDir: string, options: { port?: number; token?: string } = {}): Promise<RemoteQuire> {
  const token = options.token ?? newToken()
  const first = await spawn(dataDir, token, options.port ?? 0)
  let child: ChildProcess | undefined = first.child
  const { port, url, orgId } = first.message

  const ask = (message: ParentMessage) =>
    new Promise<Extract<ChildMessage, { type: 'user' }>>((resolve, reject) => {
      const current = child
      if (!current) return reject(new Error('remoteQuire: not running'))
      const onMessage = (answer: ChildMessage) => {
        if (answer.type !== 'user') return
        current.off('exit', onExit)
        current.off('message', onMessage)
        resolve(answer)
      }
      const onExit = () => reject(new Error('remoteQuire: the server exited'))
      current.on('message', onMessage).once('exit', onExit)
      current.send(message)
    })

  const stop = async (signal: 'SIGKILL' | 'disconnect') => {
    const current = child
    child = undefined
    if (!current || current.exitCode !== null || current.signalCode !== null) return
    const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()))
    if (signal === 'SIGKILL') current.kill('SIGKILL')
    else {
      current.disconnect()
      // A server that does not stop within 10 s is killed.
      const timer = setTimeout(() => current.kill('SIGKILL'), 10_000)
      void exited.then(() => clearTimeout(timer))
    }
    await exited
  }

  const owner = httpClient(url, token)
  return {
    url,
    port,
    dataDir,
    token,
    orgId,
    owner,
    client: (clientToken?: string) => httpClient(url, clientToken),
    get running() {
      return !!child
    },
    async user(options = {}) {
      const n = ++users
      const made = await ask({
        type: 'user',
        email: options.email ?? `remote${n}@example.com`,
        name: options.name ?? `Remote ${n}`,
        role: options.role === undefined ? 'read' : options.role
      })
      return { id: made.id, email: made.email, token: made.token, api: httpClient(url, made.token) }
    },
    async emptySpace(title = 'Docs') {
      const res = await owner.post(`/v1/orgs/${orgId}/spaces`, { title, empty: true })
      if (res.status !== 201) throw new Error(`Creating space ${title} answered ${res.status}: ${JSON.stringify(res.body)}`)
      return res.body.id as string
    },
    kill: () => stop('SIGKILL'),
    async restart() {
      await stop('SIGKILL')
      child = (await spawn(dataDir, token, port)).child
    },
    close: () => stop('disconnect')
  }
}

async function spawn(dataDir: string, token: string, port: number) {
  const child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, QUIRE_TEST_DATA: dataDir, QUIRE_TEST_TOKEN: token, QUIRE_TEST_PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  const message = await new Promise<Extract<ChildMessage, { type: 'ready' }>>((resolve, reject) => {
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') resolve(message)
      else if (message.type === 'failed') reject(new Error(`remoteQuire: the server did not start: ${message.message}`))
    })
    child.once('exit', (code, signal) => reject(new Error(`remoteQuire: the server exited before it listened (${signal ?? code})`)))
  })
  return { child, message }
}
