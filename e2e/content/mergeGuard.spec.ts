import { test, expect } from '../fixtures/server.ts'
import { json, spaceWithPages } from './seed.ts'
import { ChangeRequestsPage } from '../pages/changeRequestsPage.ts'

// The merge guard: a change request that would leave links leading nowhere says so on its screen, and Merge asks
// before it merges ("Merge anyway").
test('a change request that breaks links lists them, and Merge asks before merging', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  // Arrange: main's Guide links Setup; the change request removes Setup and adds a page linking a page nobody wrote.
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const subject = `Retire setup ${suffix}`
  const { spaceId, pages } = await spaceWithPages(api, `Guarded ${suffix}`, ['Guide', 'Setup'], (t) =>
    t === 'Guide' ? '# Guide\n\nStart with [setup](./setup).\n' : `# ${t}\n\nAbout ${t}.\n`
  )
  const setup = pages.find((p) => p.title === 'Setup')!.id
  const cr = await json<{ id: string; number: number }>(api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject } }))
  await json(
    api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      data: {
        changes: [
          { operation: 'delete_page', page: setup },
          { operation: 'insert_page', title: 'Notes', document: { markdown: '# Notes\n\nSee the [roadmap](/roadmap).\n' } }
        ]
      }
    })
  )
  const crs = new ChangeRequestsPage(page)

  // Act: open it from the list (a user's own draft is on the list it opens on).
  await crs.openTab(token, spaceId)
  await crs.openChangeRequest(subject)

  // Assert: the notice names both links, the page holding each and why each leads nowhere.
  await expect(crs.mergeGuard).toContainText('Merging breaks 2 links')
  await expect(crs.brokenLink(crs.mergeGuard, 'Guide', './setup').getByTestId('broken-link-why')).toHaveText(
    'This change request removes “Setup”'
  )
  await expect(crs.brokenLink(crs.mergeGuard, 'Notes', '/roadmap').getByTestId('broken-link-why')).toHaveText('No page at this path')
  await page.mouse.move(0, 0)
  await crs.screenshots('merge-guard', testInfo)

  // Merge asks first, listing them; Cancel merges nothing.
  await crs.startMergeBreakingLinks()
  await expect(crs.brokenLink(crs.mergeGuardDialog, 'Guide', './setup')).toBeVisible()
  await expect(crs.brokenLink(crs.mergeGuardDialog, 'Notes', '/roadmap')).toBeVisible()
  await crs.screenshots('merge-guard-confirm', testInfo)
  await crs.mergeGuardDialog.getByRole('button', { name: 'Cancel' }).click()
  await crs.expectDialogsClosed()
  await expect(crs.status).toHaveText('Draft')
  expect((await json<{ status: string }>(api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`))).status).toBe('draft')

  // "Merge anyway" merges.
  await crs.startMergeBreakingLinks()
  await crs.mergeGuardDialog.getByRole('button', { name: 'Merge anyway' }).click()
  await crs.expectSuccess(`Change request #${cr.number} merged into main`)
  await expect(crs.status).toHaveText('Merged')
  await expect(crs.mergeGuard).toHaveCount(0)

  // Assert through the API: merged, and main now has the two broken links.
  expect((await json<{ status: string }>(api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`))).status).toBe('merged')
  const broken = await json<{ items: { href: string }[] }>(api.get(`/v1/spaces/${spaceId}/links?status=broken`))
  expect(broken.items.map((l) => l.href).sort()).toEqual(['./setup', '/roadmap'])
})

test('a change request that breaks no link merges as before', async ({ page, token, api }, testInfo) => {
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const subject = `Add FAQ ${suffix}`
  const { spaceId } = await spaceWithPages(api, `Unguarded ${suffix}`, ['Guide'])
  const cr = await json<{ id: string; number: number }>(api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject } }))
  await json(
    api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      data: { changes: [{ operation: 'insert_page', title: 'FAQ', document: { markdown: '# FAQ\n\nBack to the [guide](/guide).\n' } }] }
    })
  )
  const crs = new ChangeRequestsPage(page)
  await crs.openTab(token, spaceId)
  await crs.openChangeRequest(subject)
  await expect(crs.changeRows).toHaveCount(1)
  // Merge asks as it always did (no list of links), and merges.
  await page.getByTestId('cr-merge').click()
  await expect(page.getByRole('dialog', { name: `Merge #${cr.number} into main?` })).toBeVisible()
  await expect(crs.mergeGuardDialog).toHaveCount(0)
  await page.getByTestId('confirm-merge').click()
  await crs.expectSuccess(`Change request #${cr.number} merged into main`)
  await expect(crs.mergeGuard).toHaveCount(0)
  expect((await json<{ status: string }>(api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`))).status).toBe('merged')
})
