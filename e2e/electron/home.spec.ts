import type { QuireBridge } from '../../src-shared/ipc.ts'
import { test, expect } from '../fixtures/electron.ts'
import { HomePage } from '../pages/homePage.ts'

test('desktop app lists the local organization', async ({ mainWindow }, testInfo) => {
  const home = new HomePage(mainWindow)

  await home.waitUntilReady()

  // The title comes from the embedded API, asked through the same bridge the renderer uses.
  const res = await mainWindow.evaluate(() =>
    (window as unknown as { quire: QuireBridge }).quire.request({ method: 'GET', path: '/v1/orgs' })
  )
  const orgs = JSON.parse(res.body as string) as { items: { title: string }[] }
  await expect(home.organization(orgs.items[0]!.title)).toBeVisible()
  await home.screenshot('desktop-home', testInfo)
})
