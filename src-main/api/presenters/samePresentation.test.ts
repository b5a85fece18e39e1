// One presenter per resource: a space, a collection or an organization is the same JSON at every endpoint that
// answers it. Each write's answer is compared with every read of the same object right after that write.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../testing/harness'
import { addSiteSpace, createSite, publish } from '../routes/sites/fixtures'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(() => t.close())

async function ok(res: Promise<{ status: number; body: any }>, status = 200) {
  const answer = await res
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  return answer.body
}

const found = (items: any[], id: string) => items.find((x) => x.id === id)

/** A space as every read answers it: GET, its organization's list, its collection's list, its member's spaces. */
async function expectSpaceEverywhere(space: any) {
  expect(await ok(t.owner.api.get(`/v1/spaces/${space.id}`))).toEqual(space)
  expect(found((await walk(t.owner.api, `/v1/orgs/${space.organization}/spaces`)).items, space.id)).toEqual(space)
  if (space.parent) expect(found((await walk(t.owner.api, `/v1/collections/${space.parent}/spaces`)).items, space.id)).toEqual(space)
  const mine = (await walk(t.owner.api, `/v1/orgs/${space.organization}/members/${t.owner.user.id}/spaces`)).items
  expect(mine.find((x: any) => x.space.id === space.id)?.space).toEqual(space)
}

async function expectCollectionEverywhere(collection: any) {
  expect(await ok(t.owner.api.get(`/v1/collections/${collection.id}`))).toEqual(collection)
  expect(found((await walk(t.owner.api, `/v1/orgs/${collection.organization}/collections`)).items, collection.id)).toEqual(collection)
}

async function expectOrganizationEverywhere(org: any, domain: string) {
  expect(await ok(t.owner.api.get(`/v1/orgs/${org.id}`))).toEqual(org)
  expect(found((await walk(t.owner.api, '/v1/orgs')).items, org.id)).toEqual(org)
  expect(found((await ok(t.owner.api.get(`/v1/email-domains/${domain}/orgs`))).organizations, org.id)).toEqual(org)
}

describe('the same JSON at every endpoint', () => {
  it('answers a space identically after each write and at every read (published URL included)', async () => {
    const c1 = await ok(t.owner.api.post(`/v1/orgs/${t.orgId}/collections`, { title: 'One' }), 201)
    const c2 = await ok(t.owner.api.post(`/v1/orgs/${t.orgId}/collections`, { title: 'Two' }), 201)
    const created = await ok(t.owner.api.post(`/v1/orgs/${t.orgId}/spaces`, { title: 'Guide', parent: c1.id }), 201)
    await expectSpaceEverywhere(created)

    // Shown on a published site, the space has `urls.published`: every answer must carry it.
    const site = await createSite(t)
    await addSiteSpace(t, site.id, created.id)
    await publish(t, site.id)

    const patched = await ok(t.owner.api.patch(`/v1/spaces/${created.id}`, { title: 'Handbook' }))
    expect(patched.urls.published).toEqual(expect.any(String))
    await expectSpaceEverywhere(patched)

    const moved = await ok(t.owner.api.post(`/v1/spaces/${created.id}/move`, { parent: c2.id }))
    expect(moved.parent).toBe(c2.id)
    await expectSpaceEverywhere(moved)

    expect((await t.owner.api.delete(`/v1/spaces/${created.id}`)).status).toBe(205)
    const restored = await ok(t.owner.api.post(`/v1/spaces/${created.id}/restore`))
    expect(restored.urls.published).toEqual(expect.any(String))
    await expectSpaceEverywhere(restored)

    const duplicate = await ok(t.owner.api.post(`/v1/spaces/${created.id}/duplicate`), 201)
    await expectSpaceEverywhere(duplicate)

    const other = await ok(t.owner.api.post('/v1/orgs', { title: 'Elsewhere' }), 201)
    const transferred = await ok(t.owner.api.post(`/v1/spaces/${created.id}/transfer`, { organization: other.id }))
    expect(transferred.organization).toBe(other.id)
    await expectSpaceEverywhere(transferred)
  })

  it('answers a collection identically after each write and at every read', async () => {
    const parent = await ok(t.owner.api.post(`/v1/orgs/${t.orgId}/collections`, { title: 'Parent' }), 201)
    const created = await ok(t.owner.api.post(`/v1/orgs/${t.orgId}/collections`, { title: 'Child' }), 201)
    await expectCollectionEverywhere(created)
    const patched = await ok(t.owner.api.patch(`/v1/collections/${created.id}`, { description: 'About', defaultLevel: 'read' }))
    await expectCollectionEverywhere(patched)
    const moved = await ok(t.owner.api.post(`/v1/collections/${created.id}/move`, { parent: parent.id }))
    expect(moved.parent).toBe(parent.id)
    await expectCollectionEverywhere(moved)
    const other = await ok(t.owner.api.post('/v1/orgs', { title: 'Elsewhere' }), 201)
    const transferred = await ok(t.owner.api.post(`/v1/collections/${created.id}/transfer`, { organization: other.id }))
    expect(transferred.organization).toBe(other.id)
    await expectCollectionEverywhere(transferred)
  })

  it('answers an organization identically after each write and at every read', async () => {
    const created = await ok(t.owner.api.post('/v1/orgs', { title: 'Acme', emailDomains: ['acme.test'] }), 201)
    await expectOrganizationEverywhere(created, 'acme.test')
    const patched = await ok(
      t.owner.api.patch(`/v1/orgs/${created.id}`, {
        title: 'Acme Docs',
        hostname: 'acme-docs',
        defaultContent: { type: 'site', site: 'abc' },
        logo: 'https://example.com/logo.png'
      })
    )
    await expectOrganizationEverywhere(patched, 'acme.test')
  })
})

/** A site as every read answers it: GET, its organization's list, and the site of its published shape. */
async function expectSiteEverywhere(site: any) {
  const path = `/v1/orgs/${t.orgId}/sites/${site.id}`
  expect(await ok(t.owner.api.get(path))).toEqual(site)
  expect(found((await walk(t.owner.api, `/v1/orgs/${t.orgId}/sites`)).items, site.id)).toEqual(site)
  expect((await ok(t.owner.api.get(`${path}/published`))).site).toEqual(site)
}

describe('a site’s published URL', () => {
  it('is absent at every endpoint while the site is unpublished, and the same at every endpoint once it is published', async () => {
    const created: any = await createSite(t)
    expect(created).toMatchObject({ published: false, urls: { preview: expect.stringContaining(`/preview/sites/${created.id}/`) } })
    expect(created.urls).not.toHaveProperty('published')
    await expectSiteEverywhere(created)
    const patched = await ok(t.owner.api.patch(`/v1/orgs/${t.orgId}/sites/${created.id}`, { title: 'Handbook', proxy: 'example.com/docs' }))
    expect(patched.urls).not.toHaveProperty('published')
    // A proxy forwards to the site's preview while nothing is published.
    expect(patched.proxy).toEqual({ origin: 'example.com/docs', target: patched.urls.preview })
    await expectSiteEverywhere(patched)

    const published = await ok(t.owner.api.post(`/v1/orgs/${t.orgId}/sites/${created.id}/publish`))
    expect(published.urls.published).toBe(`${t.url}/preview/sites/${created.id}/`)
    expect(published.proxy).toEqual({ origin: 'example.com/docs', target: published.urls.published })
    await expectSiteEverywhere(published)
    const renamed = await ok(t.owner.api.patch(`/v1/orgs/${t.orgId}/sites/${created.id}`, { title: 'Guide' }))
    expect(renamed.urls.published).toBe(published.urls.published)
    await expectSiteEverywhere(renamed)

    const unpublished = await ok(t.owner.api.post(`/v1/orgs/${t.orgId}/sites/${created.id}/unpublish`))
    expect(unpublished.urls).not.toHaveProperty('published')
    await expectSiteEverywhere(unpublished)
  })
})
