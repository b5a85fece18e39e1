import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** The Share dialog of a space or collection, and a team's spaces drawer. */
export class AccessPage extends AppShell {
  readonly dialog: Locator
  readonly teamSpaces: Locator

  constructor(page: Page) {
    super(page)
    this.dialog = page.getByRole('dialog', { name: /^Share “/ })
    this.teamSpaces = page.getByTestId('team-spaces')
  }

  /** From a space's Pages tab: the space menu's "Share…". */
  async openFromSpaceMenu(): Promise<void> {
    await this.page.getByTestId('space-menu').click()
    await this.page.getByTestId('space-menu-share').click()
    await expect(this.dialog).toBeVisible()
  }

  async show(view: 'Shared with' | 'Everyone with access'): Promise<void> {
    await this.dialog.getByText(view, { exact: true }).click()
  }

  /** A row of "Everyone with access". */
  person(name: string): Locator {
    return this.dialog.getByTestId('share-person').and(this.page.locator(`[data-name="${name}"]`))
  }

  /** A row of "Shared with" (a person or a team). */
  grant(name: string): Locator {
    return this.dialog.getByTestId('share-grant').and(this.page.locator(`[data-name="${name}"]`))
  }

  /** In the dialog's invite row: picks a member by e-mail, a role, and shares. */
  async invitePerson(email: string, role: string): Promise<void> {
    const picker = this.dialog.getByTestId('share-people')
    await picker.fill(email)
    await this.page.getByRole('option', { name: new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).click()
    await picker.press('Escape')
    await this.choose(this.dialog.getByTestId('share-role'), role)
    await this.dialog.getByTestId('share-submit').click()
  }

  /** In a team's spaces drawer: gives the team `role` on the space titled `space`. */
  async grantTeamSpace(space: string, role: string): Promise<void> {
    await this.choose(this.teamSpaces.getByTestId('team-space-picker'), space)
    await this.choose(this.teamSpaces.getByTestId('team-space-role'), role)
    await this.teamSpaces.getByTestId('team-space-submit').click()
  }

  teamSpace(title: string): Locator {
    return this.teamSpaces.getByTestId('team-space-row').and(this.page.locator(`[data-name="${title}"]`))
  }
}
