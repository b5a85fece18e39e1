import { test, expect } from '../fixtures/server.ts'
import { EditorPage } from '../pages/editorPage.ts'
import { LinksPage } from '../pages/linksPage.ts'
import { spaceWithPages } from './seed.ts'

test('the Links tab shows which links lead nowhere, and opens the page holding one', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  // Arrange: "Guide" links a page that exists, one that does not, a missing image and a website.
  const { spaceId, pages } = await spaceWithPages(api, `Links ${suffix}`, ['Guide', 'Install'], (t) =>
    t === 'Guide'
      ? '# Guide\n\nFirst [install it](./install), then [configure it](./configure).\n\n![Diagram](/files/nope)\n\nMore on [the site](https://example.com/docs).\n'
      : `# ${t}\n\nAbout ${t}.\n`
  )
  const guide = pages.find((p) => p.title === 'Guide')!
  const links = new LinksPage(page)
  const editor = new EditorPage(page)
  await editor.openSpace(token, spaceId)

  // Act: open the space's Links tab.
  await links.tab.click()

  // Assert: every link with its status and totals over the space; the broken ones say why.
  await expect(links.stats).toContainText('4 links')
  await expect(links.brokenCount).toHaveText('2 broken')
  await expect(links.rows).toHaveCount(4)
  await expect(links.row('Install')).toHaveAttribute('data-status', 'ok')
  await expect(links.row('https://example.com/docs')).toHaveAttribute('data-status', 'ok')
  await expect(links.row('/configure')).toHaveAttribute('data-status', 'broken')
  await expect(links.row('/configure').getByTestId('link-note')).toHaveText('No page at this path')
  await expect(links.row('nope')).toHaveAttribute('data-status', 'broken')
  await links.screenshot('links-all', testInfo)

  // The Broken filter lists only those, kept in the address; the totals stay the space's.
  await links.filter('Broken')
  await expect(page).toHaveURL(/\/links\?status=broken$/)
  await expect(links.rows).toHaveCount(2)
  await expect(links.rows.and(page.locator('[data-status="ok"]'))).toHaveCount(0)
  await expect(links.stats).toContainText('4 links')
  await links.filter('In-app')
  await expect(links.empty).toContainText('No in-app links')

  // The page holding a broken link opens in the editor, to fix it there.
  await links.filter('Broken')
  await links.row('/configure').getByTestId('link-page').click()
  await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}/pages/${guide.id}$`))
  await expect(editor.markdown).toContainText('[configure it](./configure)')
})
