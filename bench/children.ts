// The two servers run in child processes (bench/servers.ts), spoken to over IPC.
import { fork, type ChildProcess } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ParentMessage } from './servers'

const here = dirname(fileURLToPath(import.meta.url))

export interface Child {
  process: ChildProcess
  next<T>(type: string): Promise<T>
  send(message: ParentMessage): void
}

export function startChild(kind: 'baseline' | 'quire', env: Record<string, string>): Child {
  const child = fork(join(here, 'servers.ts'), [kind], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  const waiting = new Map<string, ((message: any) => void)[]>()
  const failures = new Set<(error: Error) => void>()
  child.on('message', (message: { type: string }) => {
    const list = waiting.get(message.type)
    const resolve = list?.shift()
    if (resolve) resolve(message)
  })
  child.on('exit', (code) => {
    for (const fail of failures) fail(new Error(`${kind} server exited (code ${code})`))
  })
  return {
    process: child,
    send: (message) => child.send(message),
    next<T>(type: string) {
      return new Promise<T>((resolve, reject) => {
        const list = waiting.get(type) ?? []
        waiting.set(type, list)
        const fail = (error: Error) => reject(error)
        failures.add(fail)
        list.push((message) => {
          failures.delete(fail)
          resolve(message as T)
        })
      })
    }
  }
}

export async function stopChild(child: Child | undefined): Promise<void> {
  if (!child || child.process.exitCode !== null || !child.process.connected) return
  const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()))
  child.send({ type: 'stop' })
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(timer)
}
