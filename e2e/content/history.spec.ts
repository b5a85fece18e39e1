import type { APIRequestContext } from '@playwright/test'
import { test, expect } from '../fixtures/server.ts'
import { HistoryPage } from '../pages/historyPage.ts'
import { json, spaceWithPages } from './seed.ts'

// Arrange helpers: the history is written through the API as merged change requests.
async function mergeChange(api: APIRequestContext, spaceId: string, subject: string, changes: unknown[]): Promise<number> {
  const cr = await json<{ number: number }>(api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject } }))
  await json(api.post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content`, { data: { changes } }))
  expect((await json<{ result: string }>(api.post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/merge`))).result).toBe('merge')
  return cr.number
}
const markdownOf = async (api: APIRequestContext, path: string) => (await json<{ markdown: string }>(api.get(path))).markdown

const OLD_INSTALL = '# Install\n\nAbout Install.\n'
const NEW_INSTALL = '# Install\n\nRun the new installer.\n'

test('the history opens an old revision, compares two revisions and restores one page of an old one', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(120_000)
  // Arrange: Guide and Install merged first (#1), then Install rewritten (#2), then a FAQ added and Guide edited (#3).
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, pages } = await spaceWithPages(api, `History ${suffix}`, ['Guide', 'Install'])
  const ids = Object.fromEntries(pages.map((p) => [p.title, p.id]))
  await mergeChange(api, spaceId, 'Rewrite install', [{ operation: 'update_page', page: ids.Install, document: { markdown: NEW_INSTALL } }])
  await mergeChange(api, spaceId, 'Add a FAQ', [
    { operation: 'insert_page', title: 'FAQ', document: { markdown: '# FAQ\n\nAsk away.\n' } },
    { operation: 'update_page', page: ids.Guide, document: { markdown: '# Guide\n\nAbout Guide, now longer.\n' } }
  ])
  const history = new HistoryPage(page)

  // Act: the History tab lists the merges newest first, each naming its change request.
  await history.openTab(token, spaceId)
  await expect(history.rows.nth(0)).toContainText('#3 Add a FAQ')
  await expect(history.rows.nth(1)).toContainText('#2 Rewrite install')
  await expect(history.rows.nth(2)).toContainText('#1 Seed')
  await expect(history.row('#2 Rewrite install').getByTestId('revision-type')).toHaveText('Merge')
  await expect(history.row('#2 Rewrite install').getByTestId('revision-change-request')).toHaveAttribute(
    'href',
    new RegExp(`/spaces/${spaceId}/change-requests/2$`)
  )
  await history.screenshots('history-timeline', testInfo)

  // The first merge opens read-only, with Install's old text rendered, then as its markdown source.
  await history.openRevision('#1 Seed')
  await expect(history.header.getByTestId('read-only')).toBeVisible()
  await expect(history.header.getByTestId('revision-heading')).toHaveText('#1 Seed')
  await expect(history.header.getByTestId('revision-date')).not.toBeEmpty()
  await expect(history.pageRow('FAQ')).toHaveCount(0)
  await history.selectPage('Install')
  await expect(history.preview.getByRole('heading', { name: 'Install' })).toBeVisible()
  await expect(history.preview).toContainText('About Install.')
  await expect(history.preview).not.toContainText('new installer')
  await history.screenshots('history-revision', testInfo)
  await history.showSource()
  await expect(history.source).toContainText('# Install')
  await expect(page).toHaveURL(/view=source/)

  // #2 compared with the revision before it: Install edited, its old line removed and the new one added.
  await page.getByTestId('history-back').click()
  await history.compareWithPrevious('#2 Rewrite install')
  await expect(history.compareRows).toHaveCount(1)
  await history.selectChange('Install', 'page_edited')
  await expect(history.changedLines('before').filter({ hasText: 'About Install.' })).toHaveCount(1)
  await expect(history.changedLines('after').filter({ hasText: 'Run the new installer.' })).toHaveCount(1)
  await expect(history.changedLines('after').filter({ hasText: '# Install' })).toHaveCount(0)
  await history.screenshots('history-compare', testInfo)

  // Another base: #2 against #3 (the newer one) names the FAQ and Guide too.
  await history.compareWith(/#3 Add a FAQ/)
  await expect(page).toHaveURL(/against=/)
  await expect(history.compareRow('FAQ', 'page_deleted')).toBeVisible()
  await expect(history.compareRow('Guide', 'page_edited')).toBeVisible()
  await expect(history.compareRows).toHaveCount(2)

  // Restore Install alone as #1 had it: a change request opens holding exactly its old text, the rest as now.
  await page.getByTestId('history-back').click()
  await history.openRevision('#1 Seed')
  await history.pageRow('Install').getByTestId('revision-page-tick').check()
  await page.getByTestId('revision-restore').click()
  await expect(page.getByRole('dialog')).toContainText('“Install” goes back')
  await history.confirmRestore()
  await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}/change-requests/4$`))
  await expect(page.getByTestId('cr-detail')).toBeVisible()
  const cr = `/v1/spaces/${spaceId}/change-requests/4`
  expect(await markdownOf(api, `${cr}/content/page/${ids.Install}`)).toBe(OLD_INSTALL)
  expect(await markdownOf(api, `${cr}/content/page/${ids.Guide}`)).toBe('# Guide\n\nAbout Guide, now longer.\n')
  const { pages: tree } = await json<{ pages: { title: string }[] }>(api.get(`${cr}/content/pages`))
  expect(tree.map((p) => p.title).sort()).toEqual(['FAQ', 'Guide', 'Install'])
  // Main is untouched until the change request is merged.
  expect(await markdownOf(api, `/v1/spaces/${spaceId}/content/page/${ids.Install}`)).toBe(NEW_INSTALL)
})

test('pages ticked in a comparison, or a whole revision, are restored through a change request; the palette opens the history', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(120_000)
  // Arrange: as above, Install rewritten (#2), then a FAQ added and Guide edited (#3).
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, pages } = await spaceWithPages(api, `Restore ${suffix}`, ['Guide', 'Install'])
  const ids = Object.fromEntries(pages.map((p) => [p.title, p.id]))
  await mergeChange(api, spaceId, 'Rewrite install', [{ operation: 'update_page', page: ids.Install, document: { markdown: NEW_INSTALL } }])
  await mergeChange(api, spaceId, 'Add a FAQ', [
    { operation: 'insert_page', title: 'FAQ', document: { markdown: '# FAQ\n\nAsk away.\n' } },
    { operation: 'update_page', page: ids.Guide, document: { markdown: '# Guide\n\nAbout Guide, now longer.\n' } }
  ])
  const history = new HistoryPage(page)

  // The palette's "Space history" opens the History tab of the space on screen.
  await history.open(token, `/spaces/${spaceId}`)
  await history.waitUntilReady()
  await page.keyboard.press('ControlOrMeta+K')
  await page.getByTestId('palette-input').fill('history')
  await page.getByTestId('palette-item').filter({ hasText: 'Space history' }).click()
  await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}/history$`))
  await expect(history.tab).toHaveAttribute('aria-selected', 'true')

  // #1 compared against #3: the FAQ #1 does not have cannot be ticked; Install ticked is restored alone.
  await history.compareWithPrevious('#1 Seed')
  await history.compareWith(/#3 Add a FAQ/)
  await expect(history.compareRow('FAQ', 'page_deleted')).toBeVisible()
  await expect(history.compareRow('FAQ', 'page_deleted').getByTestId('compare-tick')).toHaveCount(0)
  await expect(page.getByTestId('compare-restore')).toBeDisabled()
  await history.compareRow('Install', 'page_edited').getByTestId('compare-tick').check()
  await page.getByTestId('compare-restore').click()
  await history.confirmRestore()
  await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}/change-requests/4$`))
  let cr = `/v1/spaces/${spaceId}/change-requests/4`
  expect(await markdownOf(api, `${cr}/content/page/${ids.Install}`)).toBe(OLD_INSTALL)
  expect(await markdownOf(api, `${cr}/content/page/${ids.Guide}`)).toBe('# Guide\n\nAbout Guide, now longer.\n')

  // The newest revision is the space's content: nothing to restore.
  await history.tab.click()
  await history.openRevision('#3 Add a FAQ')
  await expect(page.getByTestId('revision-restore')).toBeDisabled()
  await expect(page.getByTestId('revision-restore')).toHaveAttribute('title', /current content/)

  // The whole of #1 (nothing ticked): the change request holds its two pages as they were, and no FAQ.
  await history.tab.click()
  await history.openRevision('#1 Seed')
  await page.getByTestId('revision-restore').click()
  await expect(page.getByRole('dialog')).toContainText('Every page and file goes back')
  await history.confirmRestore()
  await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}/change-requests/5$`))
  cr = `/v1/spaces/${spaceId}/change-requests/5`
  const { pages: tree } = await json<{ pages: { id: string; title: string }[] }>(api.get(`${cr}/content/pages`))
  expect(tree.map((p) => p.title).sort()).toEqual(['Guide', 'Install'])
  expect(await markdownOf(api, `${cr}/content/page/${ids.Install}`)).toBe(OLD_INSTALL)
  expect(await markdownOf(api, `${cr}/content/page/${ids.Guide}`)).toBe('# Guide\n\nAbout Guide.\n')

  // A revision the space does not have says so in the screen's place, under the space's tabs.
  await page.goto(`/#/spaces/${spaceId}/history/no-such-revision`)
  await expect(page.getByTestId('error')).toContainText('Revision not found')
  await expect(history.tab).toHaveAttribute('aria-selected', 'true')
})
