import { type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** Team: Members, Teams and Invites tabs. */
export class TeamPage extends AppShell {
  readonly memberRows: Locator
  readonly teamRows: Locator
  readonly teamDrawer: Locator

  constructor(page: Page) {
    super(page)
    this.memberRows = page.getByTestId('member-row')
    this.teamRows = page.getByTestId('team-row')
    this.teamDrawer = page.getByTestId('team-drawer')
  }

  async tab(name: 'members' | 'teams' | 'invites'): Promise<void> {
    await this.page.getByTestId(`tab-${name}`).click()
  }

  member(email: string): Locator {
    return this.memberRows.filter({ has: this.page.getByTestId('member-email').getByText(email, { exact: true }) })
  }

  team(title: string): Locator {
    return this.teamRows.filter({ has: this.page.getByTestId('team-title').getByText(title, { exact: true }) })
  }

  async inviteByEmail(email: string, role: string): Promise<void> {
    const emails = this.page.getByTestId('invite-emails')
    await emails.fill(email)
    await emails.press('Enter')
    await this.choose(this.page.getByTestId('invite-role'), role)
    await this.page.getByTestId('invite-submit').click()
  }

  async searchMembers(text: string): Promise<void> {
    await this.page.getByTestId('member-search').fill(text)
  }

  async changeRole(email: string, role: string): Promise<void> {
    await this.choose(this.member(email).getByTestId('member-role'), role)
  }

  async createTeam(title: string): Promise<void> {
    await this.page.getByTestId('new-team').click()
    await this.page.getByTestId('team-title-input').fill(title)
    await this.page.getByTestId('team-dialog-submit').click()
  }

  /** In the open team drawer: finds a member by e-mail in the picker and adds them. */
  async addToTeam(email: string): Promise<void> {
    const picker = this.teamDrawer.getByTestId('team-add-picker')
    await picker.fill(email)
    await this.page.getByRole('option', { name: new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).click()
    await picker.press('Escape')
    await this.teamDrawer.getByTestId('team-add-submit').click()
  }

  teamMember(name: string): Locator {
    return this.teamDrawer.getByTestId('team-member-row').filter({ hasText: name })
  }
}
