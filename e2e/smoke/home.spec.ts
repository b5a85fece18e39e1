import { test, expect } from '../fixtures/server.ts'
import { HomePage } from '../pages/homePage.ts'

interface OrgList {
  items: { id: string; title: string }[]
}

test('home shows the bootstrap organization', async ({ page, token, api }, testInfo) => {
  // Arrange: the first start created one organization; learn its title from the API.
  const orgs = (await (await api.get('/v1/orgs')).json()) as OrgList
  expect(orgs.items.length).toBeGreaterThan(0)
  const { title } = orgs.items[0]!
  const home = new HomePage(page)

  // Act
  await home.open(token)
  await home.waitUntilReady()

  // Assert
  await expect(home.organization(title)).toBeVisible()
  await expect(home.pageTitle).toHaveText('Spaces')
  await expect(home.currentUser).not.toBeEmpty()
  expect(page.url(), 'the token is removed from the address').not.toContain('token=')
  // (No script errors or CSP violations: the pageProblems fixture checks every test.)
  await home.screenshot('home', testInfo)
})

test('home without a token says how to sign in', async ({ page }) => {
  const home = new HomePage(page)

  await home.open()

  await home.expectSignedOut()
})
