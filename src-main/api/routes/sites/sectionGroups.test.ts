import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { addSection, createSite, createSpace, expectInvalid, expectSection, sitePath } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

const groupsPath = (siteId: string) => `${sitePath(t, siteId)}/section-groups`

/** A site with sections A, B, C (in that order), titled `Section A`… (section titles have 2 characters or more). */
async function siteWithSections() {
  const site = await createSite(t)
  const space = await createSpace(t)
  const ids: Record<string, string> = {}
  for (const name of ['A', 'B', 'C']) ids[name] = (await addSection(t, site.id, { spaceId: space.id, title: `Section ${name}` })).id
  return { site, ids }
}

/** A section's letter, from its title. */
const letter = (section: { title: string }) => section.title.replace(/^Section /, '')

/** The top of the published structure: section letters, and groups as `title[sections]`. */
async function outline(siteId: string): Promise<string[]> {
  const res = await t.owner.api.get(`${sitePath(t, siteId)}/published`)
  return res.body.structure.structure.map((item: any) =>
    item.object === 'site-section-group' ? `${item.title}[${item.sections.map(letter).join(',')}]` : letter(item)
  )
}

function expectGroup(group: any) {
  expect(group).toMatchObject({
    object: 'site-section-group',
    id: expect.any(String),
    title: expect.any(String),
    sections: expect.any(Array)
  })
  group.sections.forEach((s: any) => {
    expectSection(s)
    expect(s.sectionGroup).toBe(group.id)
  })
}

describe('access to section groups', () => {
  it('answers 401, 404 and 403 as it should', async () => {
    const { site, ids } = await siteWithSections()
    const group = (await t.owner.api.post(groupsPath(site.id), { title: 'G', sections: [ids.A] })).body
    const item = `${groupsPath(site.id)}/${group.id}`
    const operations = [
      ['GET', groupsPath(site.id), undefined],
      ['POST', groupsPath(site.id), { title: 'H' }],
      ['PATCH', item, { title: 'x' }],
      ['DELETE', item, undefined],
      ['POST', `${item}/sections`, { sectionId: ids.B }],
      ['DELETE', `${item}/sections/${ids.A}`, undefined],
      ['POST', `${item}/move`, {}]
    ] as const
    for (const [method, path, body] of operations)
      expect((await t.anonymous.request(method, path, body)).status, `${method} ${path}`).toBe(401)
    const outsider = await t.user({ role: 'none' })
    for (const [method, path, body] of operations)
      expect((await outsider.api.request(method, path, body)).status, `${method} ${path}`).toBe(404)
    const guest = await t.user({ role: null })
    expect((await guest.api.get(groupsPath(site.id))).status).toBe(403)
    const reader = await t.user({ role: 'comment' })
    expect((await reader.api.get(groupsPath(site.id))).status).toBe(200)
    for (const [method, path, body] of operations.slice(1))
      expect((await reader.api.request(method, path, body)).status, `${method} ${path}`).toBe(403)
    expect((await t.owner.api.patch(`${groupsPath(site.id)}/nope`, { title: 'x' })).status).toBe(404)
    expect((await t.owner.api.delete(`${item}/sections/${ids.C}`)).status).toBe(404)
    expect(await outline(site.id)).toEqual(['B', 'C', 'G[A]'])
  })
})

describe('section groups', () => {
  it('creates a group at the end with the given sections, which leave the top of the site', async () => {
    const { site, ids } = await siteWithSections()
    const res = await t.owner.api.post(groupsPath(site.id), { title: 'Products', icon: 'box', sections: [ids.C, ids.A] })
    expect(res.status).toBe(201)
    expectGroup(res.body)
    expect(res.body).toMatchObject({ title: 'Products', icon: 'box' })
    expect(res.body.sections.map(letter)).toEqual(['C', 'A'])
    expect(res.body.children).toEqual(res.body.sections)
    expect(await outline(site.id)).toEqual(['B', 'Products[C,A]'])
    const sections = (await t.owner.api.get(`${sitePath(t, site.id)}/sections`)).body.items
    expect(sections.find((s: any) => s.id === ids.B).sectionGroup).toBeUndefined()
  })

  it('lists groups with their sections', async () => {
    const { site, ids } = await siteWithSections()
    for (let i = 0; i < 3; i++) await t.owner.api.post(groupsPath(site.id), { title: `G${i}`, sections: i === 1 ? [ids.B] : [] })
    const { items, pages } = await walk(t.owner.api, groupsPath(site.id), { limit: 2 })
    expect(items.map((g) => [g.title, g.sections.length])).toEqual([
      ['G0', 0],
      ['G1', 1],
      ['G2', 0]
    ])
    expect(pages.every((p) => p.count === 3)).toBe(true)
    expect(pages.map((p) => p.items.length)).toEqual([2, 1])
    items.forEach(expectGroup)
  })

  it('renames, adds and removes sections, moves, and deletes keeping the sections in place', async () => {
    const { site, ids } = await siteWithSections()
    const group = (await t.owner.api.post(groupsPath(site.id), { title: 'G' })).body
    const item = `${groupsPath(site.id)}/${group.id}`
    const renamed = await t.owner.api.patch(item, { title: 'Group', icon: 'star' })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ title: 'Group', icon: 'star' })
    expect((await t.owner.api.patch(item, { icon: null })).body.icon).toBeUndefined()

    const added = await t.owner.api.post(`${item}/sections`, { sectionId: ids.A })
    expect(added.status).toBe(201)
    expectGroup(added.body)
    await t.owner.api.post(`${item}/sections`, { sectionId: ids.C })
    expect(await outline(site.id)).toEqual(['B', 'Group[A,C]'])

    const moved = await t.owner.api.post(`${item}/move`, { position: { before: { type: 'site-section', id: ids.B } } })
    expect(moved.status).toBe(200)
    expectGroup(moved.body)
    expect(await outline(site.id)).toEqual(['Group[A,C]', 'B'])

    // A grouped section moves among the group's sections.
    await t.owner.api.post(`${sitePath(t, site.id)}/sections/${ids.C}/move`, { position: { before: { type: 'site-section', id: ids.A } } })
    expect(await outline(site.id)).toEqual(['Group[C,A]', 'B'])

    const removed = await t.owner.api.delete(`${item}/sections/${ids.C}`)
    expect(removed.status).toBe(205)
    expect(await outline(site.id)).toEqual(['Group[A]', 'C', 'B'])

    expect((await t.owner.api.delete(item)).status).toBe(205)
    expect(await outline(site.id)).toEqual(['A', 'C', 'B'])
    expect((await t.owner.api.get(groupsPath(site.id))).body.count).toBe(0)
    expect((await t.owner.api.patch(item, { title: 'x' })).status).toBe(404)
  })

  it('rejects invalid bodies with the envelope, changing nothing', async () => {
    const { site, ids } = await siteWithSections()
    const other = await siteWithSections()
    await expectInvalid(t.owner.api, 'POST', groupsPath(site.id), [
      [{}, 'title: is required'],
      [{ title: '' }, 'title: must be at least 1 characters'],
      [{ title: 't'.repeat(101) }, 'title: must be at most 100 characters'],
      [{ title: 'G', icon: 'i'.repeat(51) }, 'icon: must be at most 50 characters'],
      [{ title: 'G', sections: 'all' }, 'sections: must be array'],
      [{ title: 'G', sections: [ids.A, 'nope'] }, 'sections.1: no section nope in this site'],
      [{ title: 'G', sections: [other.ids.A] }, `sections.0: no section ${other.ids.A} in this site`]
    ])
    expect((await t.owner.api.get(groupsPath(site.id))).body.count).toBe(0)
    const group = (await t.owner.api.post(groupsPath(site.id), { title: 'G' })).body
    await expectInvalid(t.owner.api, 'PATCH', `${groupsPath(site.id)}/${group.id}`, [
      [{ title: '' }, 'title: must be at least 1 characters'],
      [{ icon: 5 }, 'icon: ']
    ])
    await expectInvalid(t.owner.api, 'POST', `${groupsPath(site.id)}/${group.id}/sections`, [
      [{}, 'sectionId: is required'],
      [{ sectionId: 'nope' }, 'sectionId: no section nope in this site']
    ])
    await expectInvalid(t.owner.api, 'POST', `${groupsPath(site.id)}/${group.id}/move`, [
      [{ position: { before: { type: 'site-section', id: 'nope' } } }, 'position.before: ']
    ])
    expect(await outline(site.id)).toEqual(['A', 'B', 'C', 'G[]'])
  })
})
