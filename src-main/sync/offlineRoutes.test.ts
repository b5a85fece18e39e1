// What works offline is declared by the routes themselves (api/offline.ts); the sync code has no list of paths.
import { afterEach, describe, expect, it } from 'vitest'
import { OUTBOX_COMMANDS } from '../workspace/offline'
import { startTestServer, type TestServer } from '../testing/harness'
import { REPLAYS } from './replay'

let t: TestServer | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

describe('offline behaviour declared by the routes', () => {
  it('queues only writes, each as a command the replay sends; the copy answers only reads', async () => {
    t = await startTestServer()
    const routes = t.server.api.routeTable.routes().filter((r) => r.offline)
    const queued = routes.flatMap((r) => (typeof r.offline === 'object' ? [`${r.method} ${r.pattern} → ${r.offline.queue}`] : []))
    expect(queued).toEqual([
      'POST /v1/spaces/:spaceId/change-requests → create-change-request',
      'PATCH /v1/spaces/:spaceId/change-requests/:changeRequestId → update-change-request',
      'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/content → content'
    ])
    for (const route of routes) {
      const name = `${route.method} ${route.pattern}`
      if (route.offline === 'copy') expect(['GET', 'HEAD'], name).toContain(route.method)
      else {
        expect(['POST', 'PUT', 'PATCH', 'DELETE'], name).toContain(route.method)
        expect(REPLAYS[route.offline!.queue], `${name} is queued, and needs a replay`).toBeDefined()
      }
    }
    // Every command the outbox knows is sent somehow, and queued by some route.
    for (const command of OUTBOX_COMMANDS) {
      expect(REPLAYS[command], command).toBeDefined()
      expect(
        queued.some((q) => q.endsWith(`→ ${command}`)),
        command
      ).toBe(true)
    }
  })

  it('matches a request to its route and parameters as the API does', async () => {
    t = await startTestServer()
    const table = t.server.api.routeTable
    expect(table.find('GET', '/v1/spaces/s1/change-requests/12/content/page/p%2F1')).toEqual({
      method: 'GET',
      pattern: '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId',
      params: { spaceId: 's1', changeRequestId: '12', pageId: 'p/1' },
      offline: 'copy'
    })
    expect(table.find('POST', '/v1/spaces/s1/change-requests/cr/merge')).toMatchObject({
      pattern: '/v1/spaces/:spaceId/change-requests/:changeRequestId/merge',
      params: { spaceId: 's1', changeRequestId: 'cr' }
    })
    expect(table.find('POST', '/v1/spaces/s1/change-requests/cr/merge')).not.toHaveProperty('offline')
    expect(table.find('GET', '/v1/spaces/s1/change-requests/cr/links')).toMatchObject({
      pattern: '/v1/spaces/:spaceId/change-requests/:changeRequestId/links',
      offline: 'copy'
    })
    expect(table.find('GET', '/v1/nothing/here')).toBeUndefined()
  })
})
