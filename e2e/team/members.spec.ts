import { test, expect } from '../fixtures/server.ts'
import { json } from '../content/seed.ts'
import { TeamPage } from '../pages/teamPage.ts'

test('a page of members that fails to load says so and waits for "Try again" instead of asking again and again', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  // Arrange: more members than one page of the list (100), so scrolling down asks for a second page.
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`.toLowerCase()
  // An organization of its own: other specs of this worker find their own rows on the first screen of theirs.
  const orgId = (await json<{ id: string }>(api.post('/v1/orgs', { data: { title: `Paged ${suffix}` } }))).id
  const emails = Array.from({ length: 100 }, (_, i) => `paged.${suffix}.${i}@example.com`)
  expect((await api.post(`/v1/orgs/${orgId}/invites`, { data: { emails, role: 'read' } })).status()).toBe(204)
  const { count } = await json<{ count: number }>(api.get(`/v1/orgs/${orgId}/members`, { params: { limit: 1 } }))
  expect(count).toBeGreaterThan(100)

  // The next page fails (the app's own retries included) until the test lets it through.
  let nextPages = 0
  let failing = true
  await page.route(/\/v1\/orgs\/[^/]+\/members\?.*page=/, async (route) => {
    nextPages++
    if (failing)
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 503, message: 'Server unreachable' } })
      })
    else await route.continue()
  })
  const team = new TeamPage(page)
  await team.open(token, `/orgs/${orgId}/team`)
  await team.waitUntilReady()
  await expect(team.memberRows.first()).toBeVisible()

  // Act: scroll to the end of the loaded rows.
  await page.locator('[data-scroll-root]').evaluate((el) => el.scrollTo(0, el.scrollHeight))

  // Assert: the failure is shown with a retry, and the list does not ask again by itself.
  const status = page.getByTestId('next-page-status')
  await expect(status).toContainText('More members could not be read: Server unreachable', { timeout: 15_000 })
  const asked = nextPages
  failing = false
  await page.locator('[data-scroll-root]').evaluate((el) => el.scrollBy(0, -200))
  await page.locator('[data-scroll-root]').evaluate((el) => el.scrollTo(0, el.scrollHeight))
  await expect(status).toContainText('could not be read')
  expect(nextPages).toBe(asked)
  await team.screenshots('members-next-page-failed', testInfo)

  // "Try again" loads the page.
  await page.getByTestId('next-page-retry').click()
  await expect(status).toHaveCount(0)
  expect(nextPages).toBe(asked + 1)
  await expect(team.memberRows.first()).toBeVisible()
})
