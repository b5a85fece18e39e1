import { test, expect } from '../fixtures/server.ts'
import { ChangeRequestsPage } from '../pages/changeRequestsPage.ts'
import { EditorPage, type TextContrast } from '../pages/editorPage.ts'
import { json, spaceWithPages } from './seed.ts'

// The writing layout: the editor fills the window, panes resize and stay so, focus mode, and dark-mode contrast.

const GUIDE = [
  '# Install guide',
  '',
  'Read the [release notes](https://example.com/releases/latest) first, then **install** the *app*.',
  '',
  '## Steps',
  '',
  '- Run `quire --setup` in a terminal',
  '- Open <https://example.com/start>',
  '',
  '> A quoted note with ~~old~~ text.',
  '',
  '```sh',
  'quire --version',
  '```',
  ''
].join('\n')

async function openGuide(editor: EditorPage, token: string, spaceId: string) {
  await editor.openSpace(token, spaceId)
  await editor.row('Install guide').click()
  await expect(editor.titleInput).toHaveValue('Install guide')
  await expect(editor.preview.getByRole('heading', { name: 'Install guide' })).toBeVisible()
}

/** Texts below WCAG AA's 4.5:1, for a readable failure. */
const below = (texts: TextContrast[]) => texts.filter((t) => t.ratio < 4.5)

test('the editor fills the window below one header, and keeps 480 px beside the comments at 1024×700', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Layout ${suffix}`, ['Overview', 'Install guide'], (t) =>
    t === 'Install guide' ? GUIDE : `# ${t}\n`
  )
  const editor = new EditorPage(page)
  const panes = editor.panes
  await page.setViewportSize({ width: 1440, height: 900 })
  await openGuide(editor, token, spaceId)

  // 1440×900: the text starts right under the shell's header and the editor's one-line header, down to the bottom.
  const wide = await editor.box(panes.editor)
  expect(wide.y).toBeLessThanOrEqual(120)
  expect(wide.y + wide.height).toBeGreaterThanOrEqual(900 - 1)
  expect(wide.width).toBeGreaterThanOrEqual(400)
  const header = await editor.box(panes.header)
  expect(header.height).toBeLessThanOrEqual(48)
  await editor.screenshots('editor', testInfo)

  // 1024×700 with the comments open: the preview and the tree give way, the editor keeps room to write.
  await page.setViewportSize({ width: 1024, height: 700 })
  await panes.toggleComments.click()
  await expect(panes.comments).toBeVisible()
  const narrow = await editor.box(panes.editor)
  expect(narrow.width).toBeGreaterThanOrEqual(480)
  expect(narrow.y + narrow.height).toBeGreaterThanOrEqual(700 - 1)
  await expect(panes.previewPane).toHaveCount(0)
  await expect(panes.tree).toHaveCount(0)
  // Nothing covers the panel's buttons or the editor's, and no label is cut.
  await panes.closeComments.click({ trial: true })
  await panes.toggleComments.click({ trial: true })
  const cut = await panes.header.evaluate((h) =>
    [h, ...Array.from(h.querySelectorAll('button, a, label'))].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)
  )
  expect(cut, 'header controls whose content is cut').toEqual([])
  // The narrow toolbar's More menu holds what the header leaves out.
  await page.getByTestId('editor-more').click()
  await expect(page.getByTestId('editor-more-menu').getByText('Upload files…')).toBeVisible()
  await page.keyboard.press('Escape')
  // The tree, asked for, comes over the editor and goes again.
  await page.getByTestId('show-tree').click()
  await expect(panes.tree).toBeVisible()
  await page.getByTestId('hide-tree').click()
  await expect(panes.tree).toHaveCount(0)
  // Esc in its search box clears the search first; the next Esc closes the tree.
  await page.getByTestId('show-tree').click()
  const search = panes.tree.getByTestId('space-search-input')
  await search.fill('intro')
  await search.press('Escape')
  await expect(search).toHaveValue('')
  await expect(panes.tree).toBeVisible()
  await search.press('Escape')
  await expect(panes.tree).toHaveCount(0)
  await editor.screenshots('editor-comments', testInfo)

  // The panel's own close button closes it.
  await page.setViewportSize({ width: 1024, height: 700 })
  await panes.closeComments.click()
  await expect(panes.comments).toHaveCount(0)
  await expect(panes.previewPane).toBeVisible()
})

test('panes resized by dragging and by keys keep their sizes after a reload', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Panes ${suffix}`, ['Install guide'], () => GUIDE)
  const editor = new EditorPage(page)
  const panes = editor.panes
  await page.setViewportSize({ width: 1440, height: 900 })
  await openGuide(editor, token, spaceId)

  // Drag: the tree grows by 60 px.
  const before = (await editor.box(panes.tree)).width
  await editor.dragSeparator(panes.treeSeparator, 60)
  await expect.poll(async () => Math.round((await editor.box(panes.tree)).width)).toBe(Math.round(before + 60))
  await expect(panes.treeSeparator).toHaveAttribute('aria-valuenow', String(Math.round(before + 60)))

  // Keys: the preview grows by two steps (its separator moves left).
  const preview = Number(await panes.previewSeparator.getAttribute('aria-valuenow'))
  await panes.previewSeparator.focus()
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await expect(panes.previewSeparator).toHaveAttribute('aria-valuenow', String(preview + 32))
  const previewWidth = Math.round((await editor.box(panes.previewPane)).width)

  // And the comments, by Shift+arrow.
  await panes.toggleComments.click()
  const comments = Number(await panes.commentsSeparator.getAttribute('aria-valuenow'))
  await panes.commentsSeparator.focus()
  await page.keyboard.press('Shift+ArrowLeft')
  await expect(panes.commentsSeparator).toHaveAttribute('aria-valuenow', String(comments + 64))
  await panes.toggleComments.click()
  await expect(panes.comments).toHaveCount(0)

  await page.reload()
  await editor.waitUntilReady()
  await expect(editor.titleInput).toHaveValue('Install guide')
  await expect(panes.treeSeparator).toHaveAttribute('aria-valuenow', String(Math.round(before + 60)))
  expect(Math.round((await editor.box(panes.tree)).width)).toBe(Math.round(before + 60))
  await expect(panes.previewSeparator).toHaveAttribute('aria-valuenow', String(preview + 32))
  expect(Math.abs(Math.round((await editor.box(panes.previewPane)).width) - previewWidth)).toBeLessThanOrEqual(1)
  await panes.toggleComments.click()
  await expect(panes.commentsSeparator).toHaveAttribute('aria-valuenow', String(comments + 64))
})

test('focus mode leaves the editor alone in the window, and Esc brings the panes back', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Focus ${suffix}`, ['Install guide'], () => GUIDE)
  const editor = new EditorPage(page)
  const panes = editor.panes
  await page.setViewportSize({ width: 1440, height: 900 })
  await openGuide(editor, token, spaceId)
  await panes.toggleComments.click()
  await expect(panes.comments).toBeVisible()

  // The header's button: the tree, preview, comments and the shell's sidebar go; the editor takes the window.
  await panes.focusMode.click()
  await expect(panes.focusMode).toHaveAttribute('aria-pressed', 'true')
  for (const gone of [panes.tree, panes.previewPane, panes.comments, panes.sidebar, page.getByTestId('open-palette')])
    await expect(gone).toBeHidden()
  const alone = await editor.box(panes.editor)
  expect(alone.width).toBeGreaterThanOrEqual(1440 - 2)
  expect(alone.y).toBeLessThanOrEqual(60)

  // Esc (with the cursor in the text) leaves it.
  await editor.markdown.click()
  await page.keyboard.press('Escape')
  for (const back of [panes.tree, panes.comments, panes.sidebar]) await expect(back).toBeVisible()

  // The shortcut turns it on and off again.
  await editor.markdown.click()
  await page.keyboard.press('ControlOrMeta+Shift+Enter')
  await expect(panes.tree).toHaveCount(0)
  await page.keyboard.press('ControlOrMeta+Shift+Enter')
  await expect(panes.tree).toBeVisible()
  await expect(panes.previewPane).toHaveCount(0) // the comments still have the preview's place at 1440 px

  // The first edit moves the editor into a draft change request (another route): focus mode stays on.
  await panes.focusMode.click()
  await editor.typeMarkdown('A line written in focus.')
  await expect(editor.saveTarget).toContainText(/Draft change request #\d+/)
  await expect(page).toHaveURL(/\/change-requests\/\d+\/pages\//)
  await expect(panes.focusMode).toHaveAttribute('aria-pressed', 'true')
  await expect(panes.tree).toBeHidden()
  await editor.expectSaved()

  // Leaving the Pages tab ends it: the shell is whole again, and so is the editor on coming back.
  await page.evaluate((id) => (location.hash = `#/spaces/${id}/comments`), spaceId)
  await expect(page.getByTestId('tab-comments')).toHaveAttribute('aria-selected', 'true')
  await expect(panes.sidebar).toBeVisible()
  await page.getByTestId('tab-pages').click()
  await expect(panes.tree).toBeVisible()
  await expect(panes.focusMode).toHaveAttribute('aria-pressed', 'false')
})

test('in the dark (and the light), every text of the editor, the preview and the diff has a contrast of at least 4.5:1', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, pages } = await spaceWithPages(api, `Contrast ${suffix}`, ['Install guide'], () => GUIDE)
  const editor = new EditorPage(page)
  const scheme = async (colorScheme: 'dark' | 'light') => {
    await page.emulateMedia({ colorScheme })
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme)
  }
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.emulateMedia({ colorScheme: 'dark' })
  await openGuide(editor, token, spaceId)

  for (const colorScheme of ['dark', 'light'] as const) {
    await scheme(colorScheme)
    // The editor's text (link URLs, Markdown punctuation, headings, code) and the preview's.
    const texts = await editor.textContrasts(editor.panes.editor)
    for (const seen of ['https://example.com/releases/latest', '#', '**', '`', 'Install guide', 'quire --setup', '>']) {
      expect(
        texts.map((t) => t.text),
        `checked "${seen}"`
      ).toContain(seen)
    }
    expect(below(texts), colorScheme).toEqual([])
    const preview = await editor.textContrasts(editor.panes.previewPane)
    expect(preview.map((t) => t.text)).toEqual(
      expect.arrayContaining(['release notes', 'Install guide', 'quire --setup', 'A quoted note with'])
    )
    expect(below(preview), colorScheme).toEqual([])
  }

  // The diff of a change request: removed and added lines, line numbers.
  const page0 = pages.find((p) => p.title === 'Install guide')!
  const cr = await json<{ number: number }>(api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject: 'Rework' } }))
  await json(
    api.post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content`, {
      data: {
        changes: [
          {
            operation: 'update_page',
            page: page0.id,
            document: { markdown: GUIDE.replace('in a terminal', 'in a shell').replace('first', 'before all') }
          }
        ]
      }
    })
  )
  await page.goto(`/#/spaces/${spaceId}/change-requests/${cr.number}`)
  await editor.waitUntilReady()
  await new ChangeRequestsPage(page).selectChange('Install guide', 'page_edited')
  const diff = page.getByTestId('diff')
  for (const colorScheme of ['dark', 'light'] as const) {
    await scheme(colorScheme)
    await expect(diff.getByTestId('diff-after').locator('.cm-changedLine').first()).toBeVisible()
    const diffTexts = await editor.textContrasts(diff)
    const drawn = diffTexts.map((t) => t.text).join(' ')
    for (const seen of ['terminal', 'shell', 'before all', 'https://example.com/releases/latest', '12']) expect(drawn).toContain(seen)
    expect(below(diffTexts), colorScheme).toEqual([])
  }

  // Quiet (dimmed) text outside the editor: the change request list's subjects, numbers and dates.
  await page.goto(`/#/spaces/${spaceId}/change-requests`)
  await editor.waitUntilReady()
  const list = page.getByTestId('cr-list')
  for (const colorScheme of ['dark', 'light'] as const) {
    await scheme(colorScheme)
    await expect(list.getByText('Rework')).toBeVisible()
    // Avatar initials are left out: decorative, the name is beside them.
    const listTexts = (await editor.textContrasts(list)).filter((t) => !/^[A-Z]{1,2}$/.test(t.text))
    expect(listTexts.map((t) => t.text)).toEqual(expect.arrayContaining(['Rework', String(cr.number), 'just now']))
    expect(below(listTexts), colorScheme).toEqual([])
  }
})
