// Child process entry of remoteQuire.ts: serves one workspace folder with the real server (startServer, as
// `quire serve --data DIR --token T` does), so the test can SIGKILL it mid-request and start it again on the same
// folder and port. Speaks to the parent over IPC: `ready` once listening, `user` to make a user with a token.
import { startServer } from '../server/server'
import { newToken } from '../storage/ids'
import { repository } from '../storage/repositories/memo'
import { organizationRepository } from '../storage/repositories/organizationRepository'
import { userRepository } from '../storage/repositories/userRepository'
import type { Role } from '../../src-shared/schemas/common'

export type ChildMessage =
  | { type: 'ready'; url: string; port: number; orgId: string }
  | { type: 'user'; id: string; email: string; token: string }
  | { type: 'failed'; message: string }
export type ParentMessage = { type: 'user'; email: string; name: string; role: Role | null | 'none' }

const send = (message: ChildMessage) => process.send!(message)

async function main() {
  const dataDir = process.env.QUIRE_TEST_DATA!
  const token = process.env.QUIRE_TEST_TOKEN!
  const server = await startServer({ dataDir, port: Number(process.env.QUIRE_TEST_PORT ?? 0), token, searchThreads: 0 })
  const { db } = server.api.services
  const orgId = db.prepare<[], string>('SELECT id FROM organizations ORDER BY seq LIMIT 1').pluck().get()!
  process.on('message', (message: ParentMessage) => {
    if (message.type !== 'user') return
    const now = new Date().toISOString()
    const userToken = newToken()
    const user = db.transaction(() => {
      const row = repository(db, userRepository).create({ email: message.email, displayName: message.name }, now)
      repository(db, userRepository).addToken(row.id, userToken, 'test', now)
      if (message.role !== 'none') repository(db, organizationRepository).addMember(orgId, row.id, message.role, now)
      return row
    })()
    server.api.services.writes++
    send({ type: 'user', id: user.id, email: user.email, token: userToken })
  })
  // The parent went away: do not linger.
  process.on('disconnect', () => void server.close().finally(() => process.exit(0)))
  send({ type: 'ready', url: server.url, port: server.port, orgId })
}

main().catch((error: unknown) => {
  send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  process.exit(1)
})
