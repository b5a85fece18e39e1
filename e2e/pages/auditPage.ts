import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** The organization's audit log (Settings → Audit log): filters, the event list, an event's drawer. */
export class AuditPage extends AppShell {
  readonly rows: Locator
  readonly count: Locator
  readonly actionFilter: Locator
  readonly actorFilter: Locator
  readonly targetFilter: Locator
  readonly fromDay: Locator
  readonly toDay: Locator
  readonly exportButton: Locator
  readonly detail: Locator

  constructor(page: Page) {
    super(page)
    this.rows = page.getByTestId('audit-row')
    this.count = page.getByTestId('audit-count')
    this.actionFilter = page.getByRole('combobox', { name: 'Filter by action' })
    this.actorFilter = page.getByRole('combobox', { name: 'Filter by actor' })
    this.targetFilter = page.getByRole('textbox', { name: 'Filter by target id' })
    this.fromDay = page.getByLabel('From day')
    this.toDay = page.getByLabel('To day')
    this.exportButton = page.getByRole('button', { name: 'Export CSV' })
    this.detail = page.getByTestId('audit-detail')
  }

  row(action: string): Locator {
    return this.page.locator(`[data-testid="audit-row"][data-action="${action}"]`)
  }

  async openFromSettings(orgId: string, token: string): Promise<void> {
    await this.open(token, `/orgs/${orgId}/settings`)
    await this.page.getByTestId('tab-audit').click()
    await this.waitUntilReady()
  }

  async expectCount(n: number): Promise<void> {
    await expect(this.count).toHaveText(`${n} ${n === 1 ? 'event' : 'events'}`)
  }
}
