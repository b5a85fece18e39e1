import type { APIRequestContext } from '@playwright/test'
import { test, expect } from '../fixtures/server.ts'
import { SitesPage } from '../pages/sitesPage.ts'

async function firstOrgId(api: APIRequestContext): Promise<string> {
  return ((await (await api.get('/v1/orgs')).json()) as { items: { id: string }[] }).items[0]!.id
}

async function createSpace(api: APIRequestContext, orgId: string, title: string): Promise<{ id: string; title: string }> {
  const res = await api.post(`/v1/orgs/${orgId}/spaces`, { data: { title } })
  expect(res.status()).toBe(201)
  return res.json()
}

test('build a site with two site spaces and a share link', async ({ page, context, token, api }, testInfo) => {
  // A whole user flow of a dozen steps: give it room on a busy CI machine.
  test.setTimeout(90_000)
  // Arrange: two spaces to publish, names unique to this test and attempt (the worker's server is shared).
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`.toLowerCase()
  const siteTitle = `Developer docs ${suffix}`
  const guideTitle = `Guides ${suffix}`
  const referenceTitle = `Reference ${suffix}`
  const path = `api-${suffix}`
  const linkName = `Beta customers ${suffix}`
  const orgId = await firstOrgId(api)
  await createSpace(api, orgId, guideTitle)
  await createSpace(api, orgId, referenceTitle)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const sites = new SitesPage(page)
  await sites.open(token)
  await sites.waitUntilReady()

  // Act + Assert: create the site from the Sites list; its editor opens
  await sites.navigate('sites')
  await sites.createSite(siteTitle)
  await sites.expectSuccess(`Site “${siteTitle}” created`)
  await expect(page.getByTestId('structure-empty')).toBeVisible()

  // add the two spaces as site spaces
  await sites.addSiteSpace(guideTitle)
  await sites.expectSuccess(`“${guideTitle}” added to the site`)
  await sites.addSiteSpace(referenceTitle)
  await expect(sites.structureRows).toHaveCount(2)
  await expect(sites.structureRow(guideTitle).getByTestId('make-default')).toHaveAttribute('aria-pressed', 'true')

  // give the second one its own path
  await sites.selectRow(referenceTitle)
  await sites.savePath(path)
  await sites.expectSuccess(`“${referenceTitle}” saved`)
  await expect(sites.structureRow(referenceTitle).getByTestId('structure-row-path')).toHaveText(`/${path}`)
  // unpublished, the site has no address to show
  await expect(page.getByTestId('published-at')).toHaveCount(0)

  // only people with a link may read it; create a link and copy its address, shown this once
  await sites.setVisibility('Share link')
  await sites.expectSuccess('Visibility: Share link')
  await sites.tab('share-links')
  await expect(page.getByTestId('share-link-hint')).toHaveCount(0)
  await sites.createShareLink(linkName)
  await expect(page.getByTestId('share-link-once')).toContainText('cannot be shown again')
  const shown = await page.getByTestId('created-share-link-url').inputValue()
  expect(shown).toContain('shareKey=')
  await sites.screenshots('share-link-created', testInfo)
  await sites.copyCreatedShareLink()
  await sites.expectSuccess('Link copied')
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toBe(shown)
  await expect(sites.shareLink(linkName).getByTestId('share-link-status')).toHaveText('Active')
  await expect(sites.shareLink(linkName)).not.toContainText('shareKey')

  // publish; the preview opens with the key of the link this window created
  await expect(page.getByTestId('open-preview')).toBeDisabled()
  await sites.togglePublished()
  await sites.expectSuccess(`“${siteTitle}” is published`)
  await expect(sites.publishedBadge).toHaveText('Published')
  await expect(page.getByTestId('publish-toggle')).toHaveText('Unpublish')
  const popupOpened = page.waitForEvent('popup')
  await page.getByTestId('open-preview').click()
  const preview = await popupOpened
  await preview.waitForLoadState()
  expect(preview.url()).toBe(copied)
  await expect(preview.locator('body')).toContainText(guideTitle)
  await preview.close()

  // Assert: read the site back through the API
  const siteId = /\/sites\/([^/?#]+)/.exec(page.url())![1]!
  const base = `/v1/orgs/${orgId}/sites/${siteId}`
  const site = await (await api.get(base)).json()
  expect(site).toMatchObject({ title: siteTitle, visibility: 'share-link', published: true, siteSpaces: 2 })
  const siteSpaces = (await (await api.get(`${base}/site-spaces`)).json()).items as { title: string; path: string }[]
  expect(siteSpaces.map((s) => s.title)).toEqual([guideTitle, referenceTitle])
  expect(siteSpaces[1]!.path).toBe(path)
  const links = (await (await api.get(`${base}/share-links`)).json()).items as {
    name: string
    active: boolean
    urls: { published: string }
  }[]
  expect(links).toHaveLength(1)
  expect(links[0]).toMatchObject({ name: linkName, active: true })
  // The API shows the key only when the link is created.
  expect(links[0]!.urls.published).toBe(copied.split('?')[0])

  await sites.tab('structure')
  await sites.selectRow(referenceTitle)
  await expect(page.getByTestId('published-at')).toContainText(`/${path}/`)
  await sites.screenshot('site-with-share-link', testInfo)
})

test('a condition or proxy the API refuses is explained beside the field', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  // Arrange: a site with one space, made through the API (this test is about editing it).
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`.toLowerCase()
  const orgId = await firstOrgId(api)
  const space = await createSpace(api, orgId, `Handbook ${suffix}`)
  const created = await api.post(`/v1/orgs/${orgId}/sites`, { data: { title: `Handbook site ${suffix}`, spaces: [space.id] } })
  expect(created.status()).toBe(201)
  const site = (await created.json()) as { id: string }
  const base = `/v1/orgs/${orgId}/sites/${site.id}`
  const sites = new SitesPage(page)
  await sites.open(token, `/orgs/${orgId}/sites/${site.id}`)
  await sites.waitUntilReady()

  // Act + Assert: a valid condition is saved
  await sites.selectRow(space.title)
  const condition = sites.inspector.getByTestId('condition-input')
  await sites.saveCondition('visitor.claims.isBeta')
  await sites.expectSuccess(`“${space.title}” saved`)
  await expect(sites.structureRow(space.title).getByTestId('row-condition')).toBeVisible()

  // one the API cannot parse is refused, with its reason under the field
  await sites.saveCondition('visitor.claims.(')
  await expect(sites.inspector.getByText(/^Cannot be parsed/)).toBeVisible()
  await expect(condition).toHaveAttribute('aria-invalid', 'true')
  let [siteSpace] = (await (await api.get(`${base}/site-spaces`)).json()).items
  expect(siteSpace.condition, 'the stored condition is unchanged').toBe('visitor.claims.isBeta')

  // "Remove condition" clears it (null) for everyone
  await sites.inspector.getByRole('button', { name: 'Discard' }).click()
  await sites.inspector.getByTestId('clear-condition').click()
  await sites.expectSuccess(`Condition removed: everyone sees “${space.title}”`)
  await expect(condition).toHaveValue('')
  ;[siteSpace] = (await (await api.get(`${base}/site-spaces`)).json()).items
  expect(siteSpace.condition).toBeUndefined()

  // a proxy without a path is refused beside the Proxy field
  await sites.tab('settings')
  const proxy = page.getByTestId('settings-proxy')
  await proxy.fill('example.com')
  await page.getByTestId('settings-save').click()
  await expect(page.getByText('Must be a domain and a path, without the scheme, like example.com/docs')).toBeVisible()
  await expect(proxy).toHaveAttribute('aria-invalid', 'true')
  expect((await (await api.get(base)).json()).proxy).toBeUndefined()
  await sites.screenshot('site-refused-proxy', testInfo)
})
