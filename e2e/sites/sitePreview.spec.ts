import { test, expect } from '../fixtures/server.ts'
import { json, orgIdOf, spaceWithPages } from '../content/seed.ts'
import { SitesPage } from '../pages/sitesPage.ts'

const INSTALL = [
  '## Get it',
  '',
  '{% tabs %}',
  '{% tab title="npm" %}',
  '```sh',
  'npm install quire',
  '```',
  '{% endtab %}',
  '{% tab title="yarn" %}',
  '```sh',
  'yarn add quire',
  '```',
  '{% endtab %}',
  '{% endtabs %}',
  '',
  '{% hint style="info" %}',
  'Quire needs Node 20.',
  '{% endhint %}',
  '',
  '## Configure',
  '',
  'Set the port.',
  ''
].join('\n')

// A small square logo, as a customization's favicon (the preview shows it in its header).
const LOGO = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#c2185b"/><path d="M9 16h14M16 9v14" stroke="#fff" stroke-width="4"/></svg>')}`

test('preview an unpublished site with its customization, and see it as a visitor with a claim', async ({ page, token, api }, testInfo) => {
  test.setTimeout(120_000)
  // Arrange: an unpublished site with an open section and one for partners only, customized, with a schema.
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`.toLowerCase()
  const orgId = await orgIdOf(api)
  const guides = await spaceWithPages(api, `Guides ${suffix}`, ['Install', 'Usage'], (t) =>
    t === 'Install' ? INSTALL : `# ${t}\n\nAbout ${t}.\n`
  )
  const partnerApi = await spaceWithPages(api, `Partner API ${suffix}`, ['Partner keys'])
  const site = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/sites`, { data: { title: `Handbook ${suffix}` } }))
  const base = `/v1/orgs/${orgId}/sites/${site.id}`
  await json(api.post(`${base}/sections`, { data: { spaceId: guides.spaceId, title: 'Guides' } }))
  const partners = await json<{ id: string }>(api.post(`${base}/sections`, { data: { spaceId: partnerApi.spaceId, title: 'Partners' } }))
  await json(api.patch(`${base}/sections/${partners.id}`, { data: { condition: 'visitor.claims.partner == true' } }))
  await json(
    api.put(`${base}/adaptive-schema`, {
      data: { jsonSchema: { type: 'object', properties: { partner: { type: 'boolean', description: 'Signed in as a partner' } } } }
    })
  )
  await json(
    api.put(`${base}/customization`, {
      data: { styling: { primaryColor: { light: '#c2185b', dark: '#f06292' } }, favicon: { icon: { light: LOGO } } }
    })
  )
  // Visitor tokens count from the second after the schema was set.
  await page.waitForTimeout(1100)

  const sites = new SitesPage(page)
  await sites.open(token, `/orgs/${orgId}/sites/${site.id}/customization`)
  await sites.waitUntilReady()
  await expect(sites.publishedBadge).toHaveText('Unpublished')

  // Act + Assert: the customization screen shows the draft preview, with the logo and the primary colour
  let frame = page.frameLocator('iframe[title="Site preview"]')
  await expect(frame.locator('header .logo')).toBeVisible()
  await expect(frame.getByRole('note')).toHaveText('Draft preview: this site is not published')
  const linkColour = () => frame.locator('aside .pages a[aria-current="page"]').evaluate((a) => getComputedStyle(a).color)
  await expect.poll(linkColour).toBe('rgb(194, 24, 91)')

  // a saved colour shows in the preview at once
  await page.getByTestId('color-primaryColor-light').fill('#2e7d32')
  await page.getByTestId('customization-save').click()
  await sites.expectSuccess('Customization saved: Primary colour')
  // (closed, so the screenshots below show the preview whole)
  await sites.successToasts.getByRole('button').click()
  await expect(sites.successToasts).toHaveCount(0)
  frame = page.frameLocator('iframe[title="Site preview"]')
  await expect.poll(linkColour).toBe('rgb(46, 125, 50)')

  // the Preview tab: tabs switch, the next page is linked
  await sites.tab('preview')
  frame = page.frameLocator('iframe[title="Site preview"]')
  await expect(frame.getByRole('tab', { name: 'npm' })).toHaveAttribute('aria-selected', 'true')
  await expect(frame.getByText('npm install quire')).toBeVisible()
  await expect(frame.getByText('yarn add quire')).toBeHidden()
  await frame.getByRole('tab', { name: 'yarn' }).click()
  await expect(frame.getByText('yarn add quire')).toBeVisible()
  await expect(frame.getByText('npm install quire')).toBeHidden()
  // the headings carry their ids (the outline, shown where the page is wide, links them)
  await expect(frame.locator('article h2').first()).toHaveAttribute('id', 'get-it')
  await expect(frame.getByRole('link', { name: /Next\s*Usage/ })).toBeVisible()
  await sites.screenshots('site-preview', testInfo)

  // the audience view: a partner sees the Partners section, others do not
  const sections = frame.getByRole('navigation', { name: 'Sections' }).getByRole('link')
  await expect(sections).toHaveText(['Guides'])
  await page.getByTestId('claim-signed-partner').click()
  await expect(page.getByTestId('audience-summary')).toHaveText('A visitor with partner')
  frame = page.frameLocator('iframe[title="Site preview"]')
  await expect(frame.getByRole('navigation', { name: 'Sections' }).getByRole('link')).toHaveText(['Guides', 'Partners'])
  await frame.getByRole('link', { name: 'Partners' }).click()
  await expect(frame.locator('article h1')).toHaveText('Partner keys')
  await sites.screenshots('site-audience', testInfo)
  await page.getByTestId('claim-signed-partner').click()
  await expect(page.getByTestId('audience-summary')).toHaveText('A visitor without claims')
  frame = page.frameLocator('iframe[title="Site preview"]')
  await expect(frame.getByRole('navigation', { name: 'Sections' }).getByRole('link')).toHaveText(['Guides'])

  // Assert: nobody reaches the unpublished site without the draft token
  const published = await api.get(`/preview/sites/${site.id}/`)
  expect(published.status()).toBe(404)
})
