import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

export type DropZone = 'before' | 'inside' | 'after'

/** A space's Pages tab: the page tree, the page editor (title, save bar, CodeMirror, preview) and uploads. */
export class EditorPage extends AppShell {
  readonly tree: Locator
  readonly rows: Locator
  readonly titleInput: Locator
  readonly markdown: Locator
  readonly preview: Locator
  readonly frontMatter: Locator
  readonly saveStatus: Locator
  readonly saveTarget: Locator
  readonly saveError: Locator
  readonly readOnlyBanner: Locator
  readonly uploadInput: Locator
  readonly uploadErrors: Locator
  readonly searchInput: Locator
  readonly searchResults: Locator
  readonly searchCount: Locator

  constructor(page: Page) {
    super(page)
    this.tree = page.getByTestId('page-tree')
    this.rows = page.getByTestId('page-row')
    this.titleInput = page.getByTestId('page-title-input')
    this.markdown = page.getByTestId('markdown-editor').locator('.cm-content')
    this.preview = page.getByTestId('preview')
    this.frontMatter = page.getByTestId('front-matter')
    this.saveStatus = page.getByTestId('save-status')
    this.saveTarget = page.getByTestId('save-target')
    this.saveError = page.getByTestId('save-error')
    this.readOnlyBanner = page.getByTestId('read-only-banner')
    this.uploadInput = page.getByTestId('upload-input')
    this.uploadErrors = page.getByTestId('upload-error')
    this.searchInput = page.getByTestId('space-search-input')
    this.searchResults = page.getByTestId('space-search-result')
    this.searchCount = page.getByTestId('space-search-count')
  }

  /** A page found by the space search (title and sections). */
  searchResult(title: string): Locator {
    return this.searchResults.filter({ has: this.page.getByRole('button', { name: title, exact: true }) })
  }

  row(title: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('page-row-title').getByText(title, { exact: true }) })
  }

  /** Opens a space on its Pages tab (which opens its first page). */
  async openSpace(token: string, spaceId: string): Promise<void> {
    await this.open(token, `/spaces/${spaceId}`)
    await this.waitUntilReady()
  }

  /** `{spaceId, changeRequest?, pageId}` read from the address (`#/spaces/…[/change-requests/N]/pages/…`). */
  where(): { spaceId: string; changeRequest?: number; pageId: string } {
    const hash = new URL(this.page.url()).hash
    const match = /^#\/spaces\/([^/]+)(?:\/change-requests\/(\d+))?\/pages\/([^/?]+)/.exec(hash)
    if (!match) throw new Error(`Not on a page editor: ${hash}`)
    return { spaceId: match[1]!, changeRequest: match[2] ? Number(match[2]) : undefined, pageId: match[3]! }
  }

  async addPage(): Promise<void> {
    await this.page.getByTestId('new-page').click()
  }

  async addChildPage(parentTitle: string): Promise<void> {
    const row = this.row(parentTitle)
    await row.hover()
    await row.getByTestId('page-add-child').click()
  }

  /** Types at the end of the markdown, as a user would (CodeMirror's own keys: lists continue on Enter). */
  async typeMarkdown(text: string): Promise<void> {
    await this.markdown.click()
    await this.page.keyboard.press('ControlOrMeta+End')
    await this.page.keyboard.type(text)
  }

  /** Opens the page's settings (the toolbar's drawer). */
  async openPageSettings(): Promise<void> {
    await this.page.getByTestId('page-settings').click()
    await expect(this.page.getByTestId('page-settings-panel')).toBeVisible()
  }

  /** A switch of the layout settings: a part of the page (`title`, `outline`...) or `noIndex`. */
  pageSetting(name: string): Locator {
    return this.page.getByTestId(`layout-${name}`)
  }

  /** A field of the page settings drawer: `slug`, `slug-save`, `path`, `emoji`, `description`, `cover`, `hidden`… */
  settingsField(name: string): Locator {
    return this.page.getByTestId(`setting-${name}`)
  }

  async expectSaved(): Promise<void> {
    await expect(this.saveStatus).toHaveAttribute('data-status', 'saved')
  }

  async setMode(mode: 'Edit' | 'Split' | 'Preview'): Promise<void> {
    await this.page.getByTestId('editor-mode').getByText(mode, { exact: true }).click()
  }

  /**
   * Drags a page row onto another with real pointer events: above the upper quarter (before), the middle
   * (inside) or below the lower quarter (after); the drop indicator must show before the button is released.
   */
  async drag(title: string, targetTitle: string, zone: DropZone): Promise<void> {
    const source = this.row(title).getByTestId('page-row-title')
    const target = this.row(targetTitle)
    await source.hover()
    const from = (await source.boundingBox())!
    const to = (await target.boundingBox())!
    const y = zone === 'before' ? to.y + to.height * 0.12 : zone === 'after' ? to.y + to.height * 0.88 : to.y + to.height / 2
    await this.page.mouse.move(from.x + 10, from.y + from.height / 2)
    await this.page.mouse.down()
    await this.page.mouse.move(from.x + 20, from.y + from.height / 2 + 8, { steps: 4 })
    await this.page.mouse.move(to.x + 40, y, { steps: 12 })
    await expect(target).toHaveAttribute('data-drop', zone)
    await this.page.mouse.up()
  }
}
