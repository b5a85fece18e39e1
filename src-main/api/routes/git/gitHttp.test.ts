// Git sync over http against a real smart-HTTP server on loopback (made in-process with isomorphic-git), with
// basic-auth credentials in the URL that must reach the server and appear nowhere else.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cacheRoot } from '../../../git/repoAccess'
import { bareRepo, removeTempDirs, commitOf, headOf, readTexts } from '../../../git/testing/repos'
import { startSmartHttpServer, type SmartHttpServer } from '../../../git/testing/smartHttpServer'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { DOCS_REPO, DOCS_TREE, editThroughChangeRequest, findPage, newSpace, outlineOf, pagesOf, shapeOf, sync } from './fixtures'

const USER = 'docs-bot'
const PASSWORD = 'pa55-Zq9xW-secret'

let t: TestServer
let git: SmartHttpServer
let repo: string
beforeEach(async () => {
  t = await startTestServer()
  repo = await bareRepo(DOCS_REPO)
  git = await startSmartHttpServer({ repos: { 'docs.git': repo }, auth: { username: USER, password: PASSWORD } })
})
afterEach(async () => {
  await t.close()
  await git.close()
  removeTempDirs()
})

const withCredentials = () => git.url.replace('http://', `http://${USER}:${PASSWORD}@`) + '/docs.git'

/** Every text the workspace keeps about Git: the sync state, spaces' gitSync, revisions' git, the cache files. */
function storedText(): string {
  const db = t.server.api.services.db
  const rows = [
    ...db.prepare('SELECT * FROM git_sync_states').all(),
    ...db.prepare('SELECT git_sync FROM spaces').all(),
    ...db.prepare('SELECT git FROM revisions').all(),
    ...db.prepare('SELECT props FROM revision_pages').all()
  ]
  const root = cacheRoot(t.server.api.services)
  const cacheFiles = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.parentPath.includes('objects'))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
  return JSON.stringify(rows) + cacheFiles.join('\n')
}

describe('git sync over http', { timeout: 60_000 }, () => {
  it('imports and exports with basic auth from the URL; the credentials reach the server and are kept nowhere', async () => {
    const spaceId = await newSpace(t)
    const info = await sync(t.owner.api, spaceId, 'import', { url: withCredentials(), ref: 'refs/heads/main' })
    expect(info).toMatchObject({
      status: 'succeeded',
      url: `${git.url}/docs.git`,
      repoName: 'docs',
      installationProvider: 'git',
      commit: await headOf(repo)
    })
    const pages = await pagesOf(t.owner.api, spaceId)
    expect(outlineOf(pages)).toEqual(DOCS_TREE)
    expect(findPage(pages, 'On Linux').markdown).toBe(DOCS_REPO['docs/guide/linux.md'])
    const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`
    expect(git.requests.some((r) => r.path === '/docs.git/git-upload-pack' && r.authorization === basic)).toBe(true)

    const faq = findPage(pages, 'Questions')
    await editThroughChangeRequest(t.owner.api, spaceId, [
      { operation: 'update_page', page: faq.id, document: { markdown: '# FAQ\n\n* Is it free? Yes, forever.\n' } }
    ])
    const before = await headOf(repo)
    const exported = await sync(t.owner.api, spaceId, 'export', {
      url: withCredentials(),
      ref: 'refs/heads/main',
      commitMessage: 'Update FAQ'
    })
    expect(exported.status, exported.error).toBe('succeeded')
    const head = await headOf(repo)
    expect(exported.commit).toBe(head)
    expect((await commitOf(repo, head)).parent).toEqual([before])
    expect((await readTexts(repo))['docs/faq.md']).toBe('# FAQ\n\n* Is it free? Yes, forever.\n')
    expect(git.requests.some((r) => r.path === '/docs.git/git-receive-pack' && r.authorization === basic)).toBe(true)

    // The exported commit imports back unchanged, over http too.
    const other = await newSpace(t, 'Other')
    await sync(t.owner.api, other, 'import', { url: withCredentials(), ref: 'refs/heads/main' })
    expect(shapeOf(await pagesOf(t.owner.api, other))).toEqual(shapeOf(await pagesOf(t.owner.api, spaceId)))

    const space = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body
    expect(space.gitSync).toMatchObject({ url: `${git.url}/docs.git`, repoName: 'docs', installationProvider: 'git' })
    expect(JSON.stringify(space) + JSON.stringify(exported)).not.toContain(PASSWORD)
    expect(storedText()).not.toContain(PASSWORD)
    expect(storedText()).not.toContain(USER)
  })

  it('records refused credentials and unreachable servers as failures that name no secret', async () => {
    const spaceId = await newSpace(t)
    const wrong = git.url.replace('http://', `http://${USER}:wrong-${PASSWORD}@`) + '/docs.git'
    const refused = await sync(t.owner.api, spaceId, 'import', { url: wrong, ref: 'refs/heads/main' })
    expect(refused).toMatchObject({ status: 'failed', error: 'the Git server requires credentials (401)' })
    const none = await sync(t.owner.api, spaceId, 'import', { url: `${git.url}/docs.git`, ref: 'refs/heads/main' })
    expect(none.status).toBe('failed')
    const missing = await sync(t.owner.api, spaceId, 'import', {
      url: withCredentials().replace('docs.git', 'other.git'),
      ref: 'refs/heads/main'
    })
    expect(missing).toMatchObject({ status: 'failed', error: 'the Git server answered 404' })
    const closed = await startSmartHttpServer({ repos: {} })
    await closed.close()
    const unreachable = await sync(t.owner.api, spaceId, 'import', {
      url: closed.url.replace('http://', `http://${USER}:${PASSWORD}@`) + '/docs.git',
      ref: 'refs/heads/main'
    })
    expect(unreachable).toMatchObject({ status: 'failed', error: 'could not reach the Git server (ECONNREFUSED)' })
    expect(await pagesOf(t.owner.api, spaceId)).toEqual([])
    expect(JSON.stringify([refused, none, missing, unreachable])).not.toContain(PASSWORD)
    expect(storedText()).not.toContain(PASSWORD)
  })

  it('shows the request at once, with the provider hint and without credentials', async () => {
    const spaceId = await newSpace(t)
    const closed = await startSmartHttpServer({ repos: {} })
    await closed.close()
    const url = `${closed.url}/acme/handbook.git`
    const res = await t.owner.api.post(`/v1/spaces/${spaceId}/git/import`, {
      url: url.replace('http://', `http://${USER}:${PASSWORD}@`),
      ref: 'refs/heads/main',
      gitInfo: { provider: 'gitlab' }
    })
    expect(res.status).toBe(204)
    const info = (await t.owner.api.get(`/v1/spaces/${spaceId}/git/info`)).body
    expect(info).toMatchObject({ repoName: 'acme/handbook', installationProvider: 'gitlab', url, operation: { direction: 'import' } })
    expect(['pending', 'running', 'failed']).toContain(info.status)
    expect(JSON.stringify(info)).not.toContain(PASSWORD)
  })
})
