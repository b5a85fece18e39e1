import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'

let t: TestServer
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace()
})
afterEach(() => t.close())

const crPath = (cr: string, rest = '') => `/v1/spaces/${spaceId}/change-requests/${cr}${rest}`
const openCr = async () => (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Links' })).body
const batch = async (cr: string, changes: unknown[]) => {
  const res = await t.owner.api.post(crPath(cr, '/content'), { changes })
  expect(res.status).toBe(200)
  return res.body
}
const insert = (title: string, markdown: string, extra: Record<string, unknown> = {}) => ({
  operation: 'insert_page',
  title,
  document: { markdown },
  ...extra
})
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64')

async function pagesByTitle(cr?: string) {
  const res = await t.owner.api.get(cr ? crPath(cr, '/content/pages') : `/v1/spaces/${spaceId}/content/pages`)
  const ids: Record<string, string> = {}
  const visit = (pages: any[]) => pages.forEach((p) => ((ids[p.title] = p.id), visit(p.pages)))
  visit(res.body.pages)
  return ids
}

/**
 * Guide (folder page) > Install, Configure; Home at the root, which links every kind of target. Merged into the
 * primary content.
 */
async function seed() {
  const cr = await openCr()
  await batch(cr.id, [
    { operation: 'insert_files', files: [{ name: 'logo.png', contentType: 'image/png', base64: PNG, ref: 'logo' }] },
    insert('Guide', 'Start with [install](./install) and [configure](configure.md).', { ref: 'guide' }),
    insert(
      'Install',
      'See [configure](./configure), [home](../home), [up](../guide/README.md) and [self](#steps).\n\n![logo](/files/logo)',
      { into: 'guide' }
    ),
    insert('Configure', 'Back to [install](/guide/install) or [missing](./missing-page).', { into: 'guide' }),
    insert(
      'Home',
      [
        '[docs](https://example.com/docs)',
        `[app](${t.url}/#/spaces/${spaceId})`,
        '[mail](mailto:team@example.com)',
        '[twice](https://example.com/docs)',
        '[gone](/pages/nopage)',
        '[lost file](/files/nofile)',
        '![diagram](diagram.png)'
      ].join('\n\n')
    )
  ])
  expect((await t.owner.api.post(crPath(cr.id, '/merge'))).body.result).toBe('merge')
  const ids = await pagesByTitle()
  const files = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/files`)).body.items
  return { ids, fileId: files[0].id as string }
}

describe('GET /v1/spaces/{spaceId}/links', () => {
  it('answers 401, 404 for unknown spaces and non-members, 400 for bad filters', async () => {
    expect((await t.anonymous.get(`/v1/spaces/${spaceId}/links`)).status).toBe(401)
    expect((await t.owner.api.get('/v1/spaces/nope/links')).status).toBe(404)
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get(`/v1/spaces/${spaceId}/links`)).status).toBe(404)
    const guest = await t.user({ role: null })
    expect((await guest.api.get(`/v1/spaces/${spaceId}/links`)).status).toBe(404)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/links`, { status: 'dead' })).body.error).toEqual({
      code: 400,
      message: 'status: must be one of: ok, broken, in-app'
    })
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/links`, { limit: 1001 })).status).toBe(400)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/links`, { page: 'zzz' })).status).toBe(400)
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.get(`/v1/spaces/${spaceId}/links`)).body).toEqual({
      items: [],
      count: 0,
      stats: { total: 0, broken: { total: 0, changeRequest: 0 } }
    })
  })

  it('resolves every link against the revision; a link to a missing page is broken and counted', async () => {
    const { ids, fileId } = await seed()
    const res = await t.owner.api.get(`/v1/spaces/${spaceId}/links`)
    expect(res.status).toBe(200)
    const summary = res.body.items.map((l: any) => [l.locationReferences[0].page, l.relation, l.href, l.status, l.targetReference])
    const page = (id: string) => ({ kind: 'page', page: id, space: spaceId, organization: t.orgId })
    // Ordered by the linking page's path (guide, guide/configure, guide/install, home), then position.
    expect(summary).toEqual([
      [ids.Guide, 'link', './install', 'ok', page(ids.Install!)],
      [ids.Guide, 'link', 'configure.md', 'ok', page(ids.Configure!)],
      [ids.Configure, 'link', '/guide/install', 'ok', page(ids.Install!)],
      [
        ids.Configure,
        'link',
        './missing-page',
        'broken',
        { kind: 'page', path: 'guide/missing-page', space: spaceId, organization: t.orgId }
      ],
      [ids.Install, 'link', './configure', 'ok', page(ids.Configure!)],
      [ids.Install, 'link', '../home', 'ok', page(ids.Home!)],
      [ids.Install, 'link', '../guide/README.md', 'ok', page(ids.Guide!)],
      [ids.Install, 'image', `/files/${fileId}`, 'ok', { kind: 'file', file: fileId, space: spaceId, organization: t.orgId }],
      [ids.Home, 'link', 'https://example.com/docs', 'ok', { kind: 'url', url: 'https://example.com/docs' }],
      [ids.Home, 'link', `${t.url}/#/spaces/${spaceId}`, 'in-app', { kind: 'url', url: `${t.url}/#/spaces/${spaceId}` }],
      [ids.Home, 'link', 'mailto:team@example.com', 'ok', { kind: 'url', url: 'mailto:team@example.com' }],
      [ids.Home, 'link', '/pages/nopage', 'broken', { kind: 'page', page: 'nopage', space: spaceId, organization: t.orgId }],
      [ids.Home, 'link', '/files/nofile', 'broken', { kind: 'file', file: 'nofile', space: spaceId, organization: t.orgId }],
      [ids.Home, 'image', 'diagram.png', 'broken', { kind: 'file', name: 'diagram.png', space: spaceId, organization: t.orgId }]
    ])
    // Where each link is: the page, in the version of the content read.
    const revision = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision
    expect(res.body.items[0].locationReferences).toEqual([
      { kind: 'page', page: ids.Guide, space: spaceId, organization: t.orgId, versionContext: { revision } }
    ])
    expect(res.body.count).toBe(14)
    expect(res.body.stats).toEqual({ total: 14, broken: { total: 4, changeRequest: 0 } })

    const broken = await t.owner.api.get(`/v1/spaces/${spaceId}/links`, { status: 'broken' })
    expect(broken.body.items.map((l: any) => l.href)).toEqual(['./missing-page', '/pages/nopage', '/files/nofile', 'diagram.png'])
    expect(broken.body.count).toBe(4)
    expect(broken.body.stats).toEqual(res.body.stats)
    const inApp = await t.owner.api.get(`/v1/spaces/${spaceId}/links`, { status: 'in-app' })
    expect(inApp.body.items.map((l: any) => l.status)).toEqual(['in-app'])
  })

  it('walks the list with a small limit, each link once', async () => {
    await seed()
    const all = (await t.owner.api.get(`/v1/spaces/${spaceId}/links`)).body.items
    const { items, pages } = await walk(t.owner.api, `/v1/spaces/${spaceId}/links`, { limit: 3 })
    expect(items).toEqual(all)
    expect(pages).toHaveLength(5)
    expect(pages.every((p) => p.count === 14)).toBe(true)
    expect(pages.at(-1).next).toBeUndefined()
    const brokenWalk = await walk(t.owner.api, `/v1/spaces/${spaceId}/links`, { limit: 1, status: 'broken' })
    expect(brokenWalk.items).toHaveLength(4)
    expect(brokenWalk.pages).toHaveLength(4)
  })

  it('follows merges: fixing a page removes its broken link', async () => {
    const { ids } = await seed()
    const cr = await openCr()
    await batch(cr.id, [insert('Missing page', 'Now it exists.', { into: ids.Guide })])
    expect((await t.owner.api.post(crPath(cr.id, '/merge'))).body.result).toBe('merge')
    const res = await t.owner.api.get(`/v1/spaces/${spaceId}/links`, { status: 'broken' })
    expect(res.body.items.map((l: any) => l.href)).toEqual(['/pages/nopage', '/files/nofile', 'diagram.png'])
    expect(res.body.stats.broken.total).toBe(3)
  })
})

describe('GET .../content/page/{pageId}/links', () => {
  it('answers 401, 404 for unknown pages, spaces and change requests', async () => {
    const { ids } = await seed()
    const path = `/v1/spaces/${spaceId}/content/page/${ids.Configure}/links`
    expect((await t.anonymous.get(path)).status).toBe(401)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/content/page/nope/links`)).body.error).toEqual({
      code: 404,
      message: 'Page not found'
    })
    expect((await t.owner.api.get(`/v1/spaces/nope/content/page/${ids.Configure}/links`)).status).toBe(404)
    expect((await t.owner.api.get(crPath('99', `/content/page/${ids.Configure}/links`))).status).toBe(404)
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get(path)).status).toBe(404)
    expect((await t.owner.api.get(path, { status: 'nope' })).body.error.message).toBe('status: must be one of: ok, broken, in-app')
    expect((await t.owner.api.get(path, { limit: 0 })).body.error.message).toBe('limit: must be at least 1')
    expect((await t.owner.api.get(path, { page: Buffer.from('["a","b","c"]').toString('base64url') })).status).toBe(400)
  })

  it("lists one page's links with the page's totals", async () => {
    const { ids } = await seed()
    const res = await t.owner.api.get(`/v1/spaces/${spaceId}/content/page/${ids.Configure}/links`)
    expect(res.status).toBe(200)
    expect(res.body.items.map((l: any) => [l.href, l.status])).toEqual([
      ['/guide/install', 'ok'],
      ['./missing-page', 'broken']
    ])
    expect(res.body).toMatchObject({ count: 2, stats: { total: 2, broken: { total: 1, changeRequest: 0 } } })
    const only = await t.owner.api.get(`/v1/spaces/${spaceId}/content/page/${ids.Configure}/links`, { status: 'ok', limit: 1 })
    expect(only.body).toMatchObject({ count: 1, items: [{ href: '/guide/install' }] })
    expect(only.body.next).toBeUndefined()
  })

  it('counts the broken links a change request adds', async () => {
    const { ids } = await seed()
    const cr = await openCr()
    await batch(cr.id, [
      {
        operation: 'update_page',
        page: ids.Configure,
        document: { markdown: 'Back to [install](/guide/install) or [missing](./missing-page), [new](./nowhere) and [up](../home).' }
      }
    ])
    const res = await t.owner.api.get(crPath(cr.id, `/content/page/${ids.Configure}/links`))
    expect(res.status).toBe(200)
    expect(res.body.items.map((l: any) => [l.href, l.status])).toEqual([
      ['/guide/install', 'ok'],
      ['./missing-page', 'broken'],
      ['./nowhere', 'broken'],
      ['../home', 'ok']
    ])
    expect(res.body.stats).toEqual({ total: 4, broken: { total: 2, changeRequest: 1 } })
    // Each link is found in the change request's content, and says so.
    const head = (await t.owner.api.get(crPath(cr.id))).body.revision
    expect(res.body.items[0].locationReferences).toEqual([
      { kind: 'page', page: ids.Configure, space: spaceId, organization: t.orgId, versionContext: { revision: head, changeRequest: cr.id } }
    ])
    // By number too; the primary content is unchanged.
    expect((await t.owner.api.get(crPath(String(cr.number), `/content/page/${ids.Configure}/links`))).body.stats.broken.changeRequest).toBe(
      1
    )
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/content/page/${ids.Configure}/links`)).body.stats).toEqual({
      total: 2,
      broken: { total: 1, changeRequest: 0 }
    })
  })
})

describe('GET .../change-requests/{changeRequestId}/links', () => {
  const linksOf = (cr: string, query: Record<string, unknown> = {}) => t.owner.api.get(crPath(cr, '/links'), query)
  const summary = (items: any[]) => items.map((l: any) => [l.href, l.status, l.introduced])

  it('answers 401, 404 for unknown or invisible change requests and another space’s, 400 for bad filters', async () => {
    const cr = await openCr()
    expect((await t.anonymous.get(crPath(cr.id, '/links'))).status).toBe(401)
    expect((await linksOf('99')).body.error).toEqual({ code: 404, message: 'Change request not found' })
    expect((await t.owner.api.get(`/v1/spaces/nope/change-requests/${cr.id}/links`)).status).toBe(404)
    const otherSpace = await t.emptySpace('Other')
    expect((await t.owner.api.get(`/v1/spaces/${otherSpace}/change-requests/${cr.id}/links`)).body.error).toEqual({
      code: 404,
      message: 'Change request not found'
    })
    for (const role of ['none', null] as const) expect((await (await t.user({ role })).api.get(crPath(cr.id, '/links'))).status).toBe(404)
    expect((await linksOf(cr.id, { status: 'dead' })).body.error).toEqual({
      code: 400,
      message: 'status: must be one of: ok, broken, in-app'
    })
    expect((await linksOf(cr.id, { introduced: 'maybe' })).body.error).toEqual({ code: 400, message: 'introduced: must be boolean' })
    expect((await linksOf(cr.id, { limit: 0 })).body.error).toEqual({ code: 400, message: 'limit: must be at least 1' })
    expect((await linksOf(cr.id, { page: 'zzz' })).body.error).toEqual({ code: 400, message: 'page: invalid cursor' })
    // Whoever can read the space reads it (there is nothing they could see but not read: 404, never 403).
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.get(crPath(cr.id, '/links'))).body).toEqual({
      items: [],
      count: 0,
      stats: { total: 0, broken: { total: 0, changeRequest: 0 } }
    })
  })

  it('marks the links a change request adds that lead nowhere, not those already broken on main', async () => {
    await seed()
    const cr = await openCr()
    await batch(cr.id, [insert('Notes', '[nowhere](./nowhere), [home](/home) and [lost](/files/nofile)')])
    const res = await linksOf(cr.id)
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(17)
    expect(res.body.stats).toEqual({ total: 17, broken: { total: 6, changeRequest: 2 } })
    expect(summary(res.body.items.filter((l: any) => l.status === 'broken'))).toEqual([
      ['./missing-page', 'broken', false],
      ['/pages/nopage', 'broken', false],
      ['/files/nofile', 'broken', false],
      ['diagram.png', 'broken', false],
      ['./nowhere', 'broken', true],
      ['/files/nofile', 'broken', true]
    ])
    const crIds = await pagesByTitle(cr.id)
    const head = (await t.owner.api.get(crPath(cr.id))).body.revision
    const introduced = await linksOf(String(cr.number), { introduced: true })
    expect(introduced.body).toMatchObject({ count: 2, stats: res.body.stats })
    expect(introduced.body.items[0]).toEqual({
      status: 'broken',
      relation: 'link',
      href: './nowhere',
      introduced: true,
      targetReference: { kind: 'page', path: 'nowhere', space: spaceId, organization: t.orgId },
      locationReferences: [
        { kind: 'page', page: crIds.Notes, space: spaceId, organization: t.orgId, versionContext: { revision: head, changeRequest: cr.id } }
      ]
    })
    expect((await linksOf(cr.id, { introduced: false })).body.count).toBe(15)
    expect(summary((await linksOf(cr.id, { status: 'ok', introduced: true })).body.items)).toEqual([])
    expect((await linksOf(cr.id, { status: 'broken', introduced: false })).body.count).toBe(4)
  })

  it('marks links of main that break because the change request deletes or moves the page they point to', async () => {
    const { ids } = await seed()
    const cr = await openCr()
    await batch(cr.id, [
      { operation: 'delete_page', page: ids.Configure },
      { operation: 'update_page', page: ids.Home, into: ids.Install }
    ])
    const res = await linksOf(cr.id, { introduced: true })
    // Guide's and Install's links to Configure; Install's relative link to Home, now guide/install/home. Home's own
    // links moved with it and still resolve (absolute paths and ids).
    expect(res.body.items.map((l: any) => [l.locationReferences[0].page, l.href, l.status])).toEqual([
      [ids.Guide, 'configure.md', 'broken'],
      [ids.Install, './configure', 'broken'],
      [ids.Install, '../home', 'broken']
    ])
    expect(res.body.stats.broken).toEqual({ total: 6, changeRequest: 3 })
    // The primary content is untouched until the merge.
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/links`)).body.stats.broken).toEqual({ total: 4, changeRequest: 0 })
  })

  it('reads what the merge would make when main moved on: links main added to a page the change request removes', async () => {
    const { ids } = await seed()
    const install = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/page/${ids.Install}`)).body.markdown as string
    const cr = await openCr()
    // The change request removes Home and links an FAQ page that only main has (after the merge).
    await batch(cr.id, [
      { operation: 'delete_page', page: ids.Home },
      { operation: 'update_page', page: ids.Install, document: { markdown: install.replace('[self](#steps)', '[faq](/faq)') } }
    ])
    const main = await openCr()
    await batch(main.id, [
      insert('Links', 'Go [home](/home).'),
      insert('FAQ', 'Questions.'),
      { operation: 'update_page', page: ids.Install, document: { markdown: `${install}\n\nAlso [home](/home).` } }
    ])
    expect((await t.owner.api.post(crPath(main.id, '/merge'))).body.result).toBe('merge')
    const primary = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision
    const mainIds = await pagesByTitle()
    const res = await linksOf(cr.id, { introduced: true })
    // Install's text joins both sides' edits (a document no revision holds yet).
    expect(res.body.items.map((l: any) => [l.locationReferences[0].page, l.href])).toEqual([
      [ids.Install, '../home'],
      [ids.Install, '/home'],
      [mainIds.Links, '/home']
    ])
    expect(res.body.items[0].locationReferences[0].versionContext).toEqual({
      revision: (await t.owner.api.get(crPath(cr.id))).body.revision,
      changeRequest: cr.id
    })
    // Links is main's page, read in main.
    expect(res.body.items[2].locationReferences[0].versionContext).toEqual({ revision: primary })
    expect(summary((await linksOf(cr.id)).body.items.filter((l: any) => l.href === '/faq'))).toEqual([['/faq', 'ok', false]])
    // Merged, it answers what the merge made, against main before it.
    expect((await t.owner.api.post(crPath(cr.id, '/merge'))).body.result).toBe('merge')
    const merged = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision
    const after = await linksOf(cr.id, { introduced: true })
    expect(after.body.items.map((l: any) => [l.locationReferences[0].page, l.href])).toEqual([
      [ids.Install, '../home'],
      [ids.Install, '/home'],
      [mainIds.Links, '/home']
    ])
    expect(after.body.items[0].locationReferences[0].versionContext).toEqual({ revision: merged })
    expect(
      (await t.owner.api.get(`/v1/spaces/${spaceId}/links`, { status: 'broken' })).body.items.filter((l: any) => l.href.endsWith('/home'))
    ).toHaveLength(3)
  })

  it('reads the head while the merge would stop at conflicts', async () => {
    const { ids } = await seed()
    const cr = await openCr()
    await batch(cr.id, [{ operation: 'update_page', page: ids.Home, document: { markdown: '[gone](./gone)' } }])
    const main = await openCr()
    await batch(main.id, [{ operation: 'update_page', page: ids.Home, document: { markdown: 'Main [x](./x)' } }])
    expect((await t.owner.api.post(crPath(main.id, '/merge'))).body.result).toBe('merge')
    expect(summary((await linksOf(cr.id, { introduced: true })).body.items)).toEqual([['./gone', 'broken', true]])
  })

  it('walks the list page by page in the links lists’ order, filters included', async () => {
    await seed()
    const cr = await openCr()
    await batch(cr.id, [insert('Notes', '[a](./a) [b](./b) [c](./c) [ok](/home)')])
    const all = (await linksOf(cr.id)).body.items
    const { items, pages } = await walk(t.owner.api, crPath(cr.id, '/links'), { limit: 4 })
    expect(items).toEqual(all)
    expect(pages).toHaveLength(5)
    expect(pages.every((p) => p.count === 18 && p.stats.broken.changeRequest === 3)).toBe(true)
    const introduced = await walk(t.owner.api, crPath(cr.id, '/links'), { limit: 2, introduced: true })
    expect(introduced.items.map((l: any) => l.href)).toEqual(['./a', './b', './c'])
    expect(introduced.pages).toHaveLength(2)
    const broken = await walk(t.owner.api, crPath(cr.id, '/links'), { limit: 1, status: 'broken' })
    expect(broken.items.map((l: any) => l.href)).toEqual([
      './missing-page',
      '/pages/nopage',
      '/files/nofile',
      'diagram.png',
      './a',
      './b',
      './c'
    ])
  })
})

describe('GET .../content/files/{fileId}/backlinks', () => {
  it('answers 401 and 404 for unknown files and invisible spaces', async () => {
    const { fileId } = await seed()
    expect((await t.anonymous.get(`/v1/spaces/${spaceId}/content/files/${fileId}/backlinks`)).status).toBe(401)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/content/files/nope/backlinks`)).body.error).toEqual({
      code: 404,
      message: 'File not found'
    })
    const guest = await t.user({ role: null })
    expect((await guest.api.get(`/v1/spaces/${spaceId}/content/files/${fileId}/backlinks`)).status).toBe(404)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/content/files/${fileId}/backlinks`, { page: 'x' })).status).toBe(400)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/content/files/${fileId}/backlinks`, { limit: 1001 })).body.error).toEqual({
      code: 400,
      message: 'limit: must be at most 1000'
    })
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/99/content/files/${fileId}/backlinks`)).status).toBe(404)
  })

  it('lists the pages linking a file, in the primary content and in a change request', async () => {
    const { ids, fileId } = await seed()
    const res = await t.owner.api.get(`/v1/spaces/${spaceId}/content/files/${fileId}/backlinks`)
    expect(res.status).toBe(200)
    const revision = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision
    expect(res.body).toEqual({
      count: 1,
      items: [{ kind: 'page', page: ids.Install, space: spaceId, organization: t.orgId, versionContext: { revision: expect.any(String) } }]
    })
    expect(res.body.items[0].versionContext.revision).toBe(revision)

    const cr = await openCr()
    await batch(cr.id, [
      insert('Gallery', `![one](/files/${fileId}) and again ![two](/files/${fileId})`),
      insert('Album', `[download](/files/${fileId})`),
      // A cover is no link of the text, but the page uses the file: by name here, as Git writes it.
      insert('Banner', '---\ncover: .gitbook/assets/logo.png\n---\nNo links.'),
      insert('Both', `---\ncover: /files/${fileId}\n---\n![logo](/files/${fileId})`)
    ])
    const inCr = await t.owner.api.get(crPath(cr.id, `/content/files/${fileId}/backlinks`))
    expect(inCr.body.count).toBe(5)
    const crIds = await pagesByTitle(cr.id)
    // Ordered by page path: album, banner, both, gallery, guide/install; a page using it twice is listed once.
    expect(inCr.body.items.map((r: any) => r.page)).toEqual([crIds.Album, crIds.Banner, crIds.Both, crIds.Gallery, ids.Install])
    expect(inCr.body.items[0].versionContext).toEqual({ revision: expect.any(String), changeRequest: cr.id })
    const walked = await walk(t.owner.api, crPath(cr.id, `/content/files/${fileId}/backlinks`), { limit: 2 })
    expect(walked.items.map((r) => r.page)).toEqual([crIds.Album, crIds.Banner, crIds.Both, crIds.Gallery, ids.Install])
    expect(walked.pages).toHaveLength(3)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/content/files/${fileId}/backlinks`)).body.count).toBe(1)
  })
})
