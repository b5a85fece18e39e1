// With --log, requests are logged without the credentials they carry.
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { openWorkspace, bootstrapWorkspace } from '../workspace/workspace'
import { buildApi, redactSecrets, type Api } from './app'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

describe('request log', () => {
  it('never shows a bearer token, a download token, a share key or a visitor token', async () => {
    const workspace = openWorkspace({ dataDir: ':memory:', searchThreads: 0 })
    const token = 'qr_secret-bearer-token-0123456789abcdef'
    bootstrapWorkspace(workspace.services, token)
    const stream = new PassThrough()
    let log = ''
    stream.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')))
    const api: Api = await buildApi(workspace.services, { logger: true, logStream: stream })
    closers.push(async () => {
      await api.close()
      await workspace.close()
    })

    const orgs = await api.inject({ method: 'GET', url: '/v1/orgs', headers: { authorization: `Bearer ${token}` } })
    expect(orgs.statusCode).toBe(200)
    await api.inject({ method: 'GET', url: '/files/s/r/f/name.png?token=signed-download-secret&download=1' })
    await api.inject({ method: 'GET', url: '/preview/sites/x/?shareKey=share-secret&jwt_token=visitor-secret' })

    expect(log).toContain('"url":"/v1/orgs"')
    expect(log).toContain('token=[redacted]&download=1')
    for (const secret of [token, 'signed-download-secret', 'share-secret', 'visitor-secret']) expect(log).not.toContain(secret)
  })

  it('redacts each credential parameter wherever it stands in the query', () => {
    expect(redactSecrets('/a?x=1&TOKEN=abc&shareKey=k#f')).toBe('/a?x=1&TOKEN=[redacted]&shareKey=[redacted]#f')
    expect(redactSecrets('/a?mytoken=1')).toBe('/a?mytoken=1')
  })
})
