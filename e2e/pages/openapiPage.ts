import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** The organization's API specs, and one spec's processing, error and versions. */
export class OpenAPIPage extends AppShell {
  readonly rows: Locator
  readonly dialog: Locator
  readonly status: Locator
  readonly error: Locator

  constructor(page: Page) {
    super(page)
    this.rows = page.getByTestId('spec-row')
    this.dialog = page.getByRole('dialog', { name: 'Add an API spec' })
    this.status = page.getByTestId('spec-processing').getByTestId('spec-status')
    this.error = page.getByTestId('spec-error')
  }

  row(slug: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('spec-slug').getByText(slug, { exact: true }) })
  }

  /** Adds a spec from an address through the dialog; the screen then shows it. */
  async addFromUrl(url: string, slug: string): Promise<void> {
    await this.page.getByTestId('new-spec').click()
    await this.page.getByTestId('spec-url').fill(url)
    await this.page.getByTestId('spec-slug-input').fill(slug)
    await this.page.getByTestId('spec-dialog-submit').click()
    await expect(this.dialog).toBeHidden()
    await expect(this.pageTitle).toHaveText(slug)
  }

  async addFromFile(name: string, text: string): Promise<void> {
    await this.page.getByTestId('new-spec').click()
    await this.dialog.getByText('Upload a file').click()
    await this.dialog.locator('input[type="file"]').setInputFiles({ name, mimeType: 'application/yaml', buffer: Buffer.from(text) })
    await this.page.getByTestId('spec-dialog-submit').click()
    await expect(this.dialog).toBeHidden()
  }
}
