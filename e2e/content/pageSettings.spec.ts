import { test, expect } from '../fixtures/server.ts'
import { EditorPage } from '../pages/editorPage.ts'
import { SpacesPage } from '../pages/spacesPage.ts'
import { json, orgIdOf, spaceWithPages } from './seed.ts'

type PageInfo = { title: string; slug: string; path: string; emoji?: string; description?: string; hidden: boolean; markdown: string }

test('a new page’s slug follows its title, and a slug edited in the page settings stays', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Slugs ${suffix}`, ['Overview'])
  const editor = new EditorPage(page)
  await editor.openSpace(token, spaceId)

  // A new page: its slug is made from its title, and follows it when it is renamed.
  await editor.addPage()
  await expect(editor.titleInput).toBeFocused()
  await page.keyboard.type('Getting started')
  await page.keyboard.press('Enter')
  await editor.expectSaved()
  await editor.openPageSettings()
  await expect(editor.settingsField('slug')).toHaveValue('getting-started')
  await expect(editor.settingsField('path')).toHaveText('Path: /getting-started')
  await editor.titleInput.fill('Install Quire')
  await editor.titleInput.blur()
  await editor.expectSaved()
  await expect(editor.settingsField('slug')).toHaveValue('install-quire')

  // Edited by hand: checked as typed (the API's rule), saved at once, and kept when the title changes.
  await editor.settingsField('slug').fill('Install Guide')
  await expect(page.getByText('Use lower-case letters and digits')).toBeVisible()
  await expect(editor.settingsField('slug-save')).toBeDisabled()
  await editor.settingsField('slug').fill('install')
  await expect(editor.settingsField('path')).toHaveText('Path: /install')
  await editor.settingsField('slug-save').click()
  const { changeRequest, pageId } = editor.where()
  const pagePath = `/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/page/${pageId}`
  await expect.poll(async () => (await json<PageInfo>(api.get(pagePath))).slug).toBe('install')
  await editor.titleInput.fill('Installing Quire')
  await editor.titleInput.blur()
  await editor.expectSaved()
  expect(await json<PageInfo>(api.get(pagePath))).toMatchObject({ title: 'Installing Quire', slug: 'install', path: 'install' })

  // A sibling's slug is refused by the field, with the API's reason.
  await editor.settingsField('slug').fill('overview')
  await editor.settingsField('slug-save').click()
  await expect(page.getByText('“overview” is the slug of “Overview” beside this page')).toBeVisible()
  expect((await json<PageInfo>(api.get(pagePath))).slug).toBe('install')
  await editor.settingsField('slug').fill('install')

  // The other settings: emoji (the page's own field), description and hidden (its front matter).
  await editor.settingsField('emoji').click()
  await page.getByRole('button', { name: 'Use 🚀' }).click()
  await editor.settingsField('description').fill('How to install it')
  await editor.settingsField('hidden').check()
  await expect(editor.frontMatter).toContainText('hidden')
  await editor.expectSaved()
  await expect.poll(async () => (await json<PageInfo>(api.get(pagePath))).emoji).toBe('🚀')
  expect(await json<PageInfo>(api.get(pagePath))).toMatchObject({ description: 'How to install it', hidden: true })
  expect((await json<PageInfo>(api.get(pagePath))).markdown).toBe('---\ndescription: How to install it\nhidden: true\n---\n\n')
  await expect(editor.row('Installing Quire')).toContainText('🚀')
  await editor.screenshots('page-settings', testInfo)
})

test('an emoji stored as code points is drawn as the emoji in the trees and titles', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const orgId = await orgIdOf(api)
  const title = `Billing ${suffix}`
  const space = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/spaces`, { data: { title, emoji: '1f4b3', empty: true } }))
  const cr = await json<{ number: number }>(api.post(`/v1/spaces/${space.id}/change-requests`, { data: { subject: 'Seed' } }))
  const changes = [{ operation: 'insert_page', title: 'Developers', emoji: '1f468-200d-1f4bb', document: { markdown: 'Code.\n' } }]
  await json(api.post(`/v1/spaces/${space.id}/change-requests/${cr.number}/content`, { data: { changes } }))
  await json(api.post(`/v1/spaces/${space.id}/change-requests/${cr.number}/merge`))

  // The organization's tree.
  const spaces = new SpacesPage(page)
  await spaces.open(token)
  await spaces.waitUntilReady()
  const row = await spaces.reveal(title)
  await expect(row).toContainText('💳')
  await expect(row).not.toContainText('1f4b3')

  // The space's header, its page tree and the page's title.
  const editor = new EditorPage(page)
  await editor.openSpace(token, space.id)
  await expect(page.getByRole('button', { name: 'Change emoji' })).toHaveText('💳')
  await expect(editor.row('Developers')).toContainText('👨‍💻')
  await expect(editor.row('Developers')).not.toContainText('1f468')
  await expect(page.getByTestId('page-editor')).toContainText('👨‍💻')
  await editor.screenshot('emoji-code-points', testInfo)
})
