import { test, expect } from '../fixtures/server.ts'
import { EditorPage } from '../pages/editorPage.ts'
import { spaceWithPages } from './seed.ts'

test('F1 opens the command palette, and "New page" adds a page to the space it is in', async ({ page, token, api }, testInfo) => {
  // Arrange
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Palette ${suffix}`, ['Welcome'])
  const editor = new EditorPage(page)
  await editor.openSpace(token, spaceId)
  await expect(editor.row('Welcome')).toBeVisible()

  // Act: F1 opens the palette with the commands of a space, each with its shortcut where it has one.
  await page.keyboard.press('F1')
  const palette = page.getByTestId('palette-input')
  await expect(palette).toBeFocused()
  const command = (id: string) => page.locator(`[data-command="${id}"]`)
  await expect(command('new-page')).toBeVisible()
  await expect(command('new-change-request')).toBeVisible()
  await expect(command('space-files')).toBeVisible()
  await expect(command('go-sites')).toBeVisible()
  await expect(command('shortcuts')).toContainText(/\?/)
  await editor.screenshots('palette', testInfo)
  await palette.fill('new page')
  await command('new-page').click()

  // Assert: a new page in a draft change request, open with its title selected.
  await expect(palette).toBeHidden()
  await expect(editor.row('Untitled')).toBeVisible()
  await expect(editor.titleInput).toHaveValue('Untitled')
  expect(editor.where().changeRequest).toBeGreaterThan(0)
})

test('Ctrl+Shift+P opens the palette; commands that need a space stay out of the organization screens', async ({ page, token }) => {
  const shell = new EditorPage(page)
  await shell.open(token)
  await shell.waitUntilReady()

  await page.keyboard.press('ControlOrMeta+Shift+P')

  await expect(page.getByTestId('palette-input')).toBeFocused()
  await expect(page.locator('[data-command="new-space"]')).toBeVisible()
  await expect(page.locator('[data-command="new-page"]')).toHaveCount(0)
  // The same keys close it again.
  await page.keyboard.press('ControlOrMeta+Shift+P')
  await expect(page.getByTestId('palette-input')).toBeHidden()
})

test('the shortcuts sheet lists every shortcut: opened by ?, by Ctrl+/ and from the palette', async ({ page, token }, testInfo) => {
  const shell = new EditorPage(page)
  await shell.open(token)
  await shell.waitUntilReady()
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' })

  // "?" outside a field
  await page.keyboard.press('Shift+?')
  await expect(sheet).toBeVisible()
  for (const title of ['Command palette', 'Keyboard shortcuts', 'Bold', 'Comment on the selected text', 'Send a comment or reply']) {
    await expect(sheet.getByTestId('shortcut-title').getByText(title, { exact: true })).toBeVisible()
  }
  await expect(sheet.getByLabel('Ctrl+Shift+P')).toBeVisible()
  await shell.screenshots('shortcuts-sheet', testInfo)
  await page.keyboard.press('Escape')
  await expect(sheet).toBeHidden()

  // "?" typed into a field stays a question mark.
  await page.getByTestId('open-palette').click()
  await page.getByTestId('palette-input').pressSequentially('keyboard?')
  await expect(page.getByTestId('palette-input')).toHaveValue('keyboard?')
  await expect(sheet).toBeHidden()
  await page.getByTestId('palette-input').fill('shortcuts')
  await page.locator('[data-command="shortcuts"]').click()
  await expect(sheet).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(sheet).toBeHidden()

  await page.keyboard.press('ControlOrMeta+/')
  await expect(sheet).toBeVisible()
})
