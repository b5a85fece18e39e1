import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** Integrations: the registry (search, category, cards) and an integration's page (install, configure, uninstall). */
export class IntegrationsPage extends AppShell {
  readonly cards: Locator
  readonly installedPlaces: Locator
  readonly installDialog: Locator
  readonly configureDialog: Locator

  constructor(page: Page) {
    super(page)
    this.cards = page.getByTestId('integration-list').getByTestId('integration-card')
    this.installedPlaces = page.getByTestId('installed-place')
    this.installDialog = page.getByTestId('install-dialog')
    this.configureDialog = page.getByTestId('configure-dialog')
  }

  card(title: string): Locator {
    return this.cards.filter({ has: this.page.getByTestId('integration-card-title').getByText(title, { exact: true }) })
  }

  /** The organization's own row in "Installed on". */
  get orgPlace(): Locator {
    return this.page.locator('[data-testid="installed-place"][data-place="organization"]')
  }

  place(title: string): Locator {
    return this.installedPlaces.filter({ has: this.page.getByTestId('installed-place-title').getByText(title, { exact: true }) })
  }

  async search(text: string): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Search integrations' }).fill(text)
  }

  async filterCategory(label: string): Promise<void> {
    await this.choose(this.page.getByRole('combobox', { name: 'Category' }), label)
  }

  /** A field of the open configuration form, by its label. */
  field(dialog: Locator, label: string): Locator {
    return dialog.getByLabel(label, { exact: false })
  }

  /** The field is marked invalid and its message says `text`. */
  async expectFieldError(dialog: Locator, name: string, text: string): Promise<void> {
    const input = dialog.getByTestId(`config-${name}`)
    await expect(input).toHaveAttribute('aria-invalid', 'true')
    await expect(input).toHaveAccessibleDescription(new RegExp(text))
  }
}
