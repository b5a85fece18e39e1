import { test, expect } from '../fixtures/server.ts'
import { json, orgIdOf } from '../content/seed.ts'
import { AppShell } from '../pages/appShell.ts'

test('the organization’s merge rules show their place loading until the stored ones are read, never defaults', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  // Arrange: the organization requires a subject (put back afterwards: the worker's tests share the organization).
  const orgId = await orgIdOf(api)
  const before = (await json<{ mergeRules: unknown }>(api.get(`/v1/orgs/${orgId}`))).mergeRules
  await json(
    api.patch(`/v1/orgs/${orgId}`, { data: { mergeRules: { type: 'rules', rules: [{ rule: 'require_change_request_subject' }] } } })
  )
  try {
    // and the app has read the organization on its home, then the data's freshness passed while its next reading is held.
    await page.clock.install()
    const shell = new AppShell(page)
    await shell.open(token, `/orgs/${orgId}`)
    await shell.waitUntilReady()
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(`**/v1/orgs/${orgId}`, async (route) => {
      if (route.request().method() === 'GET') await held
      await route.continue()
    })
    await page.clock.fastForward('01:00')

    // Act: open the organization's settings.
    await shell.navigate('settings')

    // Assert: the rules' place is loading; no choice is shown or can be saved.
    await expect(page.getByTestId('merge-rules-loading')).toBeVisible()
    await expect(page.getByTestId('merge-rules-form')).toHaveCount(0)
    await expect(page.getByTestId('merge-rules-save')).toHaveCount(0)
    await page.getByTestId('merge-rules-loading').scrollIntoViewIfNeeded()
    await shell.screenshots('org-merge-rules-loading', testInfo)

    // Act: the organization's answer arrives.
    release()

    // Assert: the stored rules.
    const form = page.getByTestId('merge-rules-form')
    await expect(form.getByRole('radio', { name: 'These rules' })).toBeChecked()
    await expect(form.getByRole('checkbox', { name: 'A subject' })).toBeChecked()
    await expect(page.getByTestId('merge-rules-loading')).toHaveCount(0)
    await form.scrollIntoViewIfNeeded()
    await shell.screenshots('org-merge-rules', testInfo)
  } finally {
    expect((await api.patch(`/v1/orgs/${orgId}`, { data: { mergeRules: before } })).ok()).toBe(true)
  }
})
