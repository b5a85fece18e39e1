import { expect, type Download, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/**
 * The workspace switcher at the top of the sidebar, its "New workspace" dialog (on this computer or on a server),
 * "Manage workspaces", and a connected workspace's connection banner and unsent changes (the header's pill and
 * its dialog).
 */
export class WorkspacesPage extends AppShell {
  readonly switcher: Locator
  readonly currentWorkspace: Locator
  /** Under the current workspace's name: "Workspace", or "Connected · host". */
  readonly currentWorkspaceKind: Locator
  readonly urlInput: Locator
  readonly tokenInput: Locator
  readonly createdAccount: Locator
  readonly banner: Locator
  readonly menu: Locator
  readonly menuItems: Locator
  readonly singleWorkspaceNote: Locator
  readonly nameInput: Locator
  readonly manageDialog: Locator
  readonly rows: Locator
  /** The header's pill: "2 changes not sent", "1 change refused". */
  readonly unsentPill: Locator
  readonly unsentDialog: Locator
  readonly unsentItems: Locator
  /** What the last send, retry or discard did, in the dialog. */
  readonly unsentOutcome: Locator
  readonly openFileDialog: Locator
  readonly fileNameInput: Locator

  constructor(page: Page) {
    super(page)
    this.switcher = page.getByTestId('workspace-switcher')
    this.currentWorkspace = page.getByTestId('current-workspace')
    this.currentWorkspaceKind = page.getByTestId('current-workspace-kind')
    this.urlInput = page.getByTestId('workspace-url-input')
    this.tokenInput = page.getByTestId('workspace-token-input')
    this.createdAccount = page.getByTestId('workspace-created-account')
    this.banner = page.getByTestId('connection-banner')
    this.menu = page.getByTestId('workspace-menu')
    this.menuItems = page.getByTestId('workspace-item')
    this.singleWorkspaceNote = page.getByTestId('workspace-single-note')
    this.nameInput = page.getByTestId('workspace-name-input')
    this.manageDialog = page.getByRole('dialog', { name: 'Manage workspaces' })
    this.rows = page.getByTestId('workspace-row')
    this.unsentPill = page.getByTestId('unsent-changes')
    this.unsentDialog = page.getByRole('dialog', { name: 'Unsent changes' })
    this.unsentItems = this.unsentDialog.getByTestId('unsent-item')
    this.unsentOutcome = this.unsentDialog.getByTestId('unsent-outcome')
    this.openFileDialog = page.getByRole('dialog', { name: /Open workspace file|Workspace opened/ })
    this.fileNameInput = page.getByTestId('workspace-file-name-input')
  }

  /** "Back up" on a row of Manage workspaces: the file the browser then saves. */
  async backUp(name: string): Promise<Download> {
    const download = this.page.waitForEvent('download')
    await this.row(name).getByTestId('workspace-backup').click()
    return download
  }

  /**
   * "Open workspace file…" from Manage workspaces: picks `file` in the file chooser, names the workspace (the
   * name the file suggests when `name` is not given) and submits. The dialog then offers to switch, or shows why not.
   */
  async submitWorkspaceFile(file: string, name?: string): Promise<void> {
    if (!(await this.openFileDialog.isVisible())) {
      if (!(await this.manageDialog.isVisible())) await this.openManage()
      await this.page.getByTestId('manage-open-workspace-file').click()
      await expect(this.openFileDialog).toBeVisible()
    }
    const chooser = this.page.waitForEvent('filechooser')
    await this.page.getByTestId('workspace-file-input').click()
    await (await chooser).setFiles(file)
    if (name !== undefined) await this.fileNameInput.fill(name)
    await this.page.getByTestId('workspace-file-submit').click()
  }

  /** Why a workspace of Manage workspaces cannot be opened (its message, file and what to do). */
  problem(name: string): Locator {
    return this.row(name).getByTestId('workspace-row-problem')
  }

  async openMenu(): Promise<void> {
    await this.switcher.click()
    await expect(this.menu).toBeVisible()
  }

  menuItem(name: string): Locator {
    return this.menuItems.filter({ has: this.page.getByText(name, { exact: true }) })
  }

  /** Opens "New workspace…", types the name and submits (the dialog stays open: it either offers to switch or shows an error). */
  async submitNewWorkspace(name: string): Promise<void> {
    if (!(await this.nameInput.isVisible())) {
      await this.openMenu()
      await this.page.getByTestId('new-workspace').click()
    }
    await this.nameInput.fill(name)
    await this.page.getByTestId('workspace-create-submit').click()
  }

  /**
   * Opens "New workspace…", chooses "On a server", fills name, address and token and submits (the dialog stays
   * open: it either names the account it connected as, or shows an error by a field).
   */
  async submitConnection(name: string, url: string, token: string): Promise<void> {
    if (!(await this.nameInput.isVisible())) {
      await this.openMenu()
      await this.page.getByTestId('new-workspace').click()
    }
    await this.page.getByTestId('workspace-kind-remote').click()
    await this.nameInput.fill(name)
    await this.urlInput.fill(url)
    await this.tokenInput.fill(token)
    await this.page.getByTestId('workspace-create-submit').click()
  }

  /** The text of a field's error, which Mantine ties to the input as its description. */
  async expectFieldError(input: Locator, text: string | RegExp): Promise<void> {
    await expect(input).toHaveAttribute('data-invalid', 'true')
    await expect(input).toHaveAccessibleDescription(text)
  }

  /** Creates a workspace; the dialog then offers "Switch now" and "Stay here". */
  async create(name: string): Promise<void> {
    await this.submitNewWorkspace(name)
    await expect(this.page.getByTestId('workspace-switch-now')).toBeVisible()
  }

  async switchNow(name: string): Promise<void> {
    await this.page.getByTestId('workspace-switch-now').click()
    await this.expectDialogsClosed()
    await this.expectSuccess(`Switched to ${name}`)
    await expect(this.currentWorkspace).toHaveText(name)
  }

  async switchTo(name: string): Promise<void> {
    await this.openMenu()
    await this.menuItem(name).click()
    await this.expectSuccess(`Switched to ${name}`)
    await expect(this.currentWorkspace).toHaveText(name)
  }

  async openManage(): Promise<void> {
    await this.openMenu()
    await this.page.getByTestId('manage-workspaces').click()
    await expect(this.manageDialog).toBeVisible()
  }

  row(name: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('workspace-row-name').getByText(name, { exact: true }) })
  }

  async rename(name: string, newName: string): Promise<void> {
    await this.row(name).getByTestId('workspace-rename').click()
    const input = this.page.getByTestId('workspace-rename-input')
    await input.fill(newName)
    await input.press('Enter')
    await expect(this.row(newName)).toBeVisible()
  }

  /** Deletes a workspace from "Manage workspaces"; `expectText` must appear in the confirmation. */
  async delete(name: string, expectText: RegExp): Promise<void> {
    await this.row(name).getByTestId('workspace-delete').click()
    const confirm = this.page.getByTestId('workspace-delete-confirm')
    await expect(confirm).toContainText(name)
    await expect(confirm).toContainText(expectText)
    await this.page.getByTestId('workspace-confirm-delete').click()
    await expect(this.row(name)).toHaveCount(0)
  }

  /** The connection badge of a connected workspace's row (Online, Cannot reach, Token refused, Not checked). */
  connectionStatus(name: string): Locator {
    return this.row(name).getByTestId('workspace-connection-status')
  }

  /** "Check connection" on a row of Manage workspaces. */
  async checkConnection(name: string): Promise<void> {
    await this.row(name).getByTestId('workspace-check').click()
  }

  /** "Change token…" on a row of Manage workspaces: types the token and saves (the form stays on an error). */
  async submitNewToken(name: string, token: string): Promise<void> {
    const form = this.page.getByTestId('workspace-token-form')
    if (!(await form.isVisible())) await this.row(name).getByTestId('workspace-change-token').click()
    await form.getByTestId('workspace-token-input').fill(token)
    await form.getByTestId('workspace-token-save').click()
  }

  /** "Try again" on the connection banner: the connection status the check it starts found. */
  async retryConnection(): Promise<string | undefined> {
    const checked = this.page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname.endsWith('/check'))
    await this.banner.getByTestId('connection-retry').click()
    const workspace = (await (await checked).json()) as { remote?: { connection: { status: string } } }
    return workspace.remote?.connection.status
  }

  /** Opens the Unsent changes dialog from the header's pill. */
  async openUnsent(): Promise<void> {
    await this.unsentPill.click()
    await expect(this.unsentDialog).toBeVisible()
  }

  /** An item of the Unsent changes dialog, by its change request's label (`#2 Edit “Overview”`). */
  unsentItem(changeRequest: string | RegExp): Locator {
    return this.unsentItems.filter({ has: this.page.getByTestId('unsent-item-change-request').getByText(changeRequest) })
  }

  /** "Send now" in the Unsent changes dialog; resolves once the send answered and the dialog says what it did. */
  async sendNow(): Promise<void> {
    const sent = this.page.waitForResponse(
      (res) => res.request().method() === 'POST' && new URL(res.url()).pathname.endsWith('/outbox/sync')
    )
    await this.unsentDialog.getByTestId('unsent-send').click()
    await sent
    await expect(this.unsentOutcome).toBeVisible()
  }

  async closeUnsent(): Promise<void> {
    await this.unsentDialog.getByTestId('unsent-close').click()
    await this.expectDialogsClosed()
  }

  async closeManage(): Promise<void> {
    await this.manageDialog.getByRole('button', { name: 'Done' }).click()
    await this.expectDialogsClosed()
  }
}
