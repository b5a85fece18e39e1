import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { addSection, addSiteSpace, createSite, createSpace, expectInvalid, expectSection, sitePath } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const sectionsPath = (siteId: string) => `${sitePath(t, siteId)}/sections`

describe('access to sections', () => {
  it('answers 401, 404 and 403 as it should', async () => {
    const space = await createSpace(t)
    const site = await createSite(t)
    const section = await addSection(t, site.id, { spaceId: space.id })
    const item = `${sectionsPath(site.id)}/${section.id}`
    const operations = [
      ['GET', sectionsPath(site.id), undefined],
      ['POST', sectionsPath(site.id), { spaceId: space.id }],
      ['PATCH', item, { title: 'xy' }],
      ['DELETE', item, undefined],
      ['POST', `${item}/move`, {}]
    ] as const
    for (const [method, path, body] of operations) expect((await t.anonymous.request(method, path, body)).status).toBe(401)
    const outsider = await t.user({ role: 'none' })
    for (const [method, path, body] of operations) expect((await outsider.api.request(method, path, body)).status).toBe(404)
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.get(sectionsPath(site.id))).status).toBe(200)
    for (const [method, path, body] of operations.slice(1))
      expect((await reader.api.request(method, path, body)).status, `${method} ${path}`).toBe(403)
    expect((await t.owner.api.patch(`${sectionsPath(site.id)}/nope`, { title: 'xy' })).status).toBe(404)
    const other = await createSite(t)
    expect((await t.owner.api.delete(`${sectionsPath(other.id)}/${section.id}`)).status).toBe(404)
  })
})

describe('creating sections', () => {
  it('starts a section with the given space; the first section is the default and takes in the root site spaces', async () => {
    const [a, b, c] = [await createSpace(t, 'Alpha'), await createSpace(t, 'Beta'), await createSpace(t, 'Gamma')]
    const site = await createSite(t, { spaces: [a.id, b.id] })
    const res = await t.owner.api.post(sectionsPath(site.id), { spaceId: c.id, title: 'Guides', icon: 'book' })
    expect(res.status).toBe(201)
    expectSection(res.body)
    expect(res.body).toMatchObject({ title: 'Guides', path: 'guides', icon: 'book', default: true })
    expect(res.body.siteSpaces.map((s: any) => [s.title, s.default, s.section])).toEqual([
      ['Gamma', true, res.body.id],
      ['Alpha', false, res.body.id],
      ['Beta', false, res.body.id]
    ])
    expect(res.body.urls.published).toMatch(new RegExp(`/preview/sites/${site.id}/guides/$`))
    expect((await t.owner.api.get(sitePath(t, site.id))).body.siteSpaces).toBe(3)

    const second = await addSection(t, site.id, { spaceId: a.id, title: 'Guides' })
    expect(second).toMatchObject({ path: 'guides-2', default: false })
    expect(second.siteSpaces).toHaveLength(1)
  })

  it('creates a new space when spaceId is null', async () => {
    const site = await createSite(t)
    const before = (await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`)).body.count
    const section = await addSection(t, site.id, { spaceId: null, title: 'Changelog', path: 'changes' })
    expect(section.path).toBe('changes')
    expect(section.siteSpaces).toMatchObject([{ title: 'Changelog', default: true }])
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/spaces`)).body.count).toBe(before + 1)
  })

  it('rejects invalid bodies (400) and a taken path (409), changing nothing', async () => {
    const space = await createSpace(t)
    const site = await createSite(t)
    await addSection(t, site.id, { spaceId: space.id, path: 'taken' })
    await expectInvalid(t.owner.api, 'POST', sectionsPath(site.id), [
      [{}, 'spaceId: is required'],
      [{ spaceId: 'nope' }, 'spaceId: no space nope in this organization'],
      [{ spaceId: space.id, title: 'x' }, 'title: must be at least 2 characters'],
      [{ spaceId: space.id, title: 't'.repeat(129) }, 'title: must be at most 128 characters'],
      [{ spaceId: space.id, path: 'no spaces' }, 'path: must be letters, digits, ., _, ~ and -, other than . and ..'],
      [{ spaceId: space.id, path: 'p'.repeat(101) }, 'path: must be at most 100 characters'],
      [{ spaceId: space.id, icon: 'i'.repeat(51) }, 'icon: must be at most 50 characters'],
      // Without a title the section takes the space's, which must be long enough to be one.
      [{ spaceId: (await createSpace(t, 'Q')).id }, "title: is required when the space's title is shorter than 2 characters"]
    ])
    const clash = await t.owner.api.post(sectionsPath(site.id), { spaceId: space.id, path: 'taken' })
    expect(clash.status).toBe(409)
    expect((await t.owner.api.get(sectionsPath(site.id))).body.count).toBe(1)
    expect((await t.owner.api.get(sitePath(t, site.id))).body.siteSpaces).toBe(1)
  })
})

describe('listing, updating, deleting and moving sections', () => {
  it('walks the sections', async () => {
    const site = await createSite(t)
    const space = await createSpace(t)
    for (let i = 0; i < 5; i++) await addSection(t, site.id, { spaceId: space.id, title: `Part ${i}` })
    const { items, pages } = await walk(t.owner.api, sectionsPath(site.id), { limit: 2 })
    expect(items.map((s) => s.title)).toEqual(['Part 0', 'Part 1', 'Part 2', 'Part 3', 'Part 4'])
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1])
    expect(pages.every((p) => p.count === 5)).toBe(true)
    items.forEach(expectSection)
  })

  it('updates fields, the condition and the default site space', async () => {
    const site = await createSite(t)
    const [a, b] = [await createSpace(t, 'One'), await createSpace(t, 'Two')]
    const section = await addSection(t, site.id, { spaceId: a.id, title: 'Docs' })
    const extra = await addSiteSpace(t, site.id, b.id, section.id)
    const other = await addSection(t, site.id, { spaceId: b.id, title: 'Other' })
    const res = await t.owner.api.patch(`${sectionsPath(site.id)}/${section.id}`, {
      title: 'Documentation',
      path: 'documentation',
      icon: 'book',
      description: 'All of it',
      condition: '!visitor.claims.unsigned.internal',
      defaultSiteSpace: extra.id
    })
    expect(res.status).toBe(200)
    expectSection(res.body)
    expect(res.body).toMatchObject({
      title: 'Documentation',
      path: 'documentation',
      icon: 'book',
      description: 'All of it',
      condition: '!visitor.claims.unsigned.internal'
    })
    expect(res.body.siteSpaces.map((s: any) => [s.id, s.default])).toEqual([
      [section.siteSpaces[0]!.id, false],
      [extra.id, true]
    ])
    expect(res.body.siteSpaces[1].urls.published).toContain('/documentation/two/')
    const cleared = await t.owner.api.patch(`${sectionsPath(site.id)}/${section.id}`, { icon: null, description: null, condition: null })
    expect(cleared.body).toMatchObject({ title: 'Documentation', path: 'documentation' })
    expect(cleared.body.icon).toBeUndefined()
    expect(cleared.body.description).toBeUndefined()
    expect(cleared.body.condition).toBeUndefined()

    await expectInvalid(t.owner.api, 'PATCH', `${sectionsPath(site.id)}/${section.id}`, [
      [{ title: 'x' }, 'title: must be at least 2 characters'],
      [{ path: '' }, 'path: must be at least 1 characters'],
      [{ description: 'd'.repeat(1025) }, 'description: must be at most 1024 characters'],
      [{ condition: 'visitor.claims.x ==' }, 'condition: cannot be parsed'],
      [{ defaultSiteSpace: other.siteSpaces[0]!.id }, 'defaultSiteSpace: site space'],
      [{ defaultSiteSpace: 'nope' }, 'defaultSiteSpace: no site space nope in this site']
    ])
    expect((await t.owner.api.patch(`${sectionsPath(site.id)}/${section.id}`, { path: 'other' })).status).toBe(409)
  })

  it('deletes a section with its site spaces; the default section passes on', async () => {
    const site = await createSite(t)
    const space = await createSpace(t)
    const first = await addSection(t, site.id, { spaceId: space.id, title: 'First' })
    await addSiteSpace(t, site.id, space.id, first.id)
    const second = await addSection(t, site.id, { spaceId: space.id, title: 'Second' })
    expect((await t.owner.api.get(sitePath(t, site.id))).body.siteSpaces).toBe(3)
    const res = await t.owner.api.delete(`${sectionsPath(site.id)}/${first.id}`)
    expect(res.status).toBe(205)
    expect((await t.owner.api.get(sitePath(t, site.id))).body.siteSpaces).toBe(1)
    expect((await t.owner.api.get(sectionsPath(site.id))).body.items).toMatchObject([{ id: second.id, default: true }])
    expect((await t.owner.api.get(`${sitePath(t, site.id)}/site-spaces`)).body.items.map((s: any) => s.section)).toEqual([second.id])
  })

  it('moves sections among the top of the site, and to the end without a position', async () => {
    const site = await createSite(t)
    const space = await createSpace(t)
    const ids: Record<string, string> = {}
    for (const name of ['A', 'B', 'C']) ids[name] = (await addSection(t, site.id, { spaceId: space.id, title: `Section ${name}` })).id
    const titles = async () =>
      (await t.owner.api.get(`${sitePath(t, site.id)}/published`)).body.structure.structure.map((s: any) =>
        s.title.replace(/^Section /, '')
      )
    const move = (id: string, body: unknown) => t.owner.api.post(`${sectionsPath(site.id)}/${id}/move`, body)
    const res = await move(ids.C!, { position: { before: { type: 'site-section', id: ids.A } } })
    expect(res.status).toBe(200)
    expectSection(res.body)
    expect(await titles()).toEqual(['C', 'A', 'B'])
    await move(ids.C!, {})
    expect(await titles()).toEqual(['A', 'B', 'C'])
    await expectInvalid(t.owner.api, 'POST', `${sectionsPath(site.id)}/${ids.A}/move`, [
      [{ position: { after: { type: 'site-section', id: 'nope' } } }, 'position.after: '],
      [{ position: { after: { type: 'site-space', id: ids.B } } }, 'position.after.type: must be one of']
    ])
  })
})
