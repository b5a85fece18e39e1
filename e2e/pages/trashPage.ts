import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** Deleted spaces, with the days left to restore them. */
export class TrashPage extends AppShell {
  readonly rows: Locator

  constructor(page: Page) {
    super(page)
    this.rows = page.getByTestId('trash-row')
  }

  row(title: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('trash-row-title').getByText(title, { exact: true }) })
  }

  async restore(title: string): Promise<void> {
    await this.row(title).getByTestId('restore').click()
    await expect(this.row(title)).toHaveCount(0)
  }
}
