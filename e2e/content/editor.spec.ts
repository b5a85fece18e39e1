import { readFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import type { Download } from '@playwright/test'
import { gitbookDocsRepo } from '../../src-main/git/testing/gitbookDocs.ts'
import { removeTempDirs } from '../../src-main/git/testing/repos.ts'
import { test, expect } from '../fixtures/server.ts'
import { EditorPage } from '../pages/editorPage.ts'
import { SpacesPage } from '../pages/spacesPage.ts'
import { json, orgIdOf, spaceWithPages, type TreePage } from './seed.ts'

const outline = (pages: TreePage[], depth = 0): string[] =>
  pages.flatMap((p) => [`${'  '.repeat(depth)}${p.title}`, ...outline(p.pages, depth + 1)])

test('create a space and write a page', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const spaceTitle = `Guide ${suffix}`
  const spaces = new SpacesPage(page)
  const editor = new EditorPage(page)

  // Arrange: a new space, made and opened through the UI (it starts with an "Introduction" page on main).
  await spaces.open(token)
  await spaces.waitUntilReady()
  await spaces.createSpace(spaceTitle)
  await spaces.row(spaceTitle).getByTestId('tree-row-title').click()
  await expect(editor.row('Introduction')).toHaveAttribute('aria-current', 'page')
  await expect(editor.saveTarget).toContainText('Editing main')

  // Act: add a page in the tree; it opens in a draft change request with its title selected.
  await editor.addPage()
  await expect(editor.saveTarget).toContainText(/Draft change request #\d+/)
  await expect(editor.titleInput).toBeFocused()
  await page.keyboard.type('Getting started')
  await page.keyboard.press('Enter') // Enter in the title moves to the text
  await page.keyboard.type('# Install\n\nRun the installer, then:\n\n- open the app\nsign in')

  // Assert: the preview renders it and the save bar says where it went.
  await expect(editor.preview.getByRole('heading', { level: 1, name: 'Install' })).toBeVisible()
  await expect(editor.preview.getByRole('listitem')).toHaveText(['open the app', 'sign in'])
  await expect(editor.row('Getting started')).toBeVisible()
  await editor.expectSaved()
  await expect(editor.saveTarget).toContainText(/Draft change request #\d+\s*· Add a page/)

  // …and the API has it in that change request, not on main.
  const { spaceId, changeRequest, pageId } = editor.where()
  expect(changeRequest).toBeDefined()
  const written = await json<{ title: string; markdown: string }>(
    api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/page/${pageId}`)
  )
  expect(written.title).toBe('Getting started')
  expect(written.markdown).toBe('# Install\n\nRun the installer, then:\n\n- open the app\n- sign in')
  const cr = await json<{ status: string }>(api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequest}`))
  expect(cr.status).toBe('draft')
  const main = await json<{ pages: TreePage[] }>(api.get(`/v1/spaces/${spaceId}/content/pages`))
  expect(outline(main.pages)).toEqual(['Introduction'])
  await editor.screenshot('editor-page-written', testInfo)
})

test('an edit on main lands in a draft change request and the editor carries on', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, pages } = await spaceWithPages(api, `Main edits ${suffix}`, ['Overview'])
  const editor = new EditorPage(page)
  await editor.openSpace(token, spaceId)
  await expect(editor.saveTarget).toContainText('Editing main')

  await editor.typeMarkdown('\n---\n')
  await editor.typeMarkdown('Some words')
  // The first write opens a draft and the address moves to it without losing the cursor.
  await expect(page).toHaveURL(/\/change-requests\/\d+\/pages\//)
  await expect(page.getByTestId('pages-screen')).toHaveAttribute('data-scope', /^change-request-\d+$/)
  await expect(editor.saveTarget).toContainText(/Draft change request #\d+\s*· Edit “Overview”/)
  await expect(editor.markdown).toBeFocused()
  await page.keyboard.type(' and more')
  await editor.expectSaved()

  const { changeRequest, pageId } = editor.where()
  expect(pageId).toBe(pages[0]!.id)
  const written = await json<{ markdown: string }>(api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/page/${pageId}`))
  expect(written.markdown).toBe('# Overview\n\nAbout Overview.\n\n---\nSome words and more')
  const onMain = await json<{ markdown: string }>(api.get(`/v1/spaces/${spaceId}/content/page/${pageId}`))
  expect(onMain.markdown).toBe('# Overview\n\nAbout Overview.\n')
  await editor.screenshot('editor-main-to-draft', testInfo)
})

test('reorder and nest pages by drag and drop', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Tree ${suffix}`, ['Alpha', 'Beta', 'Gamma'])
  const editor = new EditorPage(page)
  await editor.openSpace(token, spaceId)
  await expect(editor.rows).toHaveCount(3)

  // Reorder: Gamma above Alpha (on main: the move opens a draft change request and the screen moves there).
  await editor.drag('Gamma', 'Alpha', 'before')
  await expect(page).toHaveURL(/\/change-requests\/\d+\/pages\//)
  await expect(editor.rows.getByTestId('page-row-title')).toHaveText(['Gamma', 'Alpha', 'Beta'])

  // Nest: Beta into Alpha.
  await editor.drag('Beta', 'Alpha', 'inside')
  await expect(editor.row('Beta')).toHaveAttribute('aria-level', '2')
  await expect(editor.rows.getByTestId('page-row-title')).toHaveText(['Gamma', 'Alpha', 'Beta'])

  const { changeRequest } = editor.where()
  const tree = await json<{ pages: TreePage[] }>(api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/pages`))
  expect(outline(tree.pages)).toEqual(['Gamma', 'Alpha', '  Beta'])
  const main = await json<{ pages: TreePage[] }>(api.get(`/v1/spaces/${spaceId}/content/pages`))
  expect(outline(main.pages)).toEqual(['Alpha', 'Beta', 'Gamma'])
  await editor.screenshot('editor-tree-reordered', testInfo)
})

test('find a page by a word of its text in the command palette, and open that page', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  // Arrange: three pages on main; only "Feeding" has the word, in the text of one of its sections.
  const word = `quokka${suffix}`
  const { spaceId, pages } = await spaceWithPages(api, `Zoo ${suffix}`, ['Habitat', 'Feeding', 'Sleep'], (t) =>
    t === 'Feeding' ? `# Feeding\n\nTwice a day.\n\n## Morning\n\nThe ${word} eats leaves.\n` : `# ${t}\n\nAbout ${t}.\n`
  )
  const feeding = pages.find((p) => p.title === 'Feeding')!
  const spaces = new SpacesPage(page)
  await spaces.open(token)
  await spaces.waitUntilReady()

  // Act: the palette searches the organization's pages as the word is typed.
  await page.keyboard.press('ControlOrMeta+K')
  await page.getByTestId('palette-input').fill(word)
  const result = page.getByTestId('palette-item').filter({ hasText: 'Feeding' })
  await expect(result).toContainText(`The ${word} eats leaves.`)
  await result.click()

  // Assert: the editor opens at that page (not at the space's first one), at the section holding the word.
  const editor = new EditorPage(page)
  await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}/pages/${feeding.id}#morning$`))
  await expect(editor.row('Feeding')).toHaveAttribute('aria-current', 'page')
  await expect(page.getByTestId('markdown-editor').locator('.cm-activeLine')).toHaveText('## Morning')
})

test('find a Chinese word inside running text in the command palette, and open its page at the heading', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  // Arrange: the word 文档 stands inside a sentence under a heading of Chinese and German words.
  const { spaceId, pages } = await spaceWithPages(api, `Docs ${suffix}`, ['Intro', 'Handbuch'], (t) =>
    t === 'Handbuch' ? `# Handbuch\n\nVorwort.\n\n## Größe 说明\n\n这是一个文档系统${suffix}。\n` : `# ${t}\n\nAbout ${t}.\n`
  )
  const handbook = pages.find((p) => p.title === 'Handbuch')!
  const spaces = new SpacesPage(page)
  await spaces.open(token)
  await spaces.waitUntilReady()

  // Act: the palette searches for the word.
  await page.keyboard.press('ControlOrMeta+K')
  await page.getByTestId('palette-input').fill(`文档 ${suffix}`)
  const result = page.getByTestId('palette-item').filter({ hasText: 'Handbuch' })
  await expect(result).toContainText(`这是一个文档系统${suffix}。`)
  await result.click()

  // Assert: the page opens at the section's heading, whose anchor keeps its letters (percent-encoded in the address).
  const editor = new EditorPage(page)
  await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}/pages/${handbook.id}#${encodeURIComponent('größe-说明')}$`))
  await expect(editor.row('Handbuch')).toHaveAttribute('aria-current', 'page')
  await expect(page.getByTestId('markdown-editor').locator('.cm-activeLine')).toHaveText('## Größe 说明')
})

test('search a space from its page tree and open a result at its section', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  // Arrange: the word is in two pages; in "Night shift" it is far down, under its own heading.
  const word = `wombat${suffix}`
  const filler = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} of the routine.`).join('\n\n')
  const { spaceId, pages } = await spaceWithPages(api, `Burrow ${suffix}`, ['Intro', 'Night shift', 'Day shift'], (t) =>
    t === 'Night shift'
      ? `# Night shift\n\n${filler}\n\n## Feeding the ${word}\n\nThe ${word} eats roots at midnight.\n`
      : t === 'Day shift'
        ? `# Day shift\n\nNo ${word} is awake by day.\n`
        : `# ${t}\n\nAbout ${t}.\n`
  )
  const night = pages.find((p) => p.title === 'Night shift')!
  const editor = new EditorPage(page)
  await editor.openSpace(token, spaceId)

  // Act: type the start of the word in the search box above the tree (Ctrl/Cmd+Shift+F focuses it).
  await page.keyboard.press('ControlOrMeta+Shift+F')
  await expect(editor.searchInput).toBeFocused()
  await page.keyboard.type(word.slice(0, 8))

  // Assert: the tree gives way to the two matching pages, the typed word marked in the section that holds it.
  await expect(editor.searchCount).toHaveText('2 pages')
  await expect(editor.tree).toBeHidden()
  const found = editor.searchResult('Night shift')
  const section = found.getByTestId('space-search-section').filter({ hasText: `The ${word} eats roots` })
  await expect(section).toContainText(`Feeding the ${word}`)
  await expect(section.locator('mark').first()).toHaveText(word.slice(0, 8))
  await expect(editor.searchResults).toHaveCount(2)
  await editor.screenshot('space-search-results', testInfo)

  // Act: open the section. Assert: the page opens at that heading, in the editor (the cursor's line) and in
  // the preview (scrolled to it: the page's first line is out of view).
  await section.click()
  const anchor = `feeding-the-${word.toLowerCase()}`
  await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}/pages/${night.id}#${anchor}$`))
  await expect(page.getByTestId('markdown-editor').locator('.cm-activeLine')).toHaveText(`## Feeding the ${word}`)
  const heading = editor.preview.locator(`#user-content-${anchor}`)
  await expect(heading).toBeInViewport()
  await expect(editor.preview.getByText('Paragraph 1 of the routine.', { exact: true })).not.toBeInViewport()
  await expect(found.getByRole('button', { name: 'Night shift', exact: true })).toHaveAttribute('aria-current', 'page')
  await editor.screenshot('space-search-opened-section', testInfo)

  // The results stay while pages open from them; keys move through them, Enter opens, Esc goes back and clears.
  // (Each result is its page's button, then one per section: ↓ ↓ ↓ from the box reaches the second page.)
  const second = editor.searchResults.nth(1)
  const secondId = await second.getAttribute('data-page-id')
  const secondTitle = secondId === night.id ? 'Night shift' : 'Day shift'
  await editor.searchInput.focus()
  await page.keyboard.press('ArrowDown')
  await expect(editor.searchResults.first().getByRole('button').first()).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(second.getByRole('button', { name: secondTitle, exact: true })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(new RegExp(`/pages/${secondId}$`))
  await page.keyboard.press('Escape')
  await expect(editor.searchInput).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(editor.searchInput).toHaveValue('')
  await expect(editor.row(secondTitle)).toHaveAttribute('aria-current', 'page')
})

test('writes the API or the client refuses explain why', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Refusals ${suffix}`, ['Policy'])
  const editor = new EditorPage(page)
  await editor.openSpace(token, spaceId)

  // A file over 1 MB is refused before anything is sent.
  await editor.uploadInput.setInputFiles({ name: 'huge.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(1024 * 1024 + 10, 1) })
  await expect(editor.uploadErrors).toHaveText('“huge.pdf” (1 MB) is larger than 1 MB, the most a file can be.')
  const drafts = await json<{ count: number }>(api.get(`/v1/spaces/${spaceId}/change-requests?status=draft`))
  expect(drafts.count, 'nothing was sent').toBe(0)

  // An admin locks the space meanwhile: the next save is refused with the API's message, the text stays, and
  // the editor turns read-only with a banner saying why.
  await json(api.patch(`/v1/spaces/${spaceId}`, { data: { editMode: 'locked' } }))
  await editor.typeMarkdown('\nA new rule')
  await expect(editor.saveError).toContainText('Save failed — The space is locked')
  await expect(editor.readOnlyBanner).toContainText('This space is locked')
  await expect(editor.markdown).toContainText('A new rule')
  await expect(editor.markdown).toHaveAttribute('contenteditable', 'false')
  await expect(page.getByTestId('save-retry')).toBeVisible()
  await editor.screenshot('editor-refusals', testInfo)
})

test('an edit someone saved meanwhile merges with mine, or if we changed the same lines, I choose', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, pages } = await spaceWithPages(api, `Both editing ${suffix}`, ['Policy'])
  const pageId = pages[0]!.id
  const cr = await json<{ number: number }>(api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject: 'Policy review' } }))
  const editor = new EditorPage(page)
  await editor.open(token, `/spaces/${spaceId}/change-requests/${cr.number}/pages/${pageId}`)
  await editor.waitUntilReady()
  await expect(editor.markdown).toContainText('About Policy.')
  const pageInCr = () => json<{ markdown: string }>(api.get(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content/page/${pageId}`))
  /** Someone else saves the page in the same change request while it is open here. */
  const saveElsewhere = (markdown: string) =>
    json(
      api.post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content`, {
        data: { changes: [{ operation: 'update_page', page: pageId, document: { markdown } }] }
      })
    )

  // They change the heading, I add a line: both edits are kept, here and on the server.
  await saveElsewhere('# Policy, revised\n\nAbout Policy.\n')
  await editor.typeMarkdown('\nMy addition')
  await expect(page.getByText('their edits and yours are merged')).toBeVisible()
  await editor.expectSaved()
  await expect(editor.markdown).toContainText('# Policy, revised')
  await expect.poll(async () => (await pageInCr()).markdown).toBe('# Policy, revised\n\nAbout Policy.\n\nMy addition')

  // We both change the last line: the save is refused instead of writing over their text, and mine stays here.
  await saveElsewhere('# Policy, revised\n\nAbout Policy.\n\nTheir addition\n')
  await editor.typeMarkdown(' too')
  await expect(editor.saveError).toContainText('someone else changed the same lines of this page')
  await expect(editor.markdown).toContainText('My addition too')
  expect((await pageInCr()).markdown).toBe('# Policy, revised\n\nAbout Policy.\n\nTheir addition\n')
  await editor.screenshot('editor-changed-elsewhere', testInfo)

  // Use theirs: the editor shows their text, nothing is left to save, and the next edit builds on theirs.
  await page.getByTestId('save-use-theirs').click()
  await expect(editor.markdown).toContainText('Their addition')
  await expect(editor.markdown).not.toContainText('My addition')
  await editor.expectSaved()
  await editor.typeMarkdown('\nAgreed.')
  await editor.expectSaved()
  await expect.poll(async () => (await pageInCr()).markdown).toBe('# Policy, revised\n\nAbout Policy.\n\nTheir addition\n\nAgreed.')

  // Again, and this time Keep mine writes this text over theirs; later saves go through as usual.
  await saveElsewhere('# Policy, revised\n\nAbout Policy.\n\nTheir addition\n\nAgreed, by them.')
  await editor.typeMarkdown(' Mine.')
  await expect(editor.saveError).toContainText('someone else changed the same lines')
  await page.getByTestId('save-keep-mine').click()
  await editor.expectSaved()
  expect((await pageInCr()).markdown).toBe('# Policy, revised\n\nAbout Policy.\n\nTheir addition\n\nAgreed. Mine.')
  await editor.typeMarkdown(' More.')
  await editor.expectSaved()
  await expect
    .poll(async () => (await pageInCr()).markdown)
    .toBe('# Policy, revised\n\nAbout Policy.\n\nTheir addition\n\nAgreed. Mine. More.')
})

test('upload an image and see it in the preview', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Files ${suffix}`, ['Screens'])
  const editor = new EditorPage(page)
  await editor.openSpace(token, spaceId)

  // A 1×1 PNG, uploaded with the toolbar's file picker.
  const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=', 'base64')
  await editor.markdown.click()
  await page.keyboard.press('ControlOrMeta+End')
  await editor.uploadInput.setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: pixel })
  await expect(page.getByTestId('upload-item').filter({ hasText: 'pixel.png' })).toHaveAttribute('data-phase', 'done')
  await expect(editor.markdown).toContainText(/!\[pixel\.png\]\(\/files\/[\w-]+\)/)
  const image = editor.preview.locator('img[alt="pixel.png"]')
  await expect(image).toHaveJSProperty('naturalWidth', 1)
  await editor.expectSaved()

  const { changeRequest, pageId } = editor.where()
  const files = await json<{ items: { id: string; name: string }[] }>(
    api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/files`)
  )
  const file = files.items.find((f) => f.name === 'pixel.png')
  expect(file).toBeDefined()
  const written = await json<{ markdown: string }>(api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/page/${pageId}`))
  expect(written.markdown).toContain(`![pixel.png](/files/${file!.id})`)
  await editor.screenshot('editor-upload', testInfo)
})

test('export the space, and one page, as PDF files', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Manual ${suffix}`, ['Overview', 'Setup'])
  const editor = new EditorPage(page)
  await editor.openSpace(token, spaceId)
  const saved = async (download: Download) => {
    const bytes = await readFile((await download.path())!)
    return { name: download.suggestedFilename(), head: bytes.subarray(0, 5).toString('latin1') }
  }

  // The space's menu saves the whole main content, named after the space (and the editor's menu a page, after it).
  const whole = page.waitForEvent('download')
  await page.getByTestId('space-menu').click()
  await page.getByTestId('space-export-pdf').click()
  expect(await saved(await whole)).toMatchObject({ name: `Manual ${suffix}.pdf`, head: '%PDF-' })

  // The editor's PDF menu saves the open page alone.
  await editor.row('Setup').click()
  await expect(editor.titleInput).toHaveValue('Setup')
  const one = page.waitForEvent('download')
  await page.getByTestId('page-pdf-menu').click()
  await page.getByTestId('page-pdf-only').click()
  expect(await saved(await one)).toMatchObject({ name: 'Setup.pdf', head: '%PDF-' })
})

test('a link typed in the editor is completed from the pages and files of the space', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Linking ${suffix}`, ['Overview', 'Install guide'])
  const editor = new EditorPage(page)
  await editor.openSpace(token, spaceId)
  await expect(editor.titleInput).toHaveValue('Overview')

  // The first edit moves the editor into a draft change request; then typing a link's destination offers the
  // pages, a word of the title finds one, and Enter writes its path.
  await editor.typeMarkdown('\nRead ')
  await expect(page).toHaveURL(/\/change-requests\/\d+\/pages\//)
  await editor.expectSaved()
  await expect(editor.markdown).toBeFocused()
  await page.keyboard.type('[the guide](')
  const options = page.locator('.cm-tooltip-autocomplete [role="option"]')
  await expect(options.filter({ hasText: 'Install guide' })).toBeVisible()
  await expect(options.filter({ hasText: 'Overview' }), 'not the page itself').toHaveCount(0)
  await page.keyboard.type('inst')
  await expect(options.first()).toContainText('Install guide')
  await expect(options.first()).toHaveAttribute('aria-selected', 'true')
  // CodeMirror ignores Enter within 75 ms of the list changing (its interactionDelay, against accidental picks).
  await page.waitForTimeout(150)
  await page.keyboard.press('Enter')
  await page.keyboard.type(') first.')
  await expect(editor.markdown).toContainText('Read [the guide](/install-guide) first.')
  await editor.expectSaved()

  // The link is right: the preview renders it, and the API resolves it to the page in the change request.
  await expect(editor.preview.getByRole('link', { name: 'the guide' })).toHaveAttribute('href', '/install-guide')
  const { changeRequest, pageId } = editor.where()
  const links = await json<{ items: { status: string; href: string }[] }>(
    api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/page/${pageId}/links`)
  )
  expect(links.items).toEqual([expect.objectContaining({ href: '/install-guide', status: 'ok' })])

  // In the preview the link opens that page, in the same change request.
  await editor.preview.getByRole('link', { name: 'the guide' }).click()
  await expect(editor.titleInput).toHaveValue('Install guide')
  expect(editor.where()).toMatchObject({ changeRequest })
})

test('hide parts of a page and keep it out of search engines from its layout settings', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, pages } = await spaceWithPages(api, `Layout ${suffix}`, ['Overview'])
  const editor = new EditorPage(page)
  await editor.openSpace(token, spaceId)
  await expect(editor.titleInput).toHaveValue('Overview')

  // Two switches: the settings are written as front matter, which the strip above the preview shows.
  await editor.openPageSettings()
  await expect(editor.pageSetting('title')).toBeChecked()
  await editor.pageSetting('title').uncheck()
  await editor.pageSetting('noIndex').check()
  await expect(editor.frontMatter).toContainText('noIndex')
  await expect(page).toHaveURL(/\/change-requests\/\d+\/pages\//)
  await editor.expectSaved()

  // The API reads them as the page's layout.
  const { changeRequest } = editor.where()
  const pagePath = `/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/page/${pages[0]!.id}`
  const written = await json<{ markdown: string; layout: Record<string, unknown>; noIndex: boolean }>(api.get(pagePath))
  expect(written.markdown).toBe('---\nlayout:\n  title:\n    visible: false\nnoIndex: true\n---\n\n# Overview\n\nAbout Overview.\n')
  expect(written.layout).toMatchObject({ title: false, description: true, tableOfContents: true })
  expect(written.noIndex).toBe(true)
  await editor.screenshot('editor-page-layout', testInfo)

  // Back to the defaults: the front matter goes, the text is what it was.
  await editor.pageSetting('title').check()
  await editor.pageSetting('noIndex').uncheck()
  await expect(editor.frontMatter).toHaveCount(0)
  await editor.expectSaved()
  const restored = await json<{ markdown: string; layout: Record<string, unknown>; noIndex: boolean }>(api.get(pagePath))
  expect(restored).toMatchObject({ markdown: '# Overview\n\nAbout Overview.\n', layout: { title: true }, noIndex: false })
})

test('a page from Git shows its hints, tabs and reusable content in the preview', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  // Arrange: a repository in GitBook's format, imported through the API's Git sync.
  const repo = await gitbookDocsRepo('# Support notice\n\n{% hint style="info" %}\nWrite to help@example.com.\n{% endhint %}\n')
  try {
    const orgId = await orgIdOf(api)
    const space = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/spaces`, { data: { title: `From Git ${suffix}`, empty: true } }))
    const started = await api.post(`/v1/spaces/${space.id}/git/import`, { data: { url: pathToFileURL(repo).href, ref: 'refs/heads/main' } })
    expect(started.status()).toBe(204)
    await expect
      .poll(async () => (await json<{ status: string }>(api.get(`/v1/spaces/${space.id}/git/info`))).status, { timeout: 30_000 })
      .toBe('succeeded')

    // Act: open the page in the editor.
    const editor = new EditorPage(page)
    await editor.openSpace(token, space.id)
    await editor.row('Setup').click()

    // Assert: the tags are blocks, not text; the include shows the reusable content, labelled as such.
    const hint = editor.preview.locator('.gb-hint-warning')
    await expect(hint).toHaveText('Back up your data first.')
    await expect(editor.preview.locator('.gb-tab .gb-title')).toHaveText(['macOS', 'Linux'])
    const included = editor.preview.locator('.gb-include')
    await expect(included.getByRole('heading', { name: 'Support notice' })).toBeVisible()
    await expect(included.locator('.gb-hint-info')).toHaveText('Write to help@example.com.')
    await expect(editor.preview).not.toContainText('{%')
    // The tag lines stand apart in the editor.
    await expect(editor.markdown.locator('.cm-blockTag')).toHaveCount(9)

    // Act: type a tag (the first edit moves the editor into a draft change request); the completion offers the
    // tags and the reusable contents, by the path from this page.
    await editor.typeMarkdown('\n')
    await expect(page).toHaveURL(/\/change-requests\/\d+\/pages\//)
    await editor.expectSaved()
    await expect(editor.markdown).toBeFocused()
    await page.keyboard.type('{% inc')
    const option = page.locator('.cm-tooltip-autocomplete [role="option"]').filter({ hasText: 'Include “Support notice”' })
    await expect(option).toBeVisible()
    await option.click()
    await expect(editor.markdown).toContainText(/\{% include "\.\.\/\.gitbook\/includes\/support\.md" %\}$/)
    await expect(editor.preview.locator('.gb-include')).toHaveCount(2)

    // The formatting keys: Mod-b opens a bold pair at the cursor, typed into.
    await page.keyboard.type('\nRead ')
    await page.keyboard.press('ControlOrMeta+b')
    await page.keyboard.type('carefully')
    await expect(editor.markdown).toContainText('Read **carefully**')
    await expect(editor.preview.locator('strong', { hasText: 'carefully' })).toBeVisible()

    // The toolbar's Insert menu puts a block on a line of its own, its text selected to type over.
    await page.getByTestId('insert-block').click()
    await expect(page.getByTestId('insert-block-menu').getByRole('menuitem', { name: 'Include “Support notice”' })).toBeVisible()
    await page.getByTestId('insert-block-menu').getByRole('menuitem', { name: 'Hint (danger)' }).click()
    await page.keyboard.type('Mind the step.')
    await expect(editor.markdown).toContainText('Read **carefully**{% hint style="danger" %}Mind the step.{% endhint %}')
    await expect(editor.preview.locator('.gb-hint-danger')).toHaveText('Mind the step.')
    await editor.expectSaved()
    await editor.screenshot('editor-block-tags', testInfo)
  } finally {
    removeTempDirs()
  }
})
