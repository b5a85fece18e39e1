import type { Locator, Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

export type LinkFilterLabel = 'All' | 'Broken' | 'In-app' | 'OK'

/** A space's Links tab: the links written in its pages, checked against its content. */
export class LinksPage extends AppShell {
  readonly tab: Locator
  readonly rows: Locator
  readonly stats: Locator
  readonly brokenCount: Locator
  readonly empty: Locator

  constructor(page: Page) {
    super(page)
    this.tab = page.getByTestId('tab-links')
    this.rows = page.getByTestId('link-row')
    this.stats = page.getByTestId('links-stats')
    this.brokenCount = page.getByTestId('links-broken-count')
    this.empty = page.getByTestId('links-empty')
  }

  /** The row of a link by what it points at (a page title, a path, a file name, a URL). */
  row(target: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('link-target').getByText(target, { exact: true }) })
  }

  async filter(label: LinkFilterLabel): Promise<void> {
    await this.page.getByTestId('links-filter').getByText(label, { exact: true }).click()
  }
}
