import type { APIRequestContext } from '@playwright/test'
import { test, expect } from '../fixtures/server.ts'
import { ChangeRequestsPage } from '../pages/changeRequestsPage.ts'
import { MergeEditorPage } from '../pages/mergeEditorPage.ts'
import { json, spaceWithPages } from './seed.ts'

interface Cr {
  id: string
  number: number
  status: string
  outdated: boolean
}

const LINES = 'line one\nline two\nline three\nline four\nline five\n'
const crPath = (spaceId: string, cr: string | number, rest = '') => `/v1/spaces/${spaceId}/change-requests/${cr}${rest}`
const openCr = (api: APIRequestContext, spaceId: string, subject: string) =>
  json<Cr>(api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject } }))
const write = (api: APIRequestContext, spaceId: string, cr: Cr, changes: unknown[]) =>
  json<Cr>(api.post(crPath(spaceId, cr.id, '/content'), { data: { changes } }))
const markdownOf = async (api: APIRequestContext, path: string) => (await json<{ markdown: string }>(api.get(path))).markdown

test('three conflicts resolved with main’s lines, the change request’s and both, then merged: main holds the resolutions', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(120_000)
  // Arrange: three pages on main; a change request rewrites line two of each (and line four of Alpha, and moves
  // Gamma under Alpha), while another change request rewrites line two of each and is merged first.
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, pages } = await spaceWithPages(api, `Merge ${suffix}`, ['Alpha', 'Beta', 'Gamma'], () => LINES)
  const id = Object.fromEntries(pages.map((p) => [p.title, p.id])) as Record<'Alpha' | 'Beta' | 'Gamma', string>
  const cr = await openCr(api, spaceId, `Reword line two ${suffix}`)
  await write(api, spaceId, cr, [
    {
      operation: 'update_page',
      page: id.Alpha,
      document: { markdown: LINES.replace('line two', 'line two (cr)').replace('line four', 'line four (cr)') }
    },
    { operation: 'update_page', page: id.Beta, document: { markdown: LINES.replace('line two', 'line two (cr)') } },
    { operation: 'update_page', page: id.Gamma, into: id.Alpha, document: { markdown: LINES.replace('line two', 'line two (cr)') } }
  ])
  const other = await openCr(api, spaceId, 'Main edit')
  await write(
    api,
    spaceId,
    other,
    ['Alpha', 'Beta', 'Gamma'].map((t) => ({
      operation: 'update_page',
      page: id[t as 'Alpha'],
      document: { markdown: LINES.replace('line two', 'line two (main)') }
    }))
  )
  expect((await json<{ result: string }>(api.post(crPath(spaceId, other.id, '/merge')))).result).toBe('merge')

  // The change request's page editor says it conflicts (three pages: Gamma, edited and moved, is one) and leads to the merge editor.
  const editor = new MergeEditorPage(page)
  await editor.open(token, `/spaces/${spaceId}/change-requests/${cr.number}/pages/${id.Alpha}`)
  const notice = page.getByTestId('cr-conflict-notice')
  await expect(notice).toContainText('This change request conflicts with main on 3 pages, this one among them')
  await editor.screenshot('merge-conflict-notice', testInfo)
  await notice.getByRole('link', { name: 'Resolve conflicts' }).click()
  await editor.expectLoaded()
  await expect(editor.pages).toHaveCount(3)
  await expect(editor.progress).toHaveText('0 of 3 pages resolved')
  await expect(editor.updateButton).toBeDisabled()
  await expect(editor.conflict('Alpha').getByTestId('merge-hunk-main')).toHaveText('line two (main)')
  await expect(editor.conflict('Alpha').getByTestId('merge-hunk-base')).toHaveText('line two')
  await expect(editor.conflict('Alpha').getByTestId('merge-hunk-changeRequest')).toHaveText('line two (cr)')
  await expect(editor.result('Alpha')).toContainText('<<<<<<< main')
  await editor.screenshots('merge-editor', testInfo)

  // Act: one choice per page, a line typed into a result, each page marked resolved, then the update.
  await editor.resolveWith('Alpha', 'Accept main')
  await editor.resolveWith('Beta', 'Accept change request')
  await editor.resolveWith('Gamma', 'Accept both')
  for (const title of ['Alpha', 'Beta', 'Gamma']) await expect(editor.pageSection(title).getByTestId('merge-hunk')).toHaveCount(0)
  await editor.result('Beta').click()
  await page.keyboard.press('Control+End')
  await page.keyboard.type('Typed into the result.')
  for (const title of ['Alpha', 'Beta', 'Gamma']) await editor.markResolved(title)
  await expect(editor.progress).toHaveText('3 of 3 pages resolved')
  await editor.screenshots('merge-editor-resolved', testInfo)
  await editor.updateButton.click()
  await editor.expectSuccess(`Conflicts resolved: #${cr.number} is up to date with main`)

  // Back on the change request: up to date, no conflicts, and it merges.
  const crs = new ChangeRequestsPage(page)
  await expect(crs.detail).toBeVisible()
  await expect(crs.outdatedBanner).toHaveCount(0)
  await crs.merge()
  await crs.expectSuccess(`Change request #${cr.number} merged into main`)

  // Assert through the API: main holds each page as resolved (and the change request's own edits).
  const main = (pageId: string) => markdownOf(api, `/v1/spaces/${spaceId}/content/page/${pageId}`)
  expect(await main(id.Alpha)).toBe(LINES.replace('line two', 'line two (main)').replace('line four', 'line four (cr)'))
  expect(await main(id.Beta)).toBe(`${LINES.replace('line two', 'line two (cr)')}Typed into the result.`)
  expect(await main(id.Gamma)).toBe(LINES.replace('line two', 'line two (main)\nline two (cr)'))
  const tree = await json<{ pages: { id: string; pages: { id: string }[] }[] }>(api.get(`/v1/spaces/${spaceId}/content/pages`))
  expect(tree.pages.find((p) => p.id === id.Alpha)!.pages.map((p) => p.id)).toEqual([id.Gamma])
})

test('the change request screen counts a moved-and-edited conflicting page once and leads to the merge editor', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, pages } = await spaceWithPages(api, `Moves ${suffix}`, ['Home', 'Guide'], () => LINES)
  const [home, guide] = pages.map((p) => p.id) as [string, string]
  const cr = await openCr(api, spaceId, `Move the guide ${suffix}`)
  await write(api, spaceId, cr, [
    { operation: 'update_page', page: guide, into: home, document: { markdown: LINES.replace('line two', 'mine') } }
  ])
  const other = await openCr(api, spaceId, 'Main edit')
  await write(api, spaceId, other, [{ operation: 'update_page', page: guide, document: { markdown: LINES.replace('line two', 'theirs') } }])
  expect((await json<{ result: string }>(api.post(crPath(spaceId, other.id, '/merge')))).result).toBe('merge')

  const crs = new ChangeRequestsPage(page)
  await crs.open(token, `/spaces/${spaceId}/change-requests/${cr.number}`)
  await expect(crs.detail).toBeVisible()
  await expect(crs.outdatedBanner).toContainText('1 page conflicts with main')
  await crs.outdatedBanner.getByRole('link', { name: 'Resolve conflicts' }).click()
  const editor = new MergeEditorPage(page)
  await editor.expectLoaded()
  await expect(editor.pages).toHaveCount(1)
  await expect(editor.progress).toHaveText('0 of 1 page resolved')
})
