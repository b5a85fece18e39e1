import { pathToFileURL } from 'node:url'
import git from 'isomorphic-git'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadPages } from '../../../content/revisions'
import { bareRepo, removeTempDirs, commitOf, commitTree, headOf, readTexts, workingRepo } from '../../../git/testing/repos'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { DOCS_REPO, DOCS_TREE, editThroughChangeRequest, findPage, newSpace, outlineOf, pagesOf, shapeOf, sync } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(async () => {
  await t.close()
  removeTempDirs()
})

const blobOid = async (text: string) => (await git.hashBlob({ object: text })).oid

describe('git import', { timeout: 60_000 }, () => {
  it("imports a working repository: the SUMMARY tree, the files' text, git {oid, path}, a new primary revision", async () => {
    const dir = await workingRepo(DOCS_REPO)
    const spaceId = await newSpace(t)
    const before = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision

    const info = await sync(t.owner.api, spaceId, 'import', {
      url: dir,
      ref: 'refs/heads/main',
      repoCommitURL: 'https://example.com/commit/'
    })
    const head = await headOf(`${dir}/.git`)
    expect(info).toMatchObject({
      status: 'succeeded',
      repoName: dir.split('/').pop(),
      installationProvider: 'git',
      url: dir,
      ref: 'refs/heads/main',
      commit: head
    })
    // A one-off import by URL: the space has no Git connection, so its installation is pending.
    expect(info).toMatchObject({ installationId: spaceId, installationStatus: 'pending' })
    expect(info.operation).toEqual({ state: 'success', direction: 'import', startedAt: info.startedAt, endedAt: info.finishedAt })
    expect(info.error).toBeUndefined()

    const pages = await pagesOf(t.owner.api, spaceId)
    expect(outlineOf(pages)).toEqual(DOCS_TREE)
    for (const page of [pages[0]!, findPage(pages, 'Installing'), findPage(pages, 'On Linux'), findPage(pages, 'Questions')]) {
      const text = DOCS_REPO[`docs/${page.git!.path}`]!
      expect(page.markdown).toBe(text)
      expect(page.git!.oid).toBe(await blobOid(text))
    }
    expect(findPage(pages, 'User guide').path).toBe('guide')
    expect(findPage(pages, 'Installing').path).toBe('guide/install')
    expect(findPage(pages, 'Installing').description).toBe('Get it running')

    const space = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body
    expect(space.revision).not.toBe(before)
    expect(space.gitSync).toEqual({
      installationId: spaceId,
      installationStatus: 'active',
      repoName: info.repoName,
      installationProvider: 'git',
      url: dir,
      updatedAt: expect.any(String)
    })
    const revision = (await t.owner.api.get(`/v1/spaces/${spaceId}/content`)).body
    expect(revision).toMatchObject({ id: space.revision, parents: [before], type: 'update' })
    expect(revision.git).toMatchObject({
      oid: head,
      message: 'Initial docs',
      ref: 'refs/heads/main',
      url: `https://example.com/commit/${head}`
    })
    // The search index follows the new primary revision.
    const indexed = t.server.api.services.db.prepare('SELECT revision_id FROM search_state WHERE space_id = ?').pluck().get(spaceId)
    expect(indexed).toBe(space.revision)
  })

  it('reads the folder structure when there is no SUMMARY.md, and stores referenced images as files', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
    const repo = await bareRepo({
      'README.md': 'Start here.\n',
      'zeta.md': '# Zeta page\n',
      'alpha-notes.md': 'No heading.\n\n![diagram](.gitbook/assets/diagram.png)\n',
      'setup/README.md': '# Setup\n',
      'setup/windows.md': '# Windows\n',
      '.gitbook/assets/diagram.png': png
    })
    const spaceId = await newSpace(t)
    expect((await sync(t.owner.api, spaceId, 'import', { url: pathToFileURL(repo).href, ref: 'refs/heads/main' })).status).toBe('succeeded')
    const pages = await pagesOf(t.owner.api, spaceId)
    expect(outlineOf(pages)).toEqual([
      { title: 'Introduction', git: 'README.md', pages: [] },
      { title: 'Alpha notes', git: 'alpha-notes.md', pages: [] },
      { title: 'Setup', git: 'setup/README.md', pages: [{ title: 'Windows', git: 'setup/windows.md', pages: [] }] },
      { title: 'Zeta page', git: 'zeta.md', pages: [] }
    ])
    const files = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/files`)).body.items
    expect(files).toHaveLength(1)
    expect(files[0]).toMatchObject({
      name: 'diagram.png',
      contentType: 'image/png',
      size: png.length,
      dimensions: { width: 1, height: 1 },
      git: { path: '.gitbook/assets/diagram.png' }
    })
  })

  it('takes page settings from front matter: layout, the cover it names (stored as a file), icon, hidden, noIndex', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
    const intro =
      '---\nicon: house\ncover: ../.gitbook/assets/banner.png\ncoverY: 12\nlayout:\n  title:\n    visible: false\nnoIndex: true\n---\n\n# Intro\n'
    const repo = await bareRepo({
      'README.md': '# Home\n',
      'guide/intro.md': intro,
      'guide/secret.md': '---\nhidden: true\n---\n# Secret\n',
      '.gitbook/assets/banner.png': png,
      '.gitbook/assets/unused.png': png
    })
    const spaceId = await newSpace(t)
    expect((await sync(t.owner.api, spaceId, 'import', { url: pathToFileURL(repo).href, ref: 'refs/heads/main' })).status).toBe('succeeded')
    const pages = await pagesOf(t.owner.api, spaceId)
    // The cover is the only file: it is referenced by front matter alone, and unused assets are not imported.
    const files = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/files`)).body.items
    expect(files.map((f: any) => f.git.path)).toEqual(['.gitbook/assets/banner.png'])
    const page = findPage(pages, 'Intro')
    expect(page).toMatchObject({
      icon: 'house',
      noIndex: true,
      hidden: false,
      layout: { title: false, description: true, tableOfContents: true },
      cover: { ref: { kind: 'file', file: files[0].id }, yPos: 12 }
    })
    expect(page.markdown).toBe(intro)
    expect(findPage(pages, 'Secret')).toMatchObject({ hidden: true })
    expect(findPage(pages, 'Home')).toMatchObject({ hidden: false, noIndex: false })
  })

  it('imports reusable contents from .gitbook/includes: in every revision, pulled into change requests, exported back', async () => {
    const support = '# Support notice\n\nWrite to help@example.com.\n'
    const repo = await bareRepo({
      'README.md': '# Home\n',
      '.gitbook/includes/support.md': support,
      '.gitbook/includes/beta-warning.md': 'In beta.\n'
    })
    const url = pathToFileURL(repo).href
    const spaceId = await newSpace(t)
    expect((await sync(t.owner.api, spaceId, 'import', { url, ref: 'refs/heads/main' })).status).toBe('succeeded')
    const content = async (path = '') => (await t.owner.api.get(`/v1/spaces/${spaceId}${path}/content`)).body
    const first = (await content()).reusableContents
    // Titled as pages are (heading, else the file name), by title; the markdown as stored, the blob they came from.
    expect(first).toEqual([
      {
        id: expect.any(String),
        title: 'Beta warning',
        markdown: 'In beta.\n',
        path: '.gitbook/includes/beta-warning.md',
        git: { oid: await blobOid('In beta.\n'), path: '.gitbook/includes/beta-warning.md' }
      },
      {
        id: expect.any(String),
        title: 'Support notice',
        markdown: support,
        path: '.gitbook/includes/support.md',
        git: { oid: await blobOid(support), path: '.gitbook/includes/support.md' }
      }
    ])
    // They are not pages.
    expect(outlineOf(await pagesOf(t.owner.api, spaceId))).toEqual([{ title: 'Home', git: 'README.md', pages: [] }])
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/content`, { metadata: false })).body.reusableContents[0].git).toBeUndefined()

    // A change request opened now keeps that version until it pulls the primary content in.
    const cr = (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' })).body
    const edited = '# Support notice\n\nWrite to support@example.com.\n'
    await commitTree(repo, { 'README.md': '# Home\n', '.gitbook/includes/support.md': edited })
    expect((await sync(t.owner.api, spaceId, 'import', { url, ref: 'refs/heads/main' })).status).toBe('succeeded')
    const second = (await content()).reusableContents
    // Matched by path: the same id, the new text; the removed file's content is gone.
    expect(second).toEqual([
      expect.objectContaining({
        id: first[1].id,
        title: 'Support notice',
        git: { oid: await blobOid(edited), path: '.gitbook/includes/support.md' }
      })
    ])
    expect((await content(`/change-requests/${cr.id}`)).reusableContents).toHaveLength(2)
    expect((await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/update`)).body.result).toBe('update')
    expect((await content(`/change-requests/${cr.id}`)).reusableContents).toEqual(second)

    // A merge and a duplicate of the space keep them; an export to another repository writes them back.
    await editThroughChangeRequest(t.owner.api, spaceId, [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'Text.\n' } }])
    expect((await content()).reusableContents).toEqual(second)
    const copy = await t.owner.api.post(`/v1/spaces/${spaceId}/duplicate`)
    expect(copy.status).toBe(201)
    const copied = (await t.owner.api.get(`/v1/spaces/${copy.body.id}/content`)).body.reusableContents
    expect(copied.map((c: any) => [c.id, c.title])).toEqual([[first[1].id, 'Support notice']])
    const target = await bareRepo({ LICENSE: 'MIT\n' })
    expect(
      (await sync(t.owner.api, spaceId, 'export', { url: pathToFileURL(target).href, ref: 'refs/heads/main', commitMessage: 'Docs' }))
        .status
    ).toBe('succeeded')
    expect((await readTexts(target))['.gitbook/includes/support.md']).toBe(edited)

    // One made in the app (a Git path, no oid yet) is not removed by the next import for being absent from the repository.
    await editThroughChangeRequest(t.owner.api, spaceId, [
      { operation: 'insert_reusable_content', title: 'App note', document: { markdown: 'Made here.\n' } }
    ])
    expect((await sync(t.owner.api, spaceId, 'import', { url, ref: 'refs/heads/main' })).status).toBe('succeeded')
    expect((await content()).reusableContents.map((c: any) => [c.title, c.path, c.git])).toEqual([
      ['App note', '.gitbook/includes/app-note.md', undefined],
      ['Support notice', '.gitbook/includes/support.md', { oid: await blobOid(edited), path: '.gitbook/includes/support.md' }]
    ])
  })

  it('re-imports in place: matched pages keep their ids, changed text is updated, removed files go', async () => {
    const repo = await bareRepo({
      'README.md': '# Home\n',
      'SUMMARY.md': '* [Home](README.md)\n* [A](a.md)\n* [B](b.md)\n',
      'a.md': 'a1\n',
      'b.md': 'b1\n'
    })
    const spaceId = await newSpace(t)
    await sync(t.owner.api, spaceId, 'import', { url: repo, ref: 'refs/heads/main' })
    const first = await pagesOf(t.owner.api, spaceId)
    await commitTree(repo, { 'README.md': '# Home\n', 'SUMMARY.md': '* [Home](README.md)\n* [A again](a.md)\n', 'a.md': 'a2\n' })
    await sync(t.owner.api, spaceId, 'import', { url: repo, ref: 'refs/heads/main' })
    const second = await pagesOf(t.owner.api, spaceId)
    expect(second.map((p) => [p.id, p.title, p.markdown])).toEqual([
      [first[0]!.id, 'Home', '# Home\n'],
      [first[1]!.id, 'A again', 'a2\n']
    ])
  })

  it('imports a project folder of a monorepo, and `standalone` leaves the primary content alone', async () => {
    const repo = await bareRepo({
      'README.md': '# Repo root\n',
      'packages/docs/README.md': '# Package docs\n',
      'packages/docs/more.md': '# More\n'
    })
    const spaceId = await newSpace(t)
    const primary = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision
    const info = await sync(t.owner.api, spaceId, 'import', {
      url: repo,
      ref: 'refs/heads/main',
      repoProjectDirectory: '/packages/docs/',
      standalone: true
    })
    expect(info.status).toBe('succeeded')
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(primary)
    expect(await pagesOf(t.owner.api, spaceId)).toEqual([])
    const db = t.server.api.services.db
    const row = db.prepare('SELECT parents, type FROM revisions WHERE id = ?').get(info.revision) as { parents: string; type: string }
    expect(JSON.parse(row.parents)).toEqual([primary])
    const titles = [...loadPages(db, info.revision)].sort((a, b) => a.position - b.position).map((p) => p.title)
    expect(titles).toEqual(['Package docs', 'More'])

    const merged = await sync(t.owner.api, spaceId, 'import', { url: repo, ref: 'refs/heads/main', repoProjectDirectory: 'packages/docs' })
    expect(merged.revision).not.toBe(info.revision)
    expect((await pagesOf(t.owner.api, spaceId)).map((p) => p.git?.path)).toEqual(['README.md', 'more.md'])
  })

  it('records a failure (unknown branch, missing repository) without changing the content', async () => {
    const repo = await bareRepo(DOCS_REPO)
    const spaceId = await newSpace(t)
    const revision = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision
    const missingBranch = await sync(t.owner.api, spaceId, 'import', { url: repo, ref: 'refs/heads/nope' })
    expect(missingBranch).toMatchObject({ status: 'failed', error: 'ref: the branch refs/heads/nope does not exist in the repository' })
    const missingRepo = await sync(t.owner.api, spaceId, 'import', { url: `${repo}-gone`, ref: 'refs/heads/main' })
    expect(missingRepo).toMatchObject({ status: 'failed', error: 'url: no Git repository at that path' })
    expect(missingRepo.operation).toMatchObject({ state: 'failure', error: 'url: no Git repository at that path' })
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body).toMatchObject({ revision })
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.gitSync).toBeUndefined()
  })

  it('skips an event older than the last applied one (timestamp order per space)', async () => {
    const repo = await bareRepo({ 'README.md': '# One\n' })
    const spaceId = await newSpace(t)
    await sync(t.owner.api, spaceId, 'import', { url: repo, ref: 'refs/heads/main', timestamp: '2026-03-01T12:00:00Z' })
    await commitTree(repo, { 'README.md': '# Two\n' })
    const stale = await sync(t.owner.api, spaceId, 'import', { url: repo, ref: 'refs/heads/main', timestamp: '2026-03-01T11:59:59Z' })
    expect(stale.status).toBe('skipped')
    expect((await pagesOf(t.owner.api, spaceId))[0]!.markdown).toBe('# One\n')
    // Same offset-free instant written with an offset: not older, so applied.
    const fresh = await sync(t.owner.api, spaceId, 'import', { url: repo, ref: 'refs/heads/main', timestamp: '2026-03-01T14:00:00+02:00' })
    expect(fresh.status).toBe('succeeded')
    expect((await pagesOf(t.owner.api, spaceId))[0]!.markdown).toBe('# Two\n')
    // Queued one after another, the older of two waiting events is skipped after the newer applied.
    await commitTree(repo, { 'README.md': '# Three\n' })
    expect(
      (await t.owner.api.post(`/v1/spaces/${spaceId}/git/import`, { url: repo, ref: 'refs/heads/main', timestamp: '2026-03-02T00:00:00Z' }))
        .status
    ).toBe(204)
    await commitTree(repo, { 'README.md': '# Four\n' })
    const last = await sync(t.owner.api, spaceId, 'import', { url: repo, ref: 'refs/heads/main', timestamp: '2026-03-01T23:00:00Z' })
    expect(last.status).toBe('skipped')
    expect((await pagesOf(t.owner.api, spaceId))[0]!.markdown).toBe('# Three\n')
  })
})

describe('git export', { timeout: 60_000 }, () => {
  it('round-trips: import, edit through a change request, export a commit holding the edit, import it back unchanged', async () => {
    const repo = await bareRepo(DOCS_REPO)
    const url = pathToFileURL(repo).href
    const first = await headOf(repo)
    const spaceA = await newSpace(t, 'A')
    await sync(t.owner.api, spaceA, 'import', { url, ref: 'refs/heads/main' })
    const install = findPage(await pagesOf(t.owner.api, spaceA), 'Installing')
    const edited = '---\ndescription: Get it running\n---\n\n# Install\n\nRun the installer, then restart.\n'
    await editThroughChangeRequest(t.owner.api, spaceA, [{ operation: 'update_page', page: install.id, document: { markdown: edited } }])
    const pagesA = await pagesOf(t.owner.api, spaceA)

    const info = await sync(t.owner.api, spaceA, 'export', { url, ref: 'refs/heads/main', commitMessage: 'Docs: restart after install' })
    expect(info).toMatchObject({ status: 'succeeded', operation: { state: 'success', direction: 'export' } })
    const head = await headOf(repo)
    expect(head).not.toBe(first)
    expect(info.commit).toBe(head)
    const commit = await commitOf(repo, head)
    expect(commit.parent).toEqual([first])
    expect(commit.message).toBe('Docs: restart after install\n')
    expect(commit.author).toMatchObject({ name: t.owner.user.display_name, email: t.owner.user.email })
    const texts = await readTexts(repo)
    expect(texts['docs/guide/install.md']).toBe(edited)
    for (const path of ['docs/README.md', 'docs/guide/README.md', 'docs/guide/linux.md', 'docs/faq.md', '.gitbook.yaml', 'package.json']) {
      expect(texts[path]).toBe(DOCS_REPO[path])
    }

    // Exporting again with nothing changed makes no commit.
    expect((await sync(t.owner.api, spaceA, 'export', { url, ref: 'refs/heads/main', commitMessage: 'Nothing' })).status).toBe('succeeded')
    expect(await headOf(repo)).toBe(head)

    const spaceB = await newSpace(t, 'B')
    expect((await sync(t.owner.api, spaceB, 'import', { url, ref: 'refs/heads/main' })).commit).toBe(head)
    const pagesB = await pagesOf(t.owner.api, spaceB)
    expect(shapeOf(pagesB)).toEqual(shapeOf(pagesA))
    expect(findPage(pagesB, 'Installing').markdown).toBe(edited)
  })

  it('writes pages made in the app as files and SUMMARY.md (and .gitbook.yaml) into a new branch', async () => {
    const repo = await bareRepo({ LICENSE: 'MIT\n' })
    const spaceId = await newSpace(t)
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
    await editThroughChangeRequest(t.owner.api, spaceId, [
      { operation: 'insert_files', files: [{ ref: 'shot', name: 'screen shot.png', contentType: 'image/png', base64: png }] },
      { operation: 'insert_page', ref: 'home', title: 'Home', document: { markdown: 'Welcome home.\n\n![Shot](/files/shot)\n' } },
      { operation: 'insert_page', ref: 'api', title: 'API [v2]', document: { markdown: '# API\n' } },
      {
        operation: 'insert_page',
        title: 'Auth',
        into: 'api',
        document: { markdown: '---\ncover: /files/shot\n---\nTokens, see [the screen](/files/shot).\n' }
      }
    ])
    const before = await pagesOf(t.owner.api, spaceId)
    const info = await sync(t.owner.api, spaceId, 'export', { url: repo, ref: 'refs/heads/docs', commitMessage: 'First export' })
    expect(info.status, info.error).toBe('succeeded')
    expect(await headOf(repo, 'main')).toBeDefined()
    const texts = await readTexts(repo, 'refs/heads/docs')
    // Links to uploaded files point at the exported file, relative to each document, as Git shows them.
    expect(texts).toMatchObject({
      'README.md': 'Welcome home.\n\n![Shot](.gitbook/assets/screen%20shot.png)\n',
      'api-v2/README.md': '# API\n',
      'api-v2/auth.md':
        '---\ncover: ../.gitbook/assets/screen%20shot.png\n---\nTokens, see [the screen](../.gitbook/assets/screen%20shot.png).\n',
      '.gitbook.yaml': 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n'
    })
    expect(Buffer.from(texts['.gitbook/assets/screen shot.png']!, 'latin1').length).toBeGreaterThan(0)
    expect(texts['LICENSE']).toBeUndefined() // a new branch starts from nothing
    expect(texts['SUMMARY.md']).toBe(
      '# Table of contents\n\n* [Home](README.md)\n* [API \\[v2\\]](api-v2/README.md)\n  * [Auth](api-v2/auth.md)\n'
    )
    // Exporting again writes the file to the same place: nothing changed, no commit.
    const first = await headOf(repo, 'docs')
    expect((await sync(t.owner.api, spaceId, 'export', { url: repo, ref: 'refs/heads/docs', commitMessage: 'Again' })).status).toBe(
      'succeeded'
    )
    expect(await headOf(repo, 'docs')).toBe(first)

    // Imported back: the same pages, their links resolving to the imported file, the cover too.
    const back = await newSpace(t, 'Back')
    await sync(t.owner.api, back, 'import', { url: repo, ref: 'refs/heads/docs' })
    const pages = await pagesOf(t.owner.api, back)
    expect(before.map((p) => [p.title, p.pages.map((c) => c.title)])).toEqual([
      ['Home', []],
      ['API [v2]', ['Auth']]
    ])
    expect(pages.map((p) => [p.title, p.markdown, p.pages.map((c) => [c.title, c.markdown])])).toEqual([
      ['Home', texts['README.md'], []],
      ['API [v2]', texts['api-v2/README.md'], [['Auth', texts['api-v2/auth.md']]]]
    ])
    const links = (await t.owner.api.get(`/v1/spaces/${back}/links`)).body
    expect(links.stats.broken.total).toBe(0)
    expect(links.items.map((l: any) => l.targetReference.kind)).toEqual(['file', 'file'])
    const [file] = (await t.owner.api.get(`/v1/spaces/${back}/content/files`)).body.items
    expect(findPage(pages, 'Auth').cover).toEqual({ ref: { kind: 'file', file: file.id }, yPos: 0 })
  })

  it('writes pages with slugs beyond ASCII under their letters, links to them percent-encoded, and reads them back', async () => {
    const repo = await bareRepo({ LICENSE: 'MIT\n' })
    const spaceId = await newSpace(t)
    await editThroughChangeRequest(t.owner.api, spaceId, [
      { operation: 'insert_page', ref: 'home', title: 'Home', document: { markdown: 'Welcome.\n' } },
      { operation: 'insert_page', ref: 'doc', title: 'Größe 文档', document: { markdown: '这是一个文档系统。\n' } },
      { operation: 'insert_page', title: 'Привет', into: 'doc', document: { markdown: 'Текст.\n' } }
    ])
    const info = await sync(t.owner.api, spaceId, 'export', { url: repo, ref: 'refs/heads/docs', commitMessage: 'Export' })
    expect(info.status, info.error).toBe('succeeded')
    const texts = await readTexts(repo, 'refs/heads/docs')
    expect(texts).toMatchObject({ 'größe-文档/README.md': '这是一个文档系统。\n', 'größe-文档/привет.md': 'Текст.\n' })
    expect(texts['SUMMARY.md']).toContain(`* [Größe 文档](${encodeURI('größe-文档')}/README.md)`)

    const back = await newSpace(t, 'Back')
    await sync(t.owner.api, back, 'import', { url: repo, ref: 'refs/heads/docs' })
    const pages = (await t.owner.api.get(`/v1/spaces/${back}/content`)).body.pages
    expect(pages.map((p: any) => [p.title, p.path, p.pages.map((c: any) => c.path)])).toEqual([
      ['Home', 'home', []],
      ['Größe 文档', 'größe-文档', ['größe-文档/привет']]
    ])
  })

  it('removes the files of deleted pages and refuses a non-fast-forward unless forced', async () => {
    const repo = await bareRepo(DOCS_REPO)
    const spaceId = await newSpace(t)
    await sync(t.owner.api, spaceId, 'import', { url: repo, ref: 'refs/heads/main' })
    const faq = findPage(await pagesOf(t.owner.api, spaceId), 'Questions')
    await editThroughChangeRequest(t.owner.api, spaceId, [{ operation: 'delete_page', page: faq.id }])

    // Someone pushes to the branch after the import: exporting over it would drop their change.
    const theirs = await commitTree(repo, { ...DOCS_REPO, 'docs/guide/linux.md': '# Linux\n\nTheir edit.\n' }, { message: 'Direct edit' })
    const refused = await sync(t.owner.api, spaceId, 'export', { url: repo, ref: 'refs/heads/main', commitMessage: 'Remove FAQ' })
    expect(refused.status).toBe('failed')
    expect(refused.error).toMatch(/^non-fast-forward/)
    expect(await headOf(repo)).toBe(theirs)

    const forced = await sync(t.owner.api, spaceId, 'export', {
      url: repo,
      ref: 'refs/heads/main',
      commitMessage: 'Remove FAQ',
      force: true
    })
    expect(forced.status).toBe('succeeded')
    const head = await headOf(repo)
    expect((await commitOf(repo, head)).parent).toEqual([theirs])
    const texts = await readTexts(repo)
    expect(texts['docs/faq.md']).toBeUndefined()
    expect(texts['docs/SUMMARY.md']).not.toContain('faq.md')
    expect(texts['docs/guide/linux.md']).toBe(DOCS_REPO['docs/guide/linux.md'])
    expect(texts['package.json']).toBe(DOCS_REPO['package.json'])
  })

  it('refuses to move the branch a working tree has checked out', async () => {
    const dir = await workingRepo(DOCS_REPO)
    const spaceId = await newSpace(t)
    await sync(t.owner.api, spaceId, 'import', { url: dir, ref: 'refs/heads/main' })
    const head = await headOf(`${dir}/.git`)
    await editThroughChangeRequest(t.owner.api, spaceId, [{ operation: 'insert_page', title: 'New', document: { markdown: 'x\n' } }])
    const info = await sync(t.owner.api, spaceId, 'export', { url: dir, ref: 'refs/heads/main', commitMessage: 'x' })
    expect(info).toMatchObject({ status: 'failed', error: expect.stringContaining('checked out') })
    expect(await headOf(`${dir}/.git`)).toBe(head)
    // Another branch of the same repository is fine: a new branch starts from nothing, in the default layout.
    expect((await sync(t.owner.api, spaceId, 'export', { url: dir, ref: 'refs/heads/quire', commitMessage: 'x' })).status).toBe('succeeded')
    expect(await readTexts(`${dir}/.git`, 'refs/heads/quire')).toMatchObject({
      'new.md': 'x\n',
      'guide/install.md': DOCS_REPO['docs/guide/install.md']
    })
  })
})
