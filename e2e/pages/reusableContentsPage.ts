import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** A space's Reusable content tab: the list, and the editor of the one chosen (title, markdown). */
export class ReusableContentsPage extends AppShell {
  readonly items: Locator
  readonly title: Locator
  readonly markdown: Locator
  readonly scope: Locator

  constructor(page: Page) {
    super(page)
    this.items = page.getByTestId('reusable-item')
    this.title = page.getByTestId('reusable-title')
    this.markdown = page.getByTestId('reusable-markdown')
    this.scope = page.getByTestId('reusable-scope')
  }

  /** Opens the space and moves to its Reusable content tab. */
  async openTab(token: string, spaceId: string): Promise<void> {
    await this.open(token, `/spaces/${spaceId}`)
    await this.waitUntilReady()
    await this.page.getByTestId('tab-reusable-contents').click()
    await expect(this.page.getByTestId('reusable-list')).toBeVisible()
  }

  item(title: string): Locator {
    return this.items.filter({ hasText: title })
  }

  /** Replaces the markdown as a user would (select all, type). */
  async typeMarkdown(text: string): Promise<void> {
    await this.markdown.click()
    await this.page.keyboard.press('ControlOrMeta+a')
    await this.page.keyboard.type(text)
  }

  async save(): Promise<void> {
    await this.page.getByTestId('reusable-save').click()
  }
}
