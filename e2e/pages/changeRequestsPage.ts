import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

type Status = 'Active' | 'Open' | 'Draft' | 'Merged' | 'Archived'
type Group = 'added' | 'edited' | 'moved' | 'removed'

/** A space's Change requests tab: the list with its filters, and one change request with its diffs. */
export class ChangeRequestsPage extends AppShell {
  readonly rows: Locator
  readonly detail: Locator
  readonly changeRows: Locator
  readonly changeView: Locator
  readonly conflictBanner: Locator
  readonly outdatedBanner: Locator
  /** The notice of the links merging would break, and its rows (`broken-link`: page, link, why). */
  readonly mergeGuard: Locator
  /** The confirmation a merge that breaks links asks for. */
  readonly mergeGuardDialog: Locator

  constructor(page: Page) {
    super(page)
    this.rows = page.getByTestId('cr-row')
    this.detail = page.getByTestId('cr-detail')
    this.changeRows = page.getByTestId('change-row')
    this.changeView = page.getByTestId('change-view')
    this.conflictBanner = page.getByTestId('cr-conflict-banner')
    this.outdatedBanner = page.getByTestId('cr-outdated-banner')
    this.mergeGuard = page.getByTestId('merge-guard')
    this.mergeGuardDialog = page.getByRole('dialog').filter({ has: page.getByTestId('merge-guard-confirm') })
  }

  async openSpace(token: string, spaceId: string): Promise<void> {
    await this.open(token, `/spaces/${spaceId}`)
    await this.waitUntilReady()
  }

  async clickTab(): Promise<void> {
    await this.page.getByTestId('tab-change-requests').click()
    await expect(this.page.getByTestId('cr-status-filter')).toBeVisible()
  }

  /** Opens the space straight on its Change requests tab (the tab's own address). */
  /** Opens the space (its Pages tab first, as a user lands there) and moves to the Change requests tab. */
  async openTab(token: string, spaceId: string): Promise<void> {
    await this.openSpace(token, spaceId)
    await this.clickTab()
    await expect(this.page.getByTestId('tab-change-requests')).toHaveAttribute('aria-selected', 'true')
  }

  async filter(status: Status): Promise<void> {
    await this.page.getByTestId('cr-status-filter').getByText(status, { exact: true }).click()
  }

  row(subject: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('cr-subject').getByText(subject, { exact: true }) })
  }

  async openChangeRequest(subject: string): Promise<void> {
    await this.row(subject).getByTestId('cr-subject').click()
    await expect(this.detail).toBeVisible()
    await expect(this.page.getByTestId('change-list').or(this.page.getByTestId('changes-empty'))).toBeVisible()
  }

  /** The status badge of the change request shown. */
  get status(): Locator {
    return this.detail.getByTestId('cr-status').first()
  }

  groupCount(group: Group): Locator {
    return this.page.locator(`[data-testid="change-group"][data-group="${group}"]`).getByTestId('change-group-count')
  }

  changeRow(title: string, type: 'page_created' | 'page_edited' | 'page_moved' | 'page_deleted'): Locator {
    return this.changeRows.and(this.page.locator(`[data-type="${type}"]`)).filter({ hasText: title })
  }

  async selectChange(title: string, type: 'page_created' | 'page_edited' | 'page_moved' | 'page_deleted'): Promise<void> {
    await this.changeRow(title, type).click()
    await expect(this.changeView.getByTestId('change-view-title')).toHaveText(title)
  }

  /** Lines marked as changed on one side of a side-by-side diff (`diff`, or `conflict-diff`). */
  changedLines(side: 'before' | 'after', diff = 'diff'): Locator {
    return this.page.getByTestId(diff).getByTestId(`diff-${side}`).locator('.cm-changedLine')
  }

  /** A broken link of a list (the notice or the dialog) by the page holding it and the link as written. */
  brokenLink(list: Locator, pageTitle: string, href: string): Locator {
    return list
      .getByTestId('broken-link')
      .filter({ has: this.page.getByTestId('broken-link-page').getByText(pageTitle, { exact: true }) })
      .filter({ has: this.page.getByTestId('broken-link-href').getByText(href, { exact: true }) })
  }

  /** Presses Merge on a change request that breaks links: the dialog listing them opens instead of merging. */
  async startMergeBreakingLinks(): Promise<void> {
    await this.page.getByTestId('cr-merge').click()
    await expect(this.mergeGuardDialog).toBeVisible()
  }

  /** The change request's reviews: who is asked, who approved, what blocks the merge, Approve / Request changes. */
  get reviewPanel(): Locator {
    return this.page.getByTestId('review-panel')
  }

  /** The merge rules' unmet conditions, in words. */
  get mergeBlockers(): Locator {
    return this.page.getByTestId('merge-blockers')
  }

  get mergeButton(): Locator {
    return this.page.getByTestId('cr-merge')
  }

  /** Asks a member for a review with the panel's picker. */
  async askReviewer(name: string): Promise<void> {
    await this.choose(this.reviewPanel.getByRole('combobox', { name: 'Ask for a review' }), name)
    await this.expectSuccess('Review requested')
    await expect(this.reviewPanel.getByTestId('requested-reviewer').filter({ hasText: name })).toBeVisible()
  }

  async approve(comment?: string): Promise<void> {
    if (comment) await this.reviewPanel.getByRole('textbox', { name: 'Review comment' }).fill(comment)
    await this.reviewPanel.getByRole('button', { name: 'Approve' }).click()
    await this.expectSuccess('Approved')
  }

  async merge(): Promise<void> {
    await this.page.getByTestId('cr-merge').click()
    await this.page.getByTestId('confirm-merge').click()
    await this.expectDialogsClosed()
  }
}
