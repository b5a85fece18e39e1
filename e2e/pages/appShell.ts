import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test'

export type NavTarget = 'spaces' | 'sites' | 'integrations' | 'openapi' | 'team' | 'settings' | 'trash'

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

  /**
   * Waits until the open dialog's opening transition has finished: a click in the first frames of a modal's
   * transition can be lost (seen on a loaded machine with a confirm modal's button).
   */
  async dialogSettled(): Promise<void> {
    await this.page
      .getByRole('dialog')
      .evaluate((dialog) => Promise.all(dialog.getAnimations({ subtree: true }).map((animation) => animation.finished)))
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

  /**
   * Screenshots of what is on screen at 1440x900 and 1024x700, in the light and the dark colour scheme (Mantine
   * follows the system's), for looking at a screen as its user would: taken when $QUIRE_SCREENS_DIR is set (and
   * copied there) or $QUIRE_SCREENS is 1, attached to the report. Otherwise (the test run of `npm test`) one
   * screenshot at the test's size is attached. Leaves the page in the light scheme at 1280x800.
   */
  async screenshots(name: string, testInfo: TestInfo): Promise<void> {
    const copyTo = process.env.QUIRE_SCREENS_DIR
    if (!copyTo && process.env.QUIRE_SCREENS !== '1') return this.screenshot(name, testInfo)
    if (copyTo) mkdirSync(copyTo, { recursive: true })
    for (const [width, height] of [
      [1440, 900],
      [1024, 700]
    ] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await this.page.setViewportSize({ width, height })
        await this.page.emulateMedia({ colorScheme: scheme })
        await expect(this.page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme)
        const file = `${name}-${width}x${height}-${scheme}.png`
        const path = testInfo.outputPath(file)
        await this.page.screenshot({ path, animations: 'disabled' })
        await testInfo.attach(file, { path, contentType: 'image/png' })
        if (copyTo) copyFileSync(path, join(copyTo, file))
      }
    }
    await this.page.emulateMedia({ colorScheme: 'light' })
    await this.page.setViewportSize({ width: 1280, height: 800 })
  }
}
