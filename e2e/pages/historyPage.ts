import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** A space's History tab: the revisions timeline, a revision opened read-only, and two revisions compared. */
export class HistoryPage extends AppShell {
  readonly tab: Locator
  readonly rows: Locator
  readonly header: Locator
  readonly pages: Locator
  readonly pageView: Locator
  readonly preview: Locator
  readonly source: Locator
  readonly compareRows: Locator
  readonly compareView: Locator

  constructor(page: Page) {
    super(page)
    this.tab = page.getByTestId('tab-history')
    this.rows = page.getByTestId('revision-row')
    this.header = page.getByTestId('revision-header')
    this.pages = page.getByTestId('revision-page')
    this.pageView = page.getByTestId('revision-page-view')
    this.preview = page.getByTestId('revision-preview')
    this.source = page.getByTestId('revision-source').locator('.cm-content')
    this.compareRows = page.getByTestId('compare-row')
    this.compareView = page.getByTestId('compare-view')
  }

  /** Opens the space and moves to its History tab. */
  async openTab(token: string, spaceId: string): Promise<void> {
    await this.open(token, `/spaces/${spaceId}`)
    await this.waitUntilReady()
    await this.tab.click()
    await expect(this.tab).toHaveAttribute('aria-selected', 'true')
    await expect(this.rows.first()).toBeVisible()
  }

  /** The timeline row of a revision by what it did (`#2 Subject`, or its type). */
  row(what: string): Locator {
    return this.rows.filter({ hasText: what })
  }

  async openRevision(what: string): Promise<void> {
    await this.row(what).getByTestId('revision-when').click()
    await expect(this.header).toBeVisible()
    await expect(this.pageView).toBeVisible()
  }

  async compareWithPrevious(what: string): Promise<void> {
    await this.row(what).getByTestId('revision-compare').click()
    await expect(this.page.getByTestId('compare-list').or(this.page.getByTestId('compare-empty'))).toBeVisible()
  }

  /** A page of the opened revision's tree. */
  pageRow(title: string): Locator {
    return this.pages.filter({ has: this.page.getByTestId('revision-page-title').getByText(title, { exact: true }) })
  }

  async selectPage(title: string): Promise<void> {
    await this.pageRow(title).click()
    await expect(this.page.getByTestId('revision-page-heading')).toHaveText(title)
  }

  async showSource(): Promise<void> {
    await this.page.getByTestId('revision-view-toggle').getByText('Markdown', { exact: true }).click()
  }

  compareRow(title: string, type: 'page_created' | 'page_edited' | 'page_moved' | 'page_deleted'): Locator {
    return this.compareRows.and(this.page.locator(`[data-type="${type}"]`)).filter({ hasText: title })
  }

  async selectChange(title: string, type: 'page_created' | 'page_edited' | 'page_moved' | 'page_deleted'): Promise<void> {
    await this.compareRow(title, type).click()
    await expect(this.compareView.getByTestId('compare-view-title')).toHaveText(title)
  }

  /** Lines marked as changed on one side of the comparison's diff. */
  changedLines(side: 'before' | 'after'): Locator {
    return this.page.getByTestId('diff').getByTestId(`diff-${side}`).locator('.cm-changedLine')
  }

  /** Picks the base revision to compare with (an option's label, or part of it). */
  async compareWith(label: string | RegExp): Promise<void> {
    await this.page.getByTestId('compare-base').click()
    await this.page.getByRole('option', { name: label }).click()
  }

  /** Confirms the restore dialog the Restore button opened. */
  async confirmRestore(): Promise<void> {
    await this.page.getByTestId('confirm-restore').click()
    await this.expectDialogsClosed()
  }
}
