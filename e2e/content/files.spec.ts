import { test, expect } from '../fixtures/server.ts'
import { AppShell } from '../pages/appShell.ts'
import { json, orgIdOf } from './seed.ts'

// A 2×1 PNG (one red pixel, one blue).
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=='

test('the Files tab lists the files of a space, what they are and the pages using them', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  // Arrange: an image shown by a page, and a text file no page uses (both merged into main).
  const orgId = await orgIdOf(api)
  const space = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/spaces`, { data: { title: `Media ${suffix}`, empty: true } }))
  const cr = await json<{ number: number }>(api.post(`/v1/spaces/${space.id}/change-requests`, { data: { subject: 'Files' } }))
  const files = [
    { name: 'diagram.png', contentType: 'image/png', base64: PNG, ref: 'diagram' },
    { name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('plain notes').toString('base64'), ref: 'notes' }
  ]
  const changes = [
    { operation: 'insert_files', files },
    { operation: 'insert_page', title: 'Architecture', document: { markdown: '# Architecture\n\n![The diagram](/files/diagram)\n' } }
  ]
  await json(api.post(`/v1/spaces/${space.id}/change-requests/${cr.number}/content`, { data: { changes } }))
  await json(api.post(`/v1/spaces/${space.id}/change-requests/${cr.number}/merge`))
  const app = new AppShell(page)
  await app.open(token, `/spaces/${space.id}`)
  await app.waitUntilReady()

  // Act: open the Files tab.
  await page.getByTestId('tab-files').click()

  // Assert: both files, what they are, their size and the image's dimensions (read from its bytes).
  const rows = page.getByTestId('file-row')
  await expect(rows).toHaveCount(2)
  await expect(page.getByTestId('files-count')).toHaveText(/^2 files · \d+ B$/)
  const image = rows.filter({ hasText: 'diagram.png' })
  await expect(image).toContainText('PNG image')
  await expect(image).toContainText('2 × 1')
  await expect(image.locator('img')).toHaveJSProperty('naturalWidth', 2)
  await expect(rows.filter({ hasText: 'notes.txt' })).toContainText('11 B')
  await app.screenshot('files-tab', testInfo)

  // The filter narrows by name.
  await page.getByTestId('files-filter').fill('NOTES')
  await expect(rows).toHaveCount(1)
  await expect(page.getByTestId('files-count')).toContainText('1 of 2 files')
  await page.getByTestId('files-filter').fill('')

  // "Pages…": the text file is used nowhere; the image by Architecture, which opens.
  await rows.filter({ hasText: 'notes.txt' }).getByTestId('file-used-in').click()
  await expect(page.getByTestId('file-backlinks')).toHaveText('No page uses this file.')
  await page.keyboard.press('Escape')
  await image.getByTestId('file-used-in').click()
  await page.getByTestId('file-backlink').filter({ hasText: 'Architecture' }).click()
  await expect(page).toHaveURL(/\/pages\/[^/]+$/)
  await expect(page.getByTestId('page-title-input')).toHaveValue('Architecture')
})
