// A space's Git connection: stored with its credentials sealed, answered without them, and used by an import or
// export sent without a repository. Against a real smart-HTTP server on loopback, so the credentials are seen to
// reach the server.
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { GitJobs } from '../../../git/queue'
import { bareRepo, commitOf, headOf, readTexts, removeTempDirs, tempDir } from '../../../git/testing/repos'
import { startSmartHttpServer, type SmartHttpServer } from '../../../git/testing/smartHttpServer'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { KEY_FILE } from '../../../workspace/tokenSeal'
import { DOCS_REPO, editThroughChangeRequest, findPage, newSpace, pagesOf, waitForSync } from './fixtures'

const USER = 'docs-bot'
const PASSWORD = 'pa55-Zq9xW-secret'

let t: TestServer
let git: SmartHttpServer
let repo: string
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  repo = await bareRepo(DOCS_REPO)
  git = await startSmartHttpServer({ repos: { 'docs.git': repo }, auth: { username: USER, password: PASSWORD } })
  spaceId = await newSpace(t)
})
afterEach(async () => {
  vi.restoreAllMocks()
  await t.close()
  await git.close()
  removeTempDirs()
})

const connectionPath = (id = spaceId) => `/v1/spaces/${id}/git/connection`
const repoUrl = () => `${git.url}/docs.git`
const withCredentials = () => repoUrl().replace('http://', `http://${USER}:${PASSWORD}@`)
const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`
const connectionRow = (id = spaceId) =>
  t.server.api.services.db.prepare('SELECT * FROM git_connections WHERE space_id = ?').get(id) as Record<string, string | null> | undefined

async function start(operation: 'import' | 'export', body?: Record<string, unknown>) {
  const res = await t.owner.api.post(`/v1/spaces/${spaceId}/git/${operation}`, body)
  expect(res.status, JSON.stringify(res.body)).toBe(204)
  return waitForSync(t.owner.api, spaceId)
}

describe('git connection', { timeout: 60_000 }, () => {
  it('keeps credentials given in the URL sealed, answers without them, and imports and exports with them', async () => {
    const put = await t.owner.api.put(connectionPath(), {
      url: withCredentials(),
      ref: 'refs/heads/main',
      repoProjectDirectory: '',
      repoCommitURL: 'https://git.example.com/docs/commit/'
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual({
      url: repoUrl(),
      ref: 'refs/heads/main',
      repoProjectDirectory: '',
      repoCommitURL: 'https://git.example.com/docs/commit/',
      credentials: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String)
    })
    const got = await t.owner.api.get(connectionPath())
    expect(got.body).toEqual(put.body)
    expect(JSON.stringify(got.body)).not.toContain(PASSWORD)

    // At rest: the row holds the credential-free URL and a sealed blob, neither the password nor the user name.
    const row = connectionRow()!
    expect(row.url).toBe(repoUrl())
    expect(JSON.stringify(row)).not.toContain(PASSWORD)
    expect(JSON.stringify(row)).not.toContain(USER)
    expect(JSON.parse(row.credentials!)).toEqual({ seal: 'key', data: expect.any(String) })

    // An import without a body uses the connection, and its credentials reach the server.
    const imported = await start('import')
    expect(imported).toMatchObject({
      status: 'succeeded',
      operation: { state: 'success', direction: 'import' },
      url: repoUrl(),
      commit: await headOf(repo)
    })
    expect(imported).toMatchObject({ installationId: spaceId, installationStatus: 'active' })
    expect(imported.commitURL).toBe(`https://git.example.com/docs/commit/${imported.commit}`)
    expect(imported.startedAt).toEqual(expect.any(String))
    expect(imported.finishedAt).toEqual(expect.any(String))
    expect(imported.progress).toBeUndefined()
    expect(git.requests.some((r) => r.path === '/docs.git/git-upload-pack' && r.authorization === basic)).toBe(true)
    const pages = await pagesOf(t.owner.api, spaceId)
    expect(findPage(pages, 'Questions').markdown).toBe(DOCS_REPO['docs/faq.md'])

    // An export with only what the connection does not say: the default message, pushed with the credentials.
    await editThroughChangeRequest(t.owner.api, spaceId, [
      { operation: 'update_page', page: findPage(pages, 'Questions').id, document: { markdown: '# FAQ\n\nYes.\n' } }
    ])
    const before = await headOf(repo)
    const exported = await start('export', {})
    expect(exported.status, exported.error).toBe('succeeded')
    const head = await headOf(repo)
    expect(exported.commit).toBe(head)
    expect(await commitOf(repo, head)).toMatchObject({ parent: [before], message: 'Update from Quire\n' })
    expect((await readTexts(repo))['docs/faq.md']).toBe('# FAQ\n\nYes.\n')
    expect(git.requests.some((r) => r.path === '/docs.git/git-receive-pack' && r.authorization === basic)).toBe(true)
    expect(JSON.stringify(t.server.api.services.db.prepare('SELECT * FROM git_sync_states').all())).not.toContain(PASSWORD)
  })

  it('takes username and token apart, keeps them while the URL stays, drops them for another URL or token null', async () => {
    const put = await t.owner.api.put(connectionPath(), { url: repoUrl(), ref: 'refs/heads/main', username: USER, token: PASSWORD })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ url: repoUrl(), credentials: true, repoProjectDirectory: '' })
    expect(JSON.stringify(connectionRow())).not.toContain(PASSWORD)
    expect((await start('import')).status).toBe('succeeded')
    expect(git.requests.some((r) => r.authorization === basic)).toBe(true)

    // The same repository on another branch: the credentials stay.
    const kept = await t.owner.api.put(connectionPath(), { url: repoUrl(), ref: 'refs/heads/docs' })
    expect(kept.body).toMatchObject({ ref: 'refs/heads/docs', credentials: true })
    // token null removes them.
    const cleared = await t.owner.api.put(connectionPath(), { url: repoUrl(), ref: 'refs/heads/main', token: null })
    expect(cleared.body.credentials).toBe(false)
    expect(connectionRow()!.credentials).toBeNull()
    const failed = await start('import')
    expect(failed.status).toBe('failed')
    // Another repository never receives the previous one's credentials.
    await t.owner.api.put(connectionPath(), { url: repoUrl(), ref: 'refs/heads/main', token: PASSWORD })
    const moved = await t.owner.api.put(connectionPath(), { url: `${git.url}/other.git`, ref: 'refs/heads/main' })
    expect(moved.body.credentials).toBe(false)
  })

  it('uses the keychain seal the process has first', async () => {
    const services = t.server.api.services
    services.seals = [
      { kind: 'os', seal: (s) => Buffer.from(s).reverse().toString('base64'), open: (s) => Buffer.from(s, 'base64').reverse().toString() },
      { kind: 'file', seal: (s) => s, open: (s) => s }
    ]
    await t.owner.api.put(connectionPath(), { url: withCredentials(), ref: 'refs/heads/main' })
    expect(JSON.parse(connectionRow()!.credentials!).seal).toBe('os')
    expect(JSON.stringify(connectionRow())).not.toContain(PASSWORD)
    expect((await start('import')).status).toBe('succeeded')
    expect(git.requests.some((r) => r.authorization === basic)).toBe(true)
  })

  it('answers 409 when this process cannot open the stored credentials, and queues nothing', async () => {
    await t.owner.api.put(connectionPath(), { url: withCredentials(), ref: 'refs/heads/main' })
    t.server.api.services.db.prepare("UPDATE git_connections SET credentials = json_set(credentials, '$.seal', 'os')").run()
    const res = await t.owner.api.post(`/v1/spaces/${spaceId}/git/import`)
    expect(res.status).toBe(409)
    expect(res.body.error.message).toMatch(/^credentials: /)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/git/info`)).status).toBe(404)
  })

  it('keeps the key of a workspace folder in a file only its user reads', async () => {
    await t.close()
    const dataDir = tempDir()
    t = await startTestServer({ dataDir })
    spaceId = await newSpace(t)
    await t.owner.api.put(connectionPath(), { url: withCredentials(), ref: 'refs/heads/main' })
    expect(statSync(join(dataDir, KEY_FILE)).mode & 0o777).toBe(0o600)
    expect(JSON.stringify(connectionRow())).not.toContain(PASSWORD)
  })

  it('removes the connection (204), then answers 404', async () => {
    await t.owner.api.put(connectionPath(), { url: withCredentials(), ref: 'refs/heads/main' })
    expect((await t.owner.api.delete(connectionPath())).status).toBe(204)
    expect(connectionRow()).toBeUndefined()
    expect((await t.owner.api.get(connectionPath())).body).toEqual({ error: { code: 404, message: 'Git connection not found' } })
    expect((await t.owner.api.delete(connectionPath())).status).toBe(404)
  })

  it("reports the running job's phase and counts", async () => {
    const reports: [string, Record<string, unknown>][] = []
    const report = GitJobs.prototype.report
    vi.spyOn(GitJobs.prototype, 'report').mockImplementation(function (this: GitJobs, id, change) {
      reports.push([id, change])
      return report.call(this, id, change)
    })
    await t.owner.api.put(connectionPath(), { url: withCredentials(), ref: 'refs/heads/main' })
    await start('import')
    const phases = reports.flatMap(([, c]) => (c.phase ? [c.phase] : []))
    expect(phases).toEqual(['fetching', 'reading', 'applying'])
    expect(Math.max(...reports.map(([, c]) => (c.filesRead as number) ?? 0))).toBe(6) // README, SUMMARY and 4 pages
    expect(reports.at(-1)![1]).toEqual({ pagesApplied: 5 })

    // While a job runs, git/info carries its progress (set here as a job would).
    const services = t.server.api.services
    const { gitJobs } = await import('../../../git/queue')
    gitJobs(services).report(spaceId, { phase: 'writing', filesWritten: 3 })
    services.db.prepare("UPDATE git_sync_states SET status = 'running'").run()
    const info = await t.owner.api.get(`/v1/spaces/${spaceId}/git/info`)
    expect(info.body.progress).toEqual({ phase: 'writing', filesRead: 0, filesWritten: 3, pagesApplied: 0 })
  })
})

describe('git connection: validation and access', { timeout: 60_000 }, () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'an ssh URL',
      { url: 'git@example.com:docs.git', ref: 'refs/heads/main' },
      'url: must be an http(s) URL, a file:// URL or an absolute path to a local repository'
    ],
    [
      'a relative path',
      { url: 'docs', ref: 'refs/heads/main' },
      'url: must be an http(s) URL, a file:// URL or an absolute path to a local repository'
    ],
    ['a bad branch', { url: '/tmp/x', ref: 'refs/heads/a..b' }, 'ref: must be refs/heads/<branch> with a valid branch name'],
    ['a tag', { url: '/tmp/x', ref: 'refs/tags/v1.0.0' }, 'ref: must be a branch, as refs/heads/<branch>'],
    [
      'a folder outside',
      { url: '/tmp/x', ref: 'refs/heads/main', repoProjectDirectory: '../up' },
      'repoProjectDirectory: must stay inside the repository'
    ],
    [
      'credentials twice',
      { url: 'https://u:secret-one@example.com/d.git', ref: 'refs/heads/main', token: 'secret-two' },
      'token: give the credentials in the URL or as username and token, not both'
    ],
    ['a user without token', { url: 'https://example.com/d.git', ref: 'refs/heads/main', username: 'u' }, 'username: needs a token'],
    [
      'a token for a local repository',
      { url: '/tmp/x', ref: 'refs/heads/main', token: 'secret' },
      'token: only an http(s) repository takes credentials'
    ],
    ['a missing ref', { url: '/tmp/x' }, 'ref: is required'],
    [
      'a commit URL that is not http',
      { url: '/tmp/x', ref: 'refs/heads/main', repoCommitURL: 'javascript:alert(1)//' },
      'repoCommitURL: must be an http(s) URL'
    ]
  ]
  it.each(cases)('400 for %s, storing nothing and repeating no secret', async (_name, body, message) => {
    const res = await t.owner.api.put(connectionPath(), body)
    expect(res.body).toEqual({ error: { code: 400, message } })
    expect(JSON.stringify(res.body)).not.toContain('secret')
    expect(connectionRow()).toBeUndefined()
  })

  it('400 for an import or export without a repository when the space has no connection, or a ref without url', async () => {
    const none = await t.owner.api.post(`/v1/spaces/${spaceId}/git/export`)
    expect(none.body).toEqual({ error: { code: 400, message: 'url: the space has no Git connection: connect it, or give url and ref' } })
    const partial = await t.owner.api.post(`/v1/spaces/${spaceId}/git/import`, { ref: 'refs/heads/main' })
    expect(partial.body).toEqual({ error: { code: 400, message: 'url: is required' } })
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/git/info`)).status).toBe(404)
  })

  it('is for space admins: 403 below admin, 404 for outsiders and unknown spaces; editors sync through it', async () => {
    const body = { url: withCredentials(), ref: 'refs/heads/main' }
    const editor = await t.user({ role: 'edit' })
    expect((await editor.api.put(connectionPath(), body)).status).toBe(403)
    expect(connectionRow()).toBeUndefined()
    expect((await t.owner.api.put(connectionPath(), body)).status).toBe(200)
    for (const role of ['read', 'edit', 'create'] as const) {
      const user = await t.user({ role })
      expect((await user.api.get(connectionPath())).status).toBe(403)
      expect((await user.api.delete(connectionPath())).status).toBe(403)
    }
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get(connectionPath())).status).toBe(404)
    expect((await outsider.api.put(connectionPath(), body)).status).toBe(404)
    expect((await t.owner.api.get(connectionPath('nope'))).status).toBe(404)
    expect((await t.anonymous.get(connectionPath())).status).toBe(401)
    expect(connectionRow()).toBeDefined()

    // An editor may sync with the stored connection (triggerGitSync), without ever seeing its credentials.
    const res = await editor.api.post(`/v1/spaces/${spaceId}/git/import`)
    expect(res.status).toBe(204)
    expect((await waitForSync(editor.api, spaceId)).status).toBe('succeeded')

    // A locked space refuses the sync, not the settings.
    await t.owner.api.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' })
    expect((await t.owner.api.post(`/v1/spaces/${spaceId}/git/import`)).status).toBe(403)
    expect((await t.owner.api.put(connectionPath(), { url: repoUrl(), ref: 'refs/heads/main' })).status).toBe(200)
  })
})
