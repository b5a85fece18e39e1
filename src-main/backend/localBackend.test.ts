import { describe, expect, it } from 'vitest'
import { openLocalBackend, SESSION_TOKEN_LABEL } from './localBackend'
import { tempDirs } from '../testing/tempDirs'

const tempDir = tempDirs('backend')

async function tokenRows(dataDir: string) {
  const backend = await openLocalBackend({ dataDir, token: 'probe', tokenLabel: 'probe' })
  const rows = backend.services.db.prepare('SELECT label FROM tokens ORDER BY seq').pluck().all() as string[]
  await backend.close()
  return rows.filter((label) => label !== 'probe')
}

async function ownerCan(backend: Awaited<ReturnType<typeof openLocalBackend>>, token = backend.ownerToken) {
  const res = await backend.fetch(new Request('http://quire.localhost/v1/user', { headers: { authorization: `Bearer ${token}` } }))
  return res.status
}

describe('local backend', () => {
  it('replaces its session token on every open instead of adding one per start', async () => {
    const dataDir = tempDir()
    const first = await openLocalBackend({ dataDir })
    expect(first.bootstrapped).toBe(true)
    expect(await ownerCan(first)).toBe(200)
    const firstToken = first.ownerToken
    await first.close()

    for (let i = 0; i < 3; i++) {
      const again = await openLocalBackend({ dataDir })
      expect(again.bootstrapped).toBe(false)
      expect(await ownerCan(again)).toBe(200)
      expect(await ownerCan(again, firstToken)).toBe(401)
      await again.close()
    }
    expect(await tokenRows(dataDir)).toEqual([SESSION_TOKEN_LABEL])
  })

  it('a given token is added once and kept; with a label it replaces the previous token of that label', async () => {
    const dataDir = tempDir()
    for (let i = 0; i < 2; i++) await (await openLocalBackend({ dataDir, token: 'fixed' })).close()
    await (await openLocalBackend({ dataDir, token: 'run-1', tokenLabel: 'serve session' })).close()
    const last = await openLocalBackend({ dataDir, token: 'run-2', tokenLabel: 'serve session' })
    expect(await ownerCan(last, 'fixed')).toBe(200)
    expect(await ownerCan(last, 'run-2')).toBe(200)
    expect(await ownerCan(last, 'run-1')).toBe(401)
    await last.close()
    expect((await tokenRows(dataDir)).sort()).toEqual(['serve --token', 'serve session'])
  })

  it('answers a HEAD in process as its GET: the same status and headers, no body', async () => {
    const backend = await openLocalBackend({ dataDir: tempDir() })
    try {
      const ask = (method: string, path: string) => backend.request(new Request(`http://quire.localhost${path}`, { method }))
      const get = await ask('GET', '/v1/user')
      const head = await ask('HEAD', '/v1/user')
      expect(head.status).toBe(200)
      expect(head.headers.get('content-length')).toBe(String((await get.arrayBuffer()).byteLength))
      expect(head.body).toBeNull()
      expect((await ask('HEAD', '/v1/no-such-thing')).status).toBe(404)
    } finally {
      await backend.close()
    }
  })
})
