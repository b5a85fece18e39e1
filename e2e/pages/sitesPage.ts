import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

export type SiteTab = 'structure' | 'share-links' | 'redirects' | 'preview' | 'customization' | 'adaptive' | 'settings'

/** Sites: the organization's list, and a site's editor (header, structure tree and details, tabs). */
export class SitesPage extends AppShell {
  readonly siteRows: Locator
  readonly structureRows: Locator
  readonly inspector: Locator
  readonly shareLinkRows: Locator
  readonly publishedBadge: Locator
  readonly redirectRows: Locator

  constructor(page: Page) {
    super(page)
    this.siteRows = page.getByTestId('site-row')
    this.structureRows = page.getByTestId('structure-row')
    this.inspector = page.getByTestId('structure-inspector')
    this.shareLinkRows = page.getByTestId('share-link-row')
    this.publishedBadge = page.getByTestId('site-published-badge')
    this.redirectRows = page.getByTestId('redirect-row')
  }

  site(title: string): Locator {
    return this.siteRows.filter({ has: this.page.getByTestId('site-title').getByText(title, { exact: true }) })
  }

  structureRow(title: string): Locator {
    return this.structureRows.filter({ has: this.page.getByTestId('structure-row-title').getByText(title, { exact: true }) })
  }

  shareLink(name: string): Locator {
    return this.shareLinkRows.filter({ has: this.page.getByTestId('share-link-title').getByText(name, { exact: true }) })
  }

  redirect(source: string): Locator {
    return this.redirectRows.filter({ has: this.page.getByTestId('redirect-source').getByText(source, { exact: true }) })
  }

  /** Opens the import dialog of the Redirects tab and pastes a CSV (not sent yet: the dialog checks it first). */
  async pasteRedirectsCsv(csv: string): Promise<void> {
    await this.page.getByTestId('import-redirects').click()
    await this.page.getByTestId('redirects-csv').fill(csv)
  }

  /** Creates a site from the list; the app opens its editor. */
  async createSite(title: string): Promise<void> {
    await this.page.getByTestId('new-site').click()
    await this.page.getByTestId('site-title-input').fill(title)
    await this.page.getByTestId('site-dialog-submit').click()
    await this.expectDialogsClosed()
    await expect(this.pageTitle).toContainText(title)
  }

  async tab(name: SiteTab): Promise<void> {
    await this.page.getByTestId(`tab-${name}`).click()
  }

  /** Adds a space to the site through the "Add space" dialog's picker. */
  async addSiteSpace(spaceTitle: string): Promise<void> {
    await this.page.getByTestId('add-site-space').click()
    const picker = this.page.getByTestId('add-site-space-picker')
    await picker.click()
    await picker.fill(spaceTitle)
    await this.page.getByRole('option', { name: new RegExp(`${escape(spaceTitle)}$`) }).click()
    await this.page.getByTestId('add-site-space-submit').click()
    await this.expectDialogsClosed()
    await expect(this.structureRow(spaceTitle)).toBeVisible()
  }

  /** Selects a row of the structure tree; its details open beside the tree. */
  async selectRow(title: string): Promise<void> {
    await this.structureRow(title).getByTestId('structure-row-title').click()
    await expect(this.inspector.getByTestId('inspector-title')).toHaveText(title)
  }

  async savePath(path: string): Promise<void> {
    await this.inspector.getByTestId('path-input').fill(path)
    await this.inspector.getByTestId('details-save').click()
  }

  async saveCondition(condition: string): Promise<void> {
    await this.inspector.getByTestId('condition-input').fill(condition)
    await this.inspector.getByTestId('details-save').click()
  }

  async setVisibility(label: string): Promise<void> {
    await this.choose(this.page.getByTestId('site-visibility'), label)
  }

  /** Creates a share link; the dialog that shows its address (this once) opens. */
  async createShareLink(name: string): Promise<void> {
    await this.page.getByTestId('share-link-name').fill(name)
    await this.page.getByTestId('create-share-link').click()
    await expect(this.page.getByTestId('created-share-link-url')).toBeVisible()
  }

  /** Copies the address of the link just created, and closes its dialog. */
  async copyCreatedShareLink(): Promise<void> {
    await this.page.getByTestId('copy-share-link').click()
    await this.page.getByTestId('created-share-link-done').click()
    await expect(this.page.getByTestId('created-share-link-url')).toHaveCount(0)
  }

  async togglePublished(): Promise<void> {
    await this.page.getByTestId('publish-toggle').click()
  }
}
