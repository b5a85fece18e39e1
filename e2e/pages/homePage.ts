import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** What the app opens on: the organization home of the caller's (last or first) organization. */
export class HomePage extends AppShell {
  readonly noTokenNotice: Locator

  constructor(page: Page) {
    super(page)
    this.noTokenNotice = page.getByTestId('no-token')
  }

  /** The organization the shell shows, by title. */
  organization(title: string): Locator {
    return this.currentOrg.filter({ hasText: title })
  }

  async expectSignedOut(): Promise<void> {
    await expect(this.noTokenNotice).toBeVisible()
  }
}
