import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test, expect } from '../fixtures/server.ts'
import { AppShell } from '../pages/appShell.ts'
import { json, spaceWithPages } from './seed.ts'

// A two-page site on loopback, as a documentation site to bring into a space would be.
const PAGES: Record<string, string> = {
  '/': '<h1>Handbook</h1><p>Welcome aboard. Read <a href="/leave">the leave policy</a>.</p>',
  '/leave': '<h1>Leave policy</h1><p>Twenty-five days a year.</p>'
}

let site: Server
let siteUrl: string
test.beforeAll(async () => {
  site = createServer((req, res) => {
    const body = PAGES[req.url ?? '']
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
    res.end(body ? `<!doctype html><html><head><title>Site</title></head><body><main>${body}</main></body></html>` : 'not found')
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`
})
test.afterAll(async () => new Promise<void>((resolve) => site.close(() => resolve())))

test('import a website into a new change request, and see why an address cannot be imported', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `People ${suffix}`, ['About'])
  const app = new AppShell(page)
  await app.open(token, `/spaces/${spaceId}`)
  await app.waitUntilReady()
  const dialog = page.getByRole('dialog', { name: 'Import pages' })
  const openImport = async () => {
    await page.getByTestId('space-menu').click()
    await page.getByTestId('space-import').click()
    await expect(dialog).toBeVisible()
  }

  // An address nothing answers at: the reason shows by the field and no change request is left behind.
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`
  await new Promise<void>((resolve) => closed.close(() => resolve()))
  await openImport()
  // Only http and https addresses are fetched: anything else is refused before a request is sent.
  await page.getByTestId('import-url').fill('ftp://example.com/handbook.md')
  await page.getByTestId('import-submit').click()
  await expect(dialog.getByText('Must be an http or https address')).toBeVisible()
  await page.getByTestId('import-url').fill(deadUrl)
  await page.getByTestId('import-submit').click()
  await expect(dialog.getByText(`${deadUrl} could not be reached (ECONNREFUSED)`)).toBeVisible()
  await app.screenshot('import-refused', testInfo)
  for (const status of ['draft', 'archived']) {
    const left = await json<{ count: number }>(api.get(`/v1/spaces/${spaceId}/change-requests?status=${status}`))
    expect(left.count, `no ${status} change request is left behind`).toBe(0)
  }

  // The site: both pages land in a new change request, which opens for review.
  await page.getByTestId('import-url').fill(siteUrl)
  await page.getByTestId('import-submit').click()
  await expect(dialog).toBeHidden()
  // The space's second change request (the seed's is #1): the failed import opened none.
  await app.expectSuccess(/^Imported 2 pages into change request #2$/)
  await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}/change-requests/\\d+$`))
  await expect(page.getByTestId('changes-count')).toHaveText('2 pages')
  await expect(page.getByTestId('change-title').filter({ hasText: 'Leave policy' })).toBeVisible()
  // Main is unchanged until the change request is merged.
  const main = await json<{ pages: { title: string }[] }>(api.get(`/v1/spaces/${spaceId}/content/pages`))
  expect(main.pages.map((p) => p.title)).toEqual(['About'])
})
