import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test, expect } from '../fixtures/server.ts'
import { AppShell } from '../pages/appShell.ts'
import { json, spaceWithPages } from './seed.ts'

// A site of a first page linking to 20 slow ones (each answers after 8 s, within the import's 10 s per request;
// four are read at a time), so the import runs long enough to be watched and cancelled.
const SLOW = Array.from({ length: 20 }, (_, i) => `/policy-${i + 1}`)
let site: Server
let siteUrl: string
test.beforeAll(async () => {
  site = createServer((req, res) => {
    res.on('error', () => {})
    const send = (body: string) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html><body><main>${body}</main></body></html>`)
    if (req.url === '/') send(`<h1>Handbook</h1>${SLOW.map((path) => `<p><a href="${path}">${path}</a></p>`).join('')}`)
    else if (SLOW.includes(req.url ?? '')) setTimeout(() => send(`<h1>Policy ${req.url}</h1><p>Text.</p>`), 8000)
    else res.writeHead(404).end('not found')
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`
})
test.afterAll(async () => {
  site.closeAllConnections()
  await new Promise<void>((resolve) => site.close(() => resolve()))
})

test('an import shows its progress and can be cancelled, leaving nothing behind; a PDF export shows its progress', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Progress ${suffix}`, ['About'])
  const app = new AppShell(page)
  await app.open(token, `/spaces/${spaceId}`)
  await app.waitUntilReady()
  const dialog = page.getByRole('dialog', { name: 'Import pages' })

  await page.getByTestId('space-menu').click()
  await page.getByTestId('space-import').click()
  await page.getByTestId('import-url').fill(siteUrl)
  await page.getByTestId('import-submit').click()
  // The first page is read; the others take their time.
  await expect(dialog.getByTestId('job-progress-text')).toHaveText('Reading pages · 1 read')
  await app.screenshots('import-progress', testInfo)
  await dialog.getByTestId('import-cancel').click()
  await expect(page.getByText('Import cancelled: nothing was imported')).toBeVisible()
  await expect(dialog.getByTestId('job-progress')).toHaveCount(0)
  for (const status of ['draft', 'open']) {
    const left = await json<{ count: number }>(api.get(`/v1/spaces/${spaceId}/change-requests?status=${status}`))
    expect(left.count, `no ${status} change request is left behind`).toBe(0)
  }
  const main = await json<{ pages: { title: string }[] }>(api.get(`/v1/spaces/${spaceId}/content/pages`))
  expect(main.pages.map((p) => p.title)).toEqual(['About'])
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()

  // The PDF: the export follows the drawing until the file is saved.
  const saved = page.waitForEvent('download')
  await page.getByTestId('space-menu').click()
  await page.getByTestId('space-export-pdf').click()
  const download = await saved
  expect(download.suggestedFilename()).toMatch(/\.pdf$/)
  await expect(page.getByRole('dialog', { name: 'Exporting PDF' })).toBeHidden()
})
