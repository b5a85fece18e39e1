import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { bareRepo, removeTempDirs, tempDir } from '../../../git/testing/repos'
import { startServer } from '../../../server/server'
import { newToken } from '../../../storage/ids'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { newSpace, sync, waitForSync } from './fixtures'

let t: TestServer
let spaceId: string
let repo: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await newSpace(t)
  repo = await bareRepo({ 'README.md': '# Hello\n' })
})
afterEach(async () => {
  await t.close()
  removeTempDirs()
})

const importPath = (id = spaceId) => `/v1/spaces/${id}/git/import`
const exportPath = (id = spaceId) => `/v1/spaces/${id}/git/export`
const infoPath = (id = spaceId) => `/v1/spaces/${id}/git/info`

describe('git sync access', { timeout: 60_000 }, () => {
  it('answers 401 without a token', async () => {
    expect((await t.anonymous.post(importPath(), { url: repo, ref: 'refs/heads/main' })).status).toBe(401)
    expect((await t.anonymous.post(exportPath(), { url: repo, ref: 'refs/heads/main', commitMessage: 'x' })).status).toBe(401)
    expect((await t.anonymous.get(infoPath())).status).toBe(401)
  })

  it('answers 404 for unknown spaces, non-members, and a space never synced', async () => {
    const body = { url: repo, ref: 'refs/heads/main', commitMessage: 'x' }
    expect((await t.owner.api.post(importPath('nope'), body)).status).toBe(404)
    expect((await t.owner.api.post(exportPath('nope'), body)).status).toBe(404)
    expect((await t.owner.api.get(infoPath('nope'))).status).toBe(404)
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.post(importPath(), body)).status).toBe(404)
    expect((await outsider.api.post(exportPath(), body)).status).toBe(404)
    expect((await outsider.api.get(infoPath())).status).toBe(404)
    const never = await t.owner.api.get(infoPath())
    expect(never.status).toBe(404)
    expect(never.body).toEqual({ error: { code: 404, message: 'Git sync not found' } })
    const deleted = await newSpace(t, 'Gone')
    await t.owner.api.delete(`/v1/spaces/${deleted}`)
    expect((await t.owner.api.post(importPath(deleted), body)).status).toBe(404)
  })

  it('answers 403 below the edit role and on a locked space, and changes nothing', async () => {
    const body = { url: repo, ref: 'refs/heads/main', commitMessage: 'x' }
    for (const role of ['read', 'comment'] as const) {
      const user = await t.user({ role })
      expect((await user.api.post(importPath(), body)).status).toBe(403)
      expect((await user.api.post(exportPath(), body)).status).toBe(403)
    }
    await t.owner.api.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' })
    const locked = await t.owner.api.post(importPath(), body)
    expect(locked.status).toBe(403)
    expect(locked.body.error.message).toMatch(/locked/)
    expect((await t.owner.api.post(exportPath(), body)).status).toBe(403)
    expect((await t.owner.api.get(infoPath())).status).toBe(404)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.permissions.triggerGitSync).toBe(false)
  })

  it('lets an editor sync and a reader see the state', async () => {
    const editor = await t.user({ role: 'edit' })
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.permissions.triggerGitSync).toBe(true)
    const info = await sync(editor.api, spaceId, 'import', { url: repo, ref: 'refs/heads/main' })
    expect(info.status).toBe('succeeded')
    const reader = await t.user({ role: 'read' })
    const seen = await reader.api.get(infoPath())
    expect(seen.status).toBe(200)
    expect(seen.body).toMatchObject({
      repoName: expect.any(String),
      installationProvider: 'git',
      url: repo,
      updatedAt: expect.any(String),
      ref: 'refs/heads/main',
      status: 'succeeded'
    })
  })
})

describe('git sync validation', { timeout: 60_000 }, () => {
  const cases: [string, 'import' | 'export', Record<string, unknown>, string][] = [
    ['missing url', 'import', { ref: 'refs/heads/main' }, 'url: is required'],
    ['missing ref', 'import', { url: '/tmp/x' }, 'ref: is required'],
    ['missing commitMessage', 'export', { url: '/tmp/x', ref: 'refs/heads/main' }, 'commitMessage: is required'],
    [
      'empty commitMessage',
      'export',
      { url: '/tmp/x', ref: 'refs/heads/main', commitMessage: '' },
      'commitMessage: must be at least 1 characters'
    ],
    ['a bare branch name', 'import', { url: '/tmp/x', ref: 'main' }, 'ref: must be at least 12 characters'],
    ['a tag ref', 'import', { url: '/tmp/x', ref: 'refs/tags/v1.0.0' }, 'ref: must be a branch, as refs/heads/<branch>'],
    ['a bad branch name', 'import', { url: '/tmp/x', ref: 'refs/heads/a..b' }, 'ref: must be refs/heads/<branch> with a valid branch name'],
    [
      'a branch with a space',
      'export',
      { url: '/tmp/x', ref: 'refs/heads/my branch', commitMessage: 'x' },
      'ref: must be refs/heads/<branch> with a valid branch name'
    ],
    [
      'an ssh URL',
      'import',
      { url: 'git@github.com:acme/docs.git', ref: 'refs/heads/main' },
      'url: must be an http(s) URL, a file:// URL or an absolute path to a local repository'
    ],
    [
      'a relative path',
      'import',
      { url: 'docs', ref: 'refs/heads/main' },
      'url: must be an http(s) URL, a file:// URL or an absolute path to a local repository'
    ],
    [
      'a project folder outside',
      'import',
      { url: '/tmp/x', ref: 'refs/heads/main', repoProjectDirectory: '../etc' },
      'repoProjectDirectory: must stay inside the repository'
    ],
    [
      'a bad timestamp',
      'import',
      { url: '/tmp/x', ref: 'refs/heads/main', timestamp: 'yesterday' },
      'timestamp: must be a valid date-time'
    ],
    [
      'a non-boolean force',
      'export',
      { url: '/tmp/x', ref: 'refs/heads/main', commitMessage: 'x', force: 'yes' },
      'force: must be boolean'
    ],
    [
      'a long url',
      'import',
      { url: `https://example.com/${'a'.repeat(2048)}`, ref: 'refs/heads/main' },
      'url: must be at most 2048 characters'
    ]
  ]

  it.each(cases)('400 for %s, naming the field, recording nothing', async (_name, operation, body, message) => {
    const res = await t.owner.api.post(operation === 'import' ? importPath() : exportPath(), body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 400, message } })
    expect((await t.owner.api.get(infoPath())).status).toBe(404)
  })

  it('never repeats a URL holding credentials in an error', async () => {
    const res = await t.owner.api.post(importPath(), { url: 'ftp://bob:hunter2-secret@example.com/docs.git', ref: 'refs/heads/main' })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).not.toContain('hunter2')
  })

  it('ignores unknown body fields', async () => {
    const res = await t.owner.api.post(importPath(), { url: repo, ref: 'refs/heads/main', somethingElse: 1 })
    expect(res.status).toBe(204)
    expect((await waitForSync(t.owner.api, spaceId)).status).toBe('succeeded')
  })
})

describe('git sync across restarts', { timeout: 60_000 }, () => {
  it('fails, at the next start, an operation the stopped app left unfinished', async () => {
    const dataDir = tempDir('quire-data-')
    const token = newToken()
    const call = (url: string, method: string, path: string, body?: unknown) =>
      fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body)
      })
    let server = await startServer({ dataDir, port: 0, token })
    const orgId = server.api.services.db.prepare('SELECT id FROM organizations LIMIT 1').pluck().get()
    const space: any = await (await call(server.url, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Docs', empty: true })).json()
    expect((await call(server.url, 'POST', `/v1/spaces/${space.id}/git/import`, { url: repo, ref: 'refs/heads/main' })).status).toBe(204)
    await server.close() // waits for the running import
    // As if the process had died mid-sync: the row still says running.
    server = await startServer({ dataDir, port: 0, token })
    server.api.services.db.prepare("UPDATE git_sync_states SET status = 'running'").run()
    await server.close()
    server = await startServer({ dataDir, port: 0, token })
    const info = await (await call(server.url, 'GET', `/v1/spaces/${space.id}/git/info`)).json()
    expect(info).toMatchObject({ status: 'failed', error: 'interrupted: the app stopped before the sync finished' })
    await server.close()
  })
})
