// Acceptance: a site with two sections, a group and three site spaces comes back from `published` with that
// structure, in the order set by the move operations.
import { afterEach, beforeEach, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { addSection, addSiteSpace, createSite, createSpace, expectSection, expectSiteSpace, sitePath } from './fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

it('reads back two sections, a group and three site spaces in the order set by moves', async () => {
  const [guides, api, sdk] = [await createSpace(t, 'Guides'), await createSpace(t, 'API'), await createSpace(t, 'SDK')]
  const site = await createSite(t, { title: 'Developer portal' })
  const learn = await addSection(t, site.id, { spaceId: guides.id, title: 'Learn' })
  const build = await addSection(t, site.id, { spaceId: api.id, title: 'Build' })
  const sdkSpace = await addSiteSpace(t, site.id, sdk.id, build.id)
  const group = (await t.owner.api.post(`${sitePath(t, site.id)}/section-groups`, { title: 'Products', sections: [build.id] })).body

  // Moves: the group goes first, the SDK site space before the API one.
  expect(
    (
      await t.owner.api.post(`${sitePath(t, site.id)}/section-groups/${group.id}/move`, {
        position: { before: { type: 'site-section', id: learn.id } }
      })
    ).status
  ).toBe(200)
  expect(
    (
      await t.owner.api.post(`${sitePath(t, site.id)}/site-spaces/${sdkSpace.id}/move`, {
        position: { before: { type: 'site-space', siteSpace: build.siteSpaces[0]!.id } }
      })
    ).status
  ).toBe(200)

  const res = await t.owner.api.get(`${sitePath(t, site.id)}/published`)
  expect(res.status).toBe(200)
  expect(res.body.site).toMatchObject({ id: site.id, siteSpaces: 3 })
  const { type, structure } = res.body.structure
  expect(type).toBe('sections')
  expect(structure.map((item: any) => [item.object, item.id])).toEqual([
    ['site-section-group', group.id],
    ['site-section', learn.id]
  ])
  const [products, learnSection] = structure
  expect(products).toMatchObject({ title: 'Products' })
  expect(products.sections.map((s: any) => [s.id, s.sectionGroup])).toEqual([[build.id, group.id]])
  expect(products.sections[0].siteSpaces.map((s: any) => s.title)).toEqual(['SDK', 'API'])
  expect(products.sections[0].siteSpaces.map((s: any) => s.default)).toEqual([false, true])
  expect(learnSection.siteSpaces.map((s: any) => s.title)).toEqual(['Guides'])
  expect(learnSection.default).toBe(true)
  for (const section of [...products.sections, learnSection]) expectSection(section)
  for (const s of products.sections[0].siteSpaces) {
    expectSiteSpace(s)
    expect(s.section).toBe(build.id)
    expect(s.urls.published).toContain(`/preview/sites/${site.id}/build/`)
  }
})
