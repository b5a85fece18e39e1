import { test, expect } from '../fixtures/server.ts'
import { ChangeRequestsPage } from '../pages/changeRequestsPage.ts'
import { EditorPage } from '../pages/editorPage.ts'
import { ReusableContentsPage } from '../pages/reusableContentsPage.ts'
import { json, spaceWithPages } from './seed.ts'

type Revision = { reusableContents: { id: string; title: string; markdown: string; path?: string; git?: { path?: string } }[] }

test('make a reusable content in the app, include it in a page, edit it in a change request: the page shows the new text', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(120_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, pages } = await spaceWithPages(api, `Reuse ${suffix}`, ['Help'])
  const screen = new ReusableContentsPage(page)
  await screen.openTab(token, spaceId)
  await expect(page.getByTestId('reusable-empty')).toBeVisible()

  // Made on the main content: it goes into a draft change request, which the screen then shows.
  await page.getByTestId('reusable-new').click()
  await screen.title.fill('Support note')
  await screen.typeMarkdown('Write to help@example.com.')
  await screen.save()
  await expect(screen.scope).toContainText(/Change request #\d+/)
  await expect(screen.item('Support note')).toContainText('.gitbook/includes/support-note.md')
  const number = Number(new URL(page.url()).hash.match(/cr=(\d+)/)![1])
  const draft = await json<Revision>(api.get(`/v1/spaces/${spaceId}/change-requests/${number}/content`))
  expect(draft.reusableContents.map((c) => [c.title, c.markdown, c.path])).toEqual([
    ['Support note', 'Write to help@example.com.', '.gitbook/includes/support-note.md']
  ])
  await screen.screenshots('reusable-contents', testInfo)

  // Included in a page (written through the API), and both merged.
  const changes = [
    {
      operation: 'update_page',
      page: pages[0]!.id,
      document: { markdown: '# Help\n\n{% include ".gitbook/includes/support-note.md" %}\n' }
    }
  ]
  await json(api.post(`/v1/spaces/${spaceId}/change-requests/${number}/content`, { data: { changes } }))
  await json(api.post(`/v1/spaces/${spaceId}/change-requests/${number}/merge`))

  // Edited from the main content: a new draft change request, merged from its screen.
  await screen.openTab(token, spaceId)
  await screen.item('Support note').click()
  await expect(screen.title).toHaveValue('Support note')
  await screen.typeMarkdown('Write to support@example.com, any day.')
  await screen.save()
  await expect(screen.scope).toContainText(/Change request #\d+/)
  const second = Number(new URL(page.url()).hash.match(/cr=(\d+)/)![1])
  expect(second).not.toBe(number)
  await page.getByTestId('reusable-cr-link').click()
  const crs = new ChangeRequestsPage(page)
  await expect(crs.detail).toBeVisible()
  // The change request says what it does to the reusable contents (it changes no page).
  await expect(page.getByTestId('cr-reusable-changes')).toContainText('edited')
  await expect(page.getByTestId('cr-reusable-change')).toHaveText('Support note')
  await crs.screenshot('reusable-contents-change-request', testInfo)
  await crs.merge()
  await expect(crs.status).toHaveText(/merged/i)

  // The page that includes it shows the new text.
  const editor = new EditorPage(page)
  await editor.open(token, `/spaces/${spaceId}/pages/${pages[0]!.id}`)
  await editor.waitUntilReady()
  await editor.setMode('Preview')
  await expect(editor.preview.getByText('Write to support@example.com, any day.')).toBeVisible()
  await expect(editor.preview).not.toContainText('help@example.com')
})

test('delete a reusable content in a change request', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Reuse delete ${suffix}`, ['Help'])
  const cr = await json<{ number: number }>(api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject: 'Seed' } }))
  const changes = [{ operation: 'insert_reusable_content', title: 'Old note', document: { markdown: 'Old.\n' } }]
  await json(api.post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content`, { data: { changes } }))
  await json(api.post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/merge`))

  const screen = new ReusableContentsPage(page)
  await screen.openTab(token, spaceId)
  await screen.item('Old note').click()
  await page.getByTestId('reusable-delete').click()
  await screen.dialogSettled()
  await page.getByTestId('confirm-delete-reusable').click()
  await expect(screen.scope).toContainText(/Change request #\d+/)
  await expect(screen.items).toHaveCount(0)
  const number = Number(new URL(page.url()).hash.match(/cr=(\d+)/)![1])
  expect((await json<Revision>(api.get(`/v1/spaces/${spaceId}/change-requests/${number}/content`))).reusableContents).toEqual([])
  // Main keeps it until the change request is merged.
  expect((await json<Revision>(api.get(`/v1/spaces/${spaceId}/content`))).reusableContents.map((c) => c.title)).toEqual(['Old note'])
})
