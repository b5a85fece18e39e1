import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type Client, type TestServer } from '../../../testing/harness'
import { download, seedContent } from '../files/fixtures'

let t: TestServer
let site: Server | undefined
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(async () => {
  site?.closeAllConnections()
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()))
  site = undefined
  await t.close()
})

/** A two-page website whose second page answers only once `release()` is called. */
async function heldSite() {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  site = createServer((req, res) => {
    const send = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><main>${body}</main></body></html>`)
    if (req.url === '/') send('<h1>Handbook</h1><p>Read <a href="/leave">the leave policy</a>.</p>')
    else if (req.url === '/leave') void held.then(() => send('<h1>Leave</h1><p>Twenty-five days.</p>'))
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/`, release }
}

/** Polls the job until `done(job)` holds (a bounded loop with short waits). */
async function jobUntil(api: Client, id: string, done: (job: any) => boolean) {
  const deadline = Date.now() + 15_000
  for (;;) {
    const res = await api.get(`/v1/jobs/${id}`)
    if (res.status === 200 && done(res.body)) return res.body
    if (Date.now() > deadline) throw new Error(`job ${id} did not reach the expected state: ${JSON.stringify(res.body)}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

type TreePage = { title: string; pages: TreePage[] }
const titles = (pages: TreePage[]): string[] => pages.flatMap((p) => [p.title, ...titles(p.pages)])
/** Every page's title, depth first. */
const pagesOf = async (spaceId: string) => titles((await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages)

describe('import jobs (job=, Quire addition)', () => {
  it('tells the phase and the pages read while the import runs, then that it is complete', async () => {
    const spaceId = await t.emptySpace()
    const { url, release } = await heldSite()
    const importing = t.owner.api.request('POST', `/v1/spaces/${spaceId}/content/import`, { url, source: 'website' }, { job: 'import-one' })
    const running = await jobUntil(t.owner.api, 'import-one', (job) => job.done === 1)
    expect(running).toEqual({ object: 'job', id: 'import-one', kind: 'import', state: 'running', phase: 'pages', done: 1 })
    release()
    const res = await importing
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.importedResources).toBe(2)
    expect((await t.owner.api.get('/v1/jobs/import-one')).body).toEqual({
      object: 'job',
      id: 'import-one',
      kind: 'import',
      state: 'complete',
      phase: 'writing',
      done: 2,
      total: 2
    })
    expect(await pagesOf(spaceId)).toEqual(['Handbook', 'Leave'])
  })

  it('a cancelled import answers 409 and writes nothing: no page, no change request', async () => {
    const spaceId = await t.emptySpace()
    const { url, release } = await heldSite()
    const body = { url, source: 'website', changeRequest: { subject: 'Import' } }
    const importing = t.owner.api.request('POST', `/v1/spaces/${spaceId}/content/import`, body, { job: 'import-two' })
    await jobUntil(t.owner.api, 'import-two', (job) => job.done === 1)
    const cancelled = await t.owner.api.delete('/v1/jobs/import-two')
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toMatchObject({ id: 'import-two', kind: 'import' })
    const res = await importing
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ error: { code: 409, message: 'job: cancelled' } })
    expect((await t.owner.api.get('/v1/jobs/import-two')).body.state).toBe('cancelled')
    release()
    expect(await pagesOf(spaceId)).toEqual([])
    for (const status of ['draft', 'open', 'archived']) {
      expect((await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests`, { status })).body.count).toBe(0)
    }
    // The id is free again once its work ended.
    const again = await t.owner.api.request(
      'POST',
      `/v1/spaces/${spaceId}/content/import`,
      { url, source: 'website' },
      { job: 'import-two' }
    )
    expect(again.status).toBe(201)
    expect(await pagesOf(spaceId)).toEqual(['Handbook', 'Leave'])
  })

  it("a job is its caller's: 404 for anyone else and for unknown ids, 401 without a token, 400 for a bad id, 409 for a running id", async () => {
    const spaceId = await t.emptySpace()
    const { url, release } = await heldSite()
    const importing = t.owner.api.request(
      'POST',
      `/v1/spaces/${spaceId}/content/import`,
      { url, source: 'website' },
      { job: 'import-three' }
    )
    await jobUntil(t.owner.api, 'import-three', (job) => job.state === 'running')
    const other = await t.user({ role: 'admin' })
    expect((await other.api.get('/v1/jobs/import-three')).status).toBe(404)
    expect((await other.api.delete('/v1/jobs/import-three')).status).toBe(404)
    expect((await t.owner.api.get('/v1/jobs/no-such-job')).body).toEqual({ error: { code: 404, message: 'Job not found' } })
    expect((await t.anonymous.get('/v1/jobs/import-three')).status).toBe(401)
    const twice = await t.owner.api.request(
      'POST',
      `/v1/spaces/${spaceId}/content/import`,
      { url, source: 'website' },
      { job: 'import-three' }
    )
    expect(twice.body).toEqual({ error: { code: 409, message: 'job: import-three is running' } })
    const bad = await t.owner.api.request('POST', `/v1/spaces/${spaceId}/content/import`, { url, source: 'website' }, { job: 'no way' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toMatch(/^job: /)
    // A reader may not import: refused before any job starts.
    const reader = await t.user({ role: 'read' })
    const refused = await reader.api.request(
      'POST',
      `/v1/spaces/${spaceId}/content/import`,
      { url, source: 'website' },
      { job: 'reader-job' }
    )
    expect(refused.status).toBe(403)
    expect((await reader.api.get('/v1/jobs/reader-job')).status).toBe(404)
    release()
    expect((await importing).status).toBe(201)
  })
})

describe('PDF jobs (job=, Quire addition)', () => {
  it('tells the pages drawn, and ends complete', async () => {
    const spaceId = await t.emptySpace()
    await seedContent(
      t,
      spaceId,
      Array.from({ length: 25 }, (_, i) => ({ operation: 'insert_page', title: `Page ${i + 1}`, document: { markdown: `Text ${i + 1}.` } }))
    )
    const { url } = (await t.owner.api.get(`/v1/spaces/${spaceId}/pdf`)).body
    const withJob = new URL(url)
    withJob.searchParams.set('job', 'pdf-job-one')
    const pdf = await download(withJob.href)
    expect(pdf.status, pdf.bytes.toString()).toBe(200)
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-')
    expect((await t.owner.api.get('/v1/jobs/pdf-job-one')).body).toEqual({
      object: 'job',
      id: 'pdf-job-one',
      kind: 'pdf',
      state: 'complete',
      phase: 'pages',
      done: 25,
      total: 25
    })
  })
})
