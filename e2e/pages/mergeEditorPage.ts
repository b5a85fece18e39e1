import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

export type MergeChoice = 'Accept main' | 'Accept change request' | 'Accept both'

/** A change request's merge editor: one section per conflicting page, its conflicts with their choices, the result. */
export class MergeEditorPage extends AppShell {
  readonly screen: Locator
  readonly pages: Locator
  readonly progress: Locator
  readonly updateButton: Locator

  constructor(page: Page) {
    super(page)
    this.screen = page.getByTestId('merge-editor')
    this.pages = page.getByTestId('merge-page')
    this.progress = page.getByTestId('merge-progress')
    this.updateButton = page.getByRole('button', { name: 'Update with resolutions' })
  }

  async openFor(token: string, spaceId: string, number: number): Promise<void> {
    await this.open(token, `/spaces/${spaceId}/change-requests/${number}/merge`)
    await this.expectLoaded()
  }

  async expectLoaded(): Promise<void> {
    await expect(this.screen).toBeVisible()
    await this.waitUntilReady()
  }

  /** The section of one conflicting page, by its title. */
  pageSection(title: string): Locator {
    return this.page.getByRole('region', { name: title, exact: true })
  }

  /** The `n`th conflict (from 1) still marked on a page. */
  conflict(title: string, n = 1): Locator {
    return this.pageSection(title).getByRole('group', { name: new RegExp(`^Conflict ${n} of \\d+$`) })
  }

  /** Resolves a page's `n`th conflict with a choice, using the keyboard (focus the button, press Enter). */
  async resolveWith(title: string, choice: MergeChoice, n = 1): Promise<void> {
    const button = this.conflict(title, n).getByRole('button', { name: choice, exact: true })
    await button.focus()
    await button.press('Enter')
  }

  /** The editable result of a page (CodeMirror's content, in its shadow root). */
  result(title: string): Locator {
    return this.pageSection(title).getByRole('textbox', { name: `Result of ${title}` })
  }

  async markResolved(title: string): Promise<void> {
    await this.pageSection(title).getByRole('button', { name: 'Mark resolved' }).click()
    await expect(this.pageSection(title).getByTestId('merge-page-status')).toHaveText('Resolved')
  }
}
