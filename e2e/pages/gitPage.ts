import type { Locator, Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** A space's Git tab: its repository connection, import and export, and the last sync's state. */
export class GitPage extends AppShell {
  readonly tab: Locator
  readonly screen: Locator
  readonly form: Locator
  readonly url: Locator
  readonly branch: Locator
  readonly connect: Locator
  readonly connection: Locator
  readonly importButton: Locator
  readonly exportButton: Locator
  readonly lastSync: Locator
  readonly status: Locator
  readonly commit: Locator
  readonly nonFastForward: Locator
  readonly importFirst: Locator
  readonly forceExport: Locator
  readonly forceDialog: Locator
  readonly confirmForce: Locator

  constructor(page: Page) {
    super(page)
    this.tab = page.getByTestId('tab-git')
    this.screen = page.getByTestId('git-screen')
    this.form = page.getByTestId('git-connection-form')
    this.url = this.form.getByRole('textbox', { name: 'Repository URL' })
    this.branch = this.form.getByRole('textbox', { name: 'Branch' })
    this.connect = page.getByTestId('git-connect')
    this.connection = page.getByTestId('git-connection')
    this.importButton = page.getByRole('button', { name: 'Import from Git' })
    this.exportButton = page.getByRole('button', { name: 'Export to Git' })
    this.lastSync = page.getByTestId('git-last-sync')
    this.status = page.getByTestId('git-status')
    this.commit = page.getByTestId('git-commit')
    this.nonFastForward = page.getByTestId('git-non-fast-forward')
    this.importFirst = page.getByRole('button', { name: 'Import first' })
    this.forceExport = page.getByRole('button', { name: 'Force export…' })
    this.forceDialog = page.getByRole('dialog', { name: 'Force the export?' })
    this.confirmForce = page.getByTestId('git-confirm-force')
  }

  /** Waits until the last sync finished with `status` (the screen polls while it runs). */
  finished(status: 'succeeded' | 'failed'): Locator {
    return this.page.locator(`[data-testid="git-last-sync"][data-status="${status}"]`)
  }
}
