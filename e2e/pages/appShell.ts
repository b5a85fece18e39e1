import { expect, type Locator, type Page, type TestInfo } from '@playwright/test'

export type NavTarget = 'spaces' | 'sites' | 'team' | 'settings' | 'trash'

/** The frame around every screen: sidebar (organization, navigation), header (search, user), toasts. */
export class AppShell {
  readonly ready: Locator
  readonly currentUser: Locator
  readonly currentOrg: Locator
  readonly orgSwitcher: Locator
  readonly pageTitle: Locator
  readonly successToasts: Locator
  readonly errorToasts: Locator

  constructor(readonly page: Page) {
    this.ready = page.locator('[data-app-state="ready"]')
    this.currentUser = page.getByTestId('current-user')
    this.currentOrg = page.getByTestId('current-org')
    this.orgSwitcher = page.getByTestId('org-switcher')
    this.pageTitle = page.getByTestId('page-title')
    this.successToasts = page.getByTestId('toast-success')
    this.errorToasts = page.getByTestId('toast-error')
  }

  /** Opens the app signed in (the token is taken from the address once, then removed from it). */
  async open(token?: string, hash = ''): Promise<void> {
    await this.page.goto(`/${token ? `?token=${encodeURIComponent(token)}` : ''}${hash ? `#${hash}` : ''}`)
  }

  async waitUntilReady(): Promise<void> {
    await this.ready.waitFor()
  }

  async navigate(to: NavTarget): Promise<void> {
    await this.page.getByTestId(`nav-${to}`).click()
  }

  /** Waits for a success toast with this text (every write the user starts confirms or explains itself). */
  async expectSuccess(text: string | RegExp): Promise<void> {
    await expect(this.successToasts.filter({ hasText: text }).first()).toBeVisible()
  }

  /** Waits until no dialog is open or closing (a fading overlay still takes the pointer). */
  async expectDialogsClosed(): Promise<void> {
    await expect(this.page.getByRole('dialog')).toHaveCount(0)
  }

  /** Picks an option of a Mantine Select (a combobox input and a listbox of options). */
  async choose(select: Locator, option: string): Promise<void> {
    await select.click()
    await this.page.getByRole('option', { name: option, exact: true }).click()
  }

  /** Full-page screenshot saved in the test's output folder and attached to the report. */
  async screenshot(name: string, testInfo: TestInfo): Promise<void> {
    const path = testInfo.outputPath(`${name}.png`)
    await this.page.screenshot({ path, fullPage: true })
    await testInfo.attach(name, { path, contentType: 'image/png' })
  }
}
