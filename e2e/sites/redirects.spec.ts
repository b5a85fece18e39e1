import { test, expect } from '../fixtures/server.ts'
import { json, orgIdOf, spaceWithPages } from '../content/seed.ts'
import { SitesPage } from '../pages/sitesPage.ts'

test('import redirects from a CSV: bad lines are named first, then the rows show with both kinds of warning', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  // Arrange: a site showing one space with the pages Install and Usage.
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`.toLowerCase()
  const orgId = await orgIdOf(api)
  const guides = await spaceWithPages(api, `Guides ${suffix}`, ['Install', 'Usage'])
  const site = await json<{ id: string }>(
    api.post(`/v1/orgs/${orgId}/sites`, { data: { title: `Redirected ${suffix}`, spaces: [guides.spaceId] } })
  )
  const base = `/v1/orgs/${orgId}/sites/${site.id}`
  const siteSpace = (await json<{ items: { path: string }[] }>(api.get(`${base}/site-spaces`))).items[0]!
  const root = `/${siteSpace.path}`
  // and a redirect to a site space since removed from the site: its destination is gone
  const old = await spaceWithPages(api, `Old ${suffix}`, ['Legacy'])
  const oldSiteSpace = await json<{ id: string }>(api.post(`${base}/site-spaces`, { data: { spaceId: old.spaceId } }))
  await json(
    api.post(`${base}/redirects`, { data: { source: '/legacy', destination: { kind: 'site-space', siteSpaceId: oldSiteSpace.id } } })
  )
  expect((await api.delete(`${base}/site-spaces/${oldSiteSpace.id}`)).ok()).toBe(true)

  const sites = new SitesPage(page)
  await sites.open(token, `/orgs/${orgId}/sites/${site.id}/redirects`)
  await sites.waitUntilReady()
  await expect(sites.redirect('/legacy').getByTestId('redirect-missing-destination')).toBeVisible()
  await expect(sites.redirect('/legacy').getByTestId('redirect-destination')).toHaveText('Not in the site any more')

  // Act: paste a CSV with three good lines and two bad ones
  const csv = [
    'source,destination',
    `/old/install,${root}/install`,
    `${root}/usage,https://example.com/usage`,
    '/blog/*,https://blog.example.com',
    'no-slash,/x',
    `/gone,${root}/nope`
  ].join('\n')
  await sites.pasteRedirectsCsv(csv)

  // Assert: the dialog names the bad lines before anything is sent
  const errors = page.getByTestId('redirects-csv-errors')
  await expect(errors).toContainText('Line 5: the source must be a path like /old/page')
  await expect(errors).toContainText(`Line 6: no page, site space or section at ${root}/nope in this site`)
  await expect(page.getByTestId('redirects-csv-summary')).toHaveText('3 redirects ready, 2 lines with errors (left out)')
  await sites.screenshots('redirects-import', testInfo)

  // Act: import the good lines
  await page.getByTestId('redirects-csv-send').click()
  await sites.expectSuccess('3 redirects imported')
  await sites.expectDialogsClosed()

  // Assert: the rows, a destination shown as the site path, and the warning for the source that hides a live page
  await expect(sites.redirectRows).toHaveCount(4)
  await expect(sites.redirect('/old/install').getByTestId('redirect-destination')).toHaveText(`${root}/install`)
  await expect(sites.redirect(`${root}/usage`).getByTestId('redirect-shadows-page')).toBeVisible()
  await expect(sites.redirect('/old/install').getByTestId('redirect-shadows-page')).toHaveCount(0)
  await expect(page.getByTestId('redirect-warnings')).toContainText('1 redirect starts at a live page of the site')
  await expect(page.getByTestId('redirect-warnings')).toContainText(
    '1 redirect leads to a page, site space or section that no longer exists'
  )
  await sites.screenshots('redirects', testInfo)

  // and the API holds them
  const stored = await json<{ count: number; items: { source: string; destination: { kind: string } }[] }>(api.get(`${base}/redirects`))
  expect(stored.count).toBe(4)
  expect(stored.items.find((r) => r.source === '/old/install')!.destination.kind).toBe('site-page')
})

test('a site admin who is not an organization admin manages the site’s redirects: the screen follows the site’s permissions', async ({
  page,
  api,
  otherUser
}, testInfo) => {
  test.setTimeout(90_000)
  // Arrange: an organization reader, and a site.
  const suffix = testInfo.testId.slice(0, 6)
  const keeper = otherUser(`Site keeper ${suffix}`)
  const orgId = await orgIdOf(api)
  expect((await api.post(`/v1/orgs/${orgId}/invites`, { data: { emails: [keeper.email], role: 'read' } })).ok()).toBe(true)
  const site = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/sites`, { data: { title: `Kept site ${suffix}` } }))
  const sites = new SitesPage(page)

  // Assert: as a reader of the site, the redirects are read only.
  await sites.open(keeper.token, `/orgs/${orgId}/sites/${site.id}/redirects`)
  await sites.waitUntilReady()
  await expect(page.getByTestId('redirects-read-only')).toBeVisible()
  await expect(page.getByTestId('add-redirect')).toHaveCount(0)

  // Act: the organization's admin makes them an admin of this site only, and they add a redirect.
  expect((await api.post(`/v1/orgs/${orgId}/sites/${site.id}/permissions`, { data: { role: 'admin', users: [keeper.email] } })).ok()).toBe(
    true
  )
  await page.reload()
  await sites.waitUntilReady()
  await expect(page.getByTestId('redirects-read-only')).toHaveCount(0)
  await page.getByTestId('add-redirect').click()
  await page.getByTestId('redirect-source-input').fill('/old-home')
  await page.getByTestId('redirect-destination-input').fill('https://example.com/home')
  await page.getByRole('button', { name: 'Add', exact: true }).click()

  // Assert: the row, its menu, and the API holds it.
  await sites.expectSuccess('Redirect from /old-home added')
  await expect(sites.redirect('/old-home').getByTestId('redirect-menu')).toBeVisible()
  await sites.screenshots('redirects-site-admin', testInfo)
  const stored = await json<{ items: { source: string }[] }>(api.get(`/v1/orgs/${orgId}/sites/${site.id}/redirects`))
  expect(stored.items.map((r) => r.source)).toEqual(['/old-home'])
})
