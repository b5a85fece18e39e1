import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { buildSearchQuery, searchSpace } from '../../../content/search'
import { applyBatch, createSpace, flattenPages, makePng, openChangeRequest, seedContent } from '../files/fixtures'
import { makeDocx, serveSite, unreachableUrl, type Site } from './fixtures'

let t: TestServer
let spaceId: string
let site: Site

const html = (title: string, body: string, nav = '') =>
  `<!doctype html><html><head><title>${title} | Acme Docs</title><style>p{}</style></head><body><nav>${nav}</nav><main>${body}</main><footer>© Acme</footer><script>alert(1)</script></body></html>`
const NAV = '<a href="/">Home</a> <a href="/guide">Guide</a> <a href="/guide/install">Install</a>'

beforeEach(async () => {
  t = await startTestServer()
  spaceId = await createSpace(t)
  site = await serveSite({
    '/': {
      body: html(
        'Welcome',
        '<h1>Welcome</h1><p>Acme helps you <strong>ship</strong> docs: <a href="guide">start here</a>.</p><p><a href="/missing">Old page</a> <a href="mailto:a@b.c">Mail</a> <a href="/logo.png">Logo</a> <a href="https://example.invalid/x">Elsewhere</a></p>',
        NAV
      )
    },
    '/guide': {
      body: html(
        'Guide',
        '<h1>Guide</h1><p>Read the <a href="guide/install#steps">install steps</a>.</p><table><tr><th>Plan</th><th>Seats</th></tr><tr><td>Free</td><td>3</td></tr></table>',
        NAV
      )
    },
    '/guide/install': {
      body: html('Install', '<h1>Install</h1><p>Run this:</p><pre><code class="language-sh">npm install acme</code></pre>', NAV)
    },
    '/logo.png': { body: Buffer.from([0x89, 0x50]), type: 'image/png' },
    '/readme.md': { body: '---\ntitle: Read me first\n---\n\nSome *markdown* text.\n', type: 'text/markdown; charset=utf-8' },
    '/report.docx': {
      body: makeDocx('Quarterly report', ['Revenue grew & costs fell.']),
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
    },
    '/image': { body: Buffer.from([0x89, 0x50, 0x4e, 0x47]), type: 'image/png' },
    '/broken': { body: 'oops', status: 500, type: 'text/plain' },
    '/moved': { body: '', redirect: '/guide' }
  })
})
afterEach(async () => {
  await t.close()
  await site.close()
})

const importPath = (cr?: string) =>
  cr ? `/v1/spaces/${spaceId}/change-requests/${cr}/content/import` : `/v1/spaces/${spaceId}/content/import`
const revisionOf = async () => (await t.owner.api.get(`/v1/spaces/${spaceId}/content`)).body.id as string
const pagesOf = async (path = `/v1/spaces/${spaceId}`) => flattenPages((await t.owner.api.get(`${path}/content/pages`)).body.pages as any[])
const markdownOf = async (pageId: string, path = `/v1/spaces/${spaceId}`) =>
  (await t.owner.api.get(`${path}/content/page/${pageId}`)).body.markdown as string

describe('content import: validation and authorization', () => {
  it('checks the body', async () => {
    const post = (body: unknown) => t.owner.api.post(importPath(), body)
    expect((await post({ source: 'website' })).body.error.message).toBe('url: is required')
    expect((await post({ url: site.url })).body.error.message).toBe('source: is required')
    expect((await post({ url: site.url, source: 'pdf' })).body.error.message).toBe('source: must be one of: website, markdown, html, docx')
    expect((await post({ url: 'not a url', source: 'html' })).body.error.message).toBe('url: must be a valid uri')
    expect((await post({ url: `${site.url}/${'x'.repeat(2048)}`, source: 'html' })).body.error.message).toBe(
      'url: must be at most 2048 characters'
    )
    const ftp = await post({ url: 'ftp://127.0.0.1/file.html', source: 'html' })
    expect(ftp.status).toBe(400)
    expect(ftp.body.error).toEqual({ code: 400, message: 'url: must be an http or https URL' })
    expect(site.requests).toEqual([])
  })

  it('answers 401, 403, 404 and 409 before fetching anything', async () => {
    const body = { url: site.url, source: 'website' }
    expect((await t.anonymous.post(importPath(), body)).status).toBe(401)
    const reader = await t.user({ role: 'read' })
    const forbidden = await reader.api.post(importPath(), body)
    expect(forbidden.status).toBe(403)
    const stranger = await t.user({ role: 'none' })
    expect((await stranger.api.post(importPath(), body)).status).toBe(404)
    expect((await t.owner.api.post(`/v1/spaces/nope/content/import`, body)).status).toBe(404)
    expect((await t.owner.api.post(importPath('99'), body)).status).toBe(404)
    const cr = await seedContent(t, spaceId, [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Hi' } }])
    expect((await t.owner.api.post(importPath(cr.id), body)).status).toBe(409)
    await t.owner.api.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' })
    const locked = await t.owner.api.post(importPath(), body)
    expect(locked.status).toBe(403)
    expect(locked.body.error.message).toMatch(/locked/)
    expect(site.requests).toEqual([])
  })

  it('answers 400 naming the url when it cannot be used, and changes nothing', async () => {
    const before = await revisionOf()
    const cr = await openChangeRequest(t.owner.api, spaceId)
    const cases: [string, string, RegExp][] = [
      [await unreachableUrl(), 'website', /^url: http:\/\/127\.0\.0\.1:\d+\/docs could not be reached \(ECONNREFUSED\)$/],
      [`${site.url}/nowhere`, 'html', /^url: .*\/nowhere answered HTTP 404/],
      [`${site.url}/broken`, 'website', /^url: .*\/broken answered HTTP 500/],
      [`${site.url}/image`, 'html', /^url: .*\/image is not an HTML page \(it is image\/png\)$/],
      [`${site.url}/guide`, 'markdown', /^url: .*\/guide is not markdown text \(it is text\/html\)$/],
      [`${site.url}/readme.md`, 'docx', /^url: .*\/readme\.md is not a Word document \(\.docx\)$/]
    ]
    for (const [url, source, message] of cases) {
      for (const path of [importPath(), importPath(cr.id)]) {
        const res = await t.owner.api.post(path, { url, source })
        expect(res.status, `${source} ${url}`).toBe(400)
        expect(res.body.error.code).toBe(400)
        expect(res.body.error.message).toMatch(message)
      }
    }
    expect(await revisionOf()).toBe(before)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.revision).toBe(cr.revision)
    expect(await pagesOf()).toEqual([])
  })
})

describe('content import', () => {
  it('imports a website served on loopback: its linked pages, nested by path, with their text', async () => {
    await seedContent(t, spaceId, [{ operation: 'insert_page', title: 'Existing', document: { markdown: 'Kept.' } }])
    const before = await revisionOf()
    const res = await t.owner.api.post(importPath(), { url: `${site.url}/`, source: 'website' })
    expect(res.status).toBe(201)
    // Three pages imported; /missing (404) was found and skipped; images, mail and other sites are not pages.
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 3, totalResources: 4 })
    expect(site.requests).not.toContain('/logo.png')

    const content = (await t.owner.api.get(`/v1/spaces/${spaceId}/content`)).body
    expect(content.id).toBe(res.body.revision)
    expect(content.parents).toEqual([before])

    const tree = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages
    expect(tree.map((p: any) => p.title)).toEqual(['Existing', 'Welcome'])
    expect(tree[1].pages.map((p: any) => p.title)).toEqual(['Guide'])
    expect(tree[1].pages[0].pages.map((p: any) => [p.title, p.path])).toEqual([['Install', 'welcome/guide/install']])

    const [, welcome, guide, install] = await pagesOf()
    const welcomeText = await markdownOf(welcome.id)
    // Links to imported pages now name them by path; a page the crawl did not import keeps its URL.
    expect(welcomeText).toContain('Acme helps you **ship** docs: [start here](/welcome/guide).')
    expect(welcomeText).not.toMatch(/Acme Docs|© Acme|alert|# Welcome/)
    expect(welcomeText).toContain(`[Old page](${site.url}/missing)`)
    const guideText = await markdownOf(guide.id)
    expect(guideText).toContain('Read the [install steps](/welcome/guide/install#steps).')
    expect(guideText).toMatch(/\| Plan +\| Seats +\|\n\| -+ \| -+ \|\n\| Free +\| 3 +\|/)
    expect(await markdownOf(install.id)).toContain('```sh\nnpm install acme\n```')

    // The search index follows the new primary revision (the search routes read these rows).
    const { db } = t.server.api.services
    expect(db.prepare('SELECT revision_id FROM search_state WHERE space_id = ?').pluck().get(spaceId)).toBe(res.body.revision)
    const found = searchSpace(db, spaceId, buildSearchQuery('acme')!, { limit: 100 }).items.map((hit) => hit.pageId)
    expect(found).toContain(install.id)
  })

  it('imports into a change request as one new revision, leaving the primary content alone', async () => {
    const primary = await revisionOf()
    const cr = await openChangeRequest(t.owner.api, spaceId)
    await applyBatch(t.owner.api, spaceId, cr.id, [{ operation: 'insert_page', title: 'Draft', document: { markdown: 'x' } }])
    const head = (await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.revision
    const editor = await t.user({ role: 'edit' })
    const res = await editor.api.post(importPath(String(cr.number)), { url: `${site.url}/guide`, source: 'html' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 1 })
    const after = (await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body
    expect(after.revision).toBe(res.body.revision)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`)).body.parents).toEqual([head])
    const crPath = `/v1/spaces/${spaceId}/change-requests/${cr.id}`
    const pages = await pagesOf(crPath)
    expect(pages.map((p) => p.title)).toEqual(['Draft', 'Guide'])
    expect(await markdownOf(pages[1].id, crPath)).toContain('| Free')
    // html imports one page: its links are not followed.
    expect(site.requests).toEqual(['/guide'])
    expect(await revisionOf()).toBe(primary)
    const contributors = await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests`, { status: 'draft', contributor: editor.user.id })
    expect(contributors.body.items.map((c: any) => c.id)).toEqual([cr.id])
  })

  it('imports into a new change request in one request, and opens none when the import fails', async () => {
    const crs = async () => (await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests`, { status: 'draft' })).body.count as number
    const primary = await revisionOf()
    const failed = await t.owner.api.post(importPath(), { url: `${site.url}/broken`, source: 'html', changeRequest: { subject: 'Import' } })
    expect(failed.status).toBe(400)
    expect(await crs()).toBe(0)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.changeRequests).toBe(0)

    const res = await t.owner.api.post(importPath(), {
      url: `${site.url}/guide`,
      source: 'html',
      changeRequest: { subject: 'Import the guide' }
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      revision: expect.any(String),
      importedResources: 1,
      totalResources: 1,
      changeRequest: expect.objectContaining({ subject: 'Import the guide', status: 'draft', number: 1, revision: res.body.revision })
    })
    const pages = await pagesOf(`/v1/spaces/${spaceId}/change-requests/${res.body.changeRequest.id}`)
    expect(pages.map((p) => p.title)).toEqual(['Guide'])
    expect(await revisionOf()).toBe(primary)
    expect(await crs()).toBe(1)

    // Only the space's import opens one; the subject is held to a change request's limit.
    const cr = await openChangeRequest(t.owner.api, spaceId)
    expect(
      (await t.owner.api.post(importPath(cr.id), { url: `${site.url}/guide`, source: 'html', changeRequest: {} })).body.error.message
    ).toBe('changeRequest: only a space import opens a change request')
    expect(
      (await t.owner.api.post(importPath(), { url: site.url, source: 'html', changeRequest: { subject: 'x'.repeat(101) } })).body.error
        .message
    ).toBe('changeRequest.subject: must be at most 100 characters')
  })

  it('imports markdown with its front matter title, and a Word document', async () => {
    const md = await t.owner.api.post(importPath(), { url: `${site.url}/readme.md`, source: 'markdown' })
    expect(md.status).toBe(201)
    expect(md.body).toMatchObject({ importedResources: 1, totalResources: 1 })
    const docx = await t.owner.api.post(importPath(), { url: `${site.url}/report.docx`, source: 'docx' })
    expect(docx.status).toBe(201)
    const [readme, report] = await pagesOf()
    expect(readme.title).toBe('Read me first')
    expect(await markdownOf(readme.id)).toBe('---\ntitle: Read me first\n---\n\nSome *markdown* text.\n')
    expect(report.title).toBe('Quarterly report')
    expect(await markdownOf(report.id)).toBe('Revenue grew & costs fell.\n')
  })

  it('follows redirects and imports a page reached twice once', async () => {
    const res = await t.owner.api.post(importPath(), { url: `${site.url}/moved`, source: 'website' })
    expect(res.status).toBe(201)
    // /moved lands on /guide; from there / and /guide/install are linked (depth 1), /missing at depth 2.
    expect(res.body).toMatchObject({ importedResources: 3, totalResources: 4 })
    const titles = (await pagesOf()).map((p) => p.title)
    expect(titles.sort()).toEqual(['Guide', 'Install', 'Welcome'])
  })
})

describe('content import: website bounds', () => {
  it('stops at 50 pages and 3 links deep, and counts what it left', async () => {
    const routes: Record<string, { body: string }> = {}
    // A hub linking to 60 pages, and a chain /c1 -> /c2 -> ... deeper than the bound.
    routes['/'] = { body: html('Hub', `<h1>Hub</h1>${Array.from({ length: 60 }, (_, i) => `<a href="/p${i}">P${i}</a>`).join(' ')}`) }
    for (let i = 0; i < 60; i++) routes[`/p${i}`] = { body: html(`P${i}`, `<h1>P${i}</h1><p>Page ${i}</p>`) }
    routes['/c0'] = { body: html('C0', '<h1>C0</h1><a href="/c1">next</a>') }
    for (let i = 1; i < 6; i++) routes[`/c${i}`] = { body: html(`C${i}`, `<h1>C${i}</h1><a href="/c${i + 1}">next</a>`) }
    const big = await serveSite(routes)
    try {
      const wide = await t.owner.api.post(importPath(), { url: big.url, source: 'website' })
      expect(wide.status).toBe(201)
      expect(wide.body).toMatchObject({ importedResources: 50, totalResources: 61 })
      expect(await pagesOf()).toHaveLength(50)

      const deep = await t.owner.api.post(importPath(), { url: `${big.url}/c0`, source: 'website' })
      expect(deep.body).toMatchObject({ importedResources: 4, totalResources: 4 })
      expect(big.requests).not.toContain('/c4')
    } finally {
      await big.close()
    }
  })
})

describe('content import: links and images', () => {
  const linksOf = async () => (await t.owner.api.get(`/v1/spaces/${spaceId}/links`, { limit: 1000 })).body.items as any[]
  const filesOf = async (path = `/v1/spaces/${spaceId}`) => (await t.owner.api.get(`${path}/content/files`)).body.items as any[]

  it('turns links between imported pages into links to the new pages, and leaves the rest as written', async () => {
    const fenced = '<pre><code>curl [intro](SITE/docs/intro) SITE/docs/intro</code></pre>'
    // A chain /docs/ -> a -> b -> c -> d: d is one link deeper than the crawl goes.
    const routes: Record<string, { body: string }> = {
      '/docs/': {
        body: html(
          'Docs',
          `<h1>Docs</h1><p><a href="intro#setup">Set up</a>, <a href="/docs/a/">A</a>, <a href="/gone">Gone</a>.</p>${fenced}`
        )
      },
      '/docs/intro': { body: html('Intro', '<h1>Intro</h1><p>Back <a href="index.html">home</a>, on to <a href="a?">A</a>.</p>') },
      '/docs/a/': { body: html('A', '<h1>A</h1><a href="/docs/b">B</a>') },
      '/docs/b': { body: html('B', '<h1>B</h1><a href="/docs/c">C</a>') },
      '/docs/c': { body: html('C', '<h1>C</h1><p><a href="/docs/d">D</a> and <a href="/docs/b#top">B</a></p>') },
      '/docs/d': { body: html('D', '<h1>D</h1>') }
    }
    const docs = await serveSite(routes)
    try {
      routes['/docs/']!.body = routes['/docs/']!.body.replaceAll('SITE', docs.url)
      const res = await t.owner.api.post(importPath(), { url: `${docs.url}/docs/`, source: 'website' })
      expect(res.status).toBe(201)
      // /gone (a 404) was found and skipped; /docs/d, linked from the last level, was never looked at.
      expect(res.body).toMatchObject({ importedResources: 5, totalResources: 6 })
      expect(docs.requests).not.toContain('/docs/d')

      const pages = await pagesOf()
      const byTitle = Object.fromEntries(pages.map((p) => [p.title, p]))
      expect(pages.map((p) => [p.title, p.path])).toEqual([
        ['Docs', 'docs'],
        ['Intro', 'docs/intro'],
        ['A', 'docs/a'],
        ['B', 'docs/b'],
        ['C', 'docs/c']
      ])
      const home = await markdownOf(byTitle.Docs.id)
      expect(home).toContain('[Set up](/docs/intro#setup), [A](/docs/a), [Gone](' + docs.url + '/gone).')
      // Code is not a link: the URL in the fenced block is as the site wrote it.
      expect(home).toContain('```\ncurl [intro](' + docs.url + '/docs/intro) ' + docs.url + '/docs/intro\n```')
      expect(await markdownOf(byTitle.Intro.id)).toContain('Back [home](/docs), on to [A](/docs/a).')
      // A page of the site beyond the depth bound was not imported: its link still goes to the site.
      expect(await markdownOf(byTitle.C.id)).toContain(`[D](${docs.url}/docs/d) and [B](/docs/b#top)`)

      const links = await linksOf()
      const setup = links.find((l) => l.href === '/docs/intro#setup')
      expect(setup).toMatchObject({ status: 'ok', relation: 'link', targetReference: { kind: 'page', page: byTitle.Intro.id } })
      expect(setup.locationReferences).toEqual([expect.objectContaining({ kind: 'page', page: byTitle.Docs.id, space: spaceId })])
      const homeLink = links.find((l) => l.href === '/docs')
      expect(homeLink).toMatchObject({ status: 'ok', targetReference: { kind: 'page', page: byTitle.Docs.id } })
      const beyond = links.find((l) => l.href === `${docs.url}/docs/d`)
      expect(beyond).toMatchObject({ status: 'ok', targetReference: { kind: 'url', url: `${docs.url}/docs/d` } })
      expect(links.filter((l) => l.status === 'broken')).toEqual([])
      expect(
        links
          .filter((l) => l.href.includes(docs.url))
          .map((l) => l.href)
          .sort()
      ).toEqual([`${docs.url}/docs/d`, `${docs.url}/gone`])
    } finally {
      await docs.close()
    }
  })

  it('downloads the images of the pages as files of the revision, each URL once, and keeps a broken one', async () => {
    const logo = makePng(3, 2)
    const photo = makePng(5, 4)
    const cdn = await serveSite({ '/photo': { body: photo, type: 'image/png' } })
    const routes = {
      '/': {
        body: html(
          'Home',
          '<h1>Home</h1><p><img src="/img/logo.png" alt="Logo"> <img src="img/missing.png" alt="Gone"> ' +
            `<img src="/img/fake.png" alt="Fake"></p><p><img src="${cdn.url}/photo" alt="Photo"> <a href="/second">Second</a></p>`
        )
      },
      '/second': {
        body: html(
          'Second',
          '<h1>Second</h1><p>Again: <img src="/img/logo.png" alt="Logo again"></p><pre><code>![x](/img/logo.png)</code></pre>'
        )
      },
      '/img/logo.png': { body: logo, type: 'image/png' },
      '/img/fake.png': { body: '<h1>Not an image</h1>', type: 'text/html' }
    }
    const images = await serveSite(routes)
    try {
      const res = await t.owner.api.post(importPath(), { url: images.url, source: 'website' })
      expect(res.status).toBe(201)
      // Images are not resources of the import: two pages found, two imported.
      expect(res.body).toMatchObject({ importedResources: 2, totalResources: 2 })
      expect(images.requests.filter((r) => r === '/img/logo.png')).toHaveLength(1)

      const files = await filesOf()
      expect(files.map((f) => [f.name, f.contentType, f.size, f.dimensions])).toEqual([
        ['logo.png', 'image/png', logo.byteLength, { width: 3, height: 2 }],
        ['photo.png', 'image/png', photo.byteLength, { width: 5, height: 4 }]
      ])
      const [logoFile, photoFile] = files
      const [home, second] = await pagesOf()
      const homeText = await markdownOf(home.id)
      expect(homeText).toContain(`![Logo](/files/${logoFile.id})`)
      expect(homeText).toContain(`![Photo](/files/${photoFile.id})`)
      // What could not be had as an image stays where it was.
      expect(homeText).toContain(`![Gone](${images.url}/img/missing.png) ![Fake](${images.url}/img/fake.png)`)
      const secondText = await markdownOf(second.id)
      expect(secondText).toContain(`![Logo again](/files/${logoFile.id})`)
      expect(secondText).toContain('```\n![x](/img/logo.png)\n```')

      const imageLinks = (await linksOf()).filter((l) => l.relation === 'image' && l.href.startsWith('/files/'))
      const file = (id: string) => ({ kind: 'file', file: id, space: spaceId, organization: t.orgId })
      expect(imageLinks.map((l) => [l.status, l.targetReference])).toEqual([
        ['ok', file(logoFile.id)],
        ['ok', file(photoFile.id)],
        ['ok', file(logoFile.id)]
      ])
    } finally {
      await images.close()
      await cdn.close()
    }
  })

  it('adds the images of a page imported into a change request to the change request only', async () => {
    const cr = await openChangeRequest(t.owner.api, spaceId)
    const logo = makePng(3, 2)
    const one = await serveSite({
      '/page': { body: html('Page', '<h1>Page</h1><p><img src="logo"></p>') },
      '/logo': { body: logo, type: 'image/png' }
    })
    try {
      const res = await t.owner.api.post(importPath(cr.id), { url: `${one.url}/page`, source: 'html' })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({ importedResources: 1, totalResources: 1 })
      const crPath = `/v1/spaces/${spaceId}/change-requests/${cr.id}`
      const [file] = await filesOf(crPath)
      expect(file).toMatchObject({ name: 'logo.png', contentType: 'image/png', size: logo.byteLength })
      const [page] = await pagesOf(crPath)
      expect(await markdownOf(page.id, crPath)).toBe(`![](/files/${file.id})\n`)
      expect(await filesOf()).toEqual([])
    } finally {
      await one.close()
    }
  })
})
