// The remote Quire runs in a child process: killed with SIGKILL it stops answering at once, and started again on
// the same folder it serves the same data on the same address.
import { afterEach, describe, expect, it } from 'vitest'
import { startRemoteQuire, type RemoteQuire } from './remoteQuire'
import { tempDirs } from './tempDirs'

const tempDir = tempDirs('remote')
const running: RemoteQuire[] = []
afterEach(async () => {
  for (const remote of running.splice(0)) await remote.close()
})

describe('remoteQuire', () => {
  it('serves a workspace folder, makes users and spaces, and keeps every answered write across SIGKILLs and restarts', async () => {
    const remote = await startRemoteQuire(tempDir())
    running.push(remote)
    expect(remote.url).toBe(`http://127.0.0.1:${remote.port}`)
    expect(remote.token.length).toBeGreaterThanOrEqual(32)
    expect((await remote.owner.get('/v1/user')).status).toBe(200)
    const spaceId = await remote.emptySpace('Guide')
    const writer = await remote.user({ role: 'edit' })
    expect((await writer.api.get('/v1/user')).body).toMatchObject({ id: writer.id, email: writer.email })
    const cr = await remote.owner.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Before the crash' })
    expect(cr.status).toBe(201)

    await remote.kill()
    expect(remote.running).toBe(false)
    await expect(fetch(`${remote.url}/v1/user`)).rejects.toThrow('fetch failed')

    await remote.restart()
    expect(remote.running).toBe(true)
    expect((await remote.owner.get(`/v1/spaces/${spaceId}`)).body).toMatchObject({ id: spaceId, title: 'Guide' })
    expect((await remote.owner.get(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}`)).body).toMatchObject({
      subject: 'Before the crash'
    })

    // Killed while writes stream in: every write it answered is kept.
    const answered: string[] = []
    const writes = Array.from({ length: 40 }, (_, i) =>
      remote.owner.post(`/v1/spaces/${spaceId}/change-requests`, { subject: `CR ${i}` }).then(
        (res) => void (res.status === 201 && answered.push(res.body.id)),
        () => undefined
      )
    )
    await writes[5]
    await remote.kill()
    await Promise.all(writes)
    await remote.restart()
    const kept = (
      (await remote.owner.get(`/v1/spaces/${spaceId}/change-requests`, { limit: 100, status: 'draft' })).body.items as { id: string }[]
    ).map((c) => c.id)
    expect(answered.length).toBeGreaterThan(0)
    for (const id of answered) expect(kept).toContain(id)
    // Three starts of a child process (tsx compiles the server's sources): slow on a busy machine.
  }, 60_000)
})
