import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildApi } from '../api/app'
import { DAY_MS, manualClock } from '../base/clock'
import { newToken } from '../storage/ids'
import { bootstrapWorkspace, FIRST_UPKEEP_DELAY_MS, openWorkspace, startMaintenance } from './workspace'

afterEach(() => {
  vi.useRealTimers()
})

describe('startMaintenance', () => {
  it('leaves upkeep off the start: a space past its restore window is gone to the routes at once, its rows go with the first pass', async () => {
    const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'))
    const workspace = openWorkspace({ dataDir: ':memory:', clock, searchThreads: 0 })
    const token = newToken()
    const boot = bootstrapWorkspace(workspace.services, token)
    const api = await buildApi(workspace.services)
    try {
      const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
        api.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } })
      const created = await call('POST', `/v1/orgs/${boot.organizationId}/spaces`, { title: 'Old', empty: true })
      expect(created.statusCode).toBe(201)
      const spaceId = created.json().id as string
      expect((await call('DELETE', `/v1/spaces/${spaceId}`)).statusCode).toBe(205)
      clock.advance(8 * DAY_MS)
      const rows = () => workspace.services.db.prepare('SELECT count(*) FROM spaces WHERE id = ?').pluck().get(spaceId)

      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
      const stop = startMaintenance(workspace.services)
      try {
        // Started: nothing purged yet, and the routes already answer as if it were.
        expect(rows()).toBe(1)
        expect((await call('GET', `/v1/spaces/${spaceId}`)).statusCode).toBe(404)
        vi.advanceTimersByTime(FIRST_UPKEEP_DELAY_MS)
        expect(rows()).toBe(0)
      } finally {
        stop()
      }
    } finally {
      await api.close()
      await workspace.close()
    }
  })

  it('stopped before its first pass, runs none', async () => {
    const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'))
    const workspace = openWorkspace({ dataDir: ':memory:', clock, searchThreads: 0 })
    bootstrapWorkspace(workspace.services)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    const stop = startMaintenance(workspace.services)
    stop()
    expect(vi.getTimerCount()).toBe(0)
    await workspace.close()
  })
})
