import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** A space's Settings tab: lock, audience, custom field values, transfer (and the transfer dialog). */
export class SpaceSettingsPage extends AppShell {
  readonly screen: Locator
  readonly lockSwitch: Locator
  readonly transferDialog: Locator

  constructor(page: Page) {
    super(page)
    this.screen = page.getByTestId('space-settings')
    this.lockSwitch = page.getByTestId('lock-switch')
    this.transferDialog = page.getByRole('dialog', { name: /^Transfer (space|collection) to another organization$/ })
  }

  async openFor(token: string, spaceId: string): Promise<void> {
    await this.open(token, `/spaces/${spaceId}/settings`)
    await this.waitUntilReady()
    await expect(this.screen).toBeVisible()
  }

  /** The merge rules section (its own Save). */
  get mergeRules(): Locator {
    return this.page.getByRole('region', { name: 'Merge rules' })
  }

  /** The custom fields section, where each field's input is named by its title. */
  get customFields(): Locator {
    return this.page.getByRole('region', { name: 'Custom fields' })
  }

  async saveCustomFields(): Promise<void> {
    await this.page.getByTestId('custom-fields-save').click()
    await this.expectSuccess('Custom fields saved')
  }

  /** Opens the transfer dialog from the space's menu, picks the organization and confirms. */
  async transferTo(orgTitle: string): Promise<void> {
    await this.page.getByTestId('space-menu').click()
    await this.page.getByTestId('space-transfer').click()
    await expect(this.transferDialog).toBeVisible()
    await this.choose(this.page.getByTestId('transfer-target'), orgTitle)
  }
}
