import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

/** The organization home: spaces and collections as a tree, with their dialogs and menus. */
export class SpacesPage extends AppShell {
  readonly tree: Locator
  readonly rows: Locator

  constructor(page: Page) {
    super(page)
    this.tree = page.getByTestId('content-tree')
    this.rows = page.getByTestId('tree-row')
  }

  row(title: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('tree-row-title').getByText(title, { exact: true }) })
  }

  /** The row of `title`, scrolled into view: the tree draws only the rows near the view, top to bottom. */
  async reveal(title: string): Promise<Locator> {
    const row = this.row(title)
    const root = this.page.locator('main[data-scroll-root]')
    await root.evaluate((el) => el.scrollTo({ top: 0 }))
    await expect(async () => {
      if ((await row.count()) === 0) await root.evaluate((el) => el.scrollBy({ top: el.clientHeight * 0.8 }))
      expect(await row.count()).toBeGreaterThan(0)
    }).toPass({ timeout: 10_000 })
    return row
  }

  async createCollection(title: string): Promise<void> {
    await this.page.getByTestId('new-collection').click()
    await this.page.getByTestId('collection-title-input').fill(title)
    await this.page.getByTestId('collection-dialog-submit').click()
    await this.expectDialogsClosed()
    await expect(this.row(title)).toBeVisible()
  }

  async createSpace(title: string): Promise<void> {
    await this.page.getByTestId('new-space').click()
    await this.page.getByTestId('space-title-input').fill(title)
    await this.page.getByTestId('space-dialog-submit').click()
    await this.expectDialogsClosed()
    await expect(this.row(title)).toBeVisible()
  }

  async openRowMenu(title: string): Promise<void> {
    const row = this.row(title)
    await row.hover()
    await row.getByTestId('row-menu').click()
  }

  async rename(title: string, newTitle: string): Promise<void> {
    await this.openRowMenu(title)
    await this.page.getByRole('menuitem', { name: 'Rename…' }).click()
    const input = this.page.getByTestId('space-title-input')
    await input.fill(newTitle)
    await this.page.getByTestId('space-dialog-submit').click()
    await this.expectDialogsClosed()
    await expect(this.row(newTitle)).toBeVisible()
  }

  /**
   * Drags a row onto the middle of a collection row with real pointer events: a small first move passes the
   * drag threshold, the drop indicator says "inside" before the button is released.
   */
  async dragInto(title: string, collectionTitle: string): Promise<void> {
    const source = this.row(title)
    const target = this.row(collectionTitle)
    // hover() waits until the row itself receives the pointer (no closing dialog or menu above it).
    await source.getByTestId('tree-row-title').hover()
    const from = (await source.getByTestId('tree-row-title').boundingBox())!
    await this.page.mouse.move(from.x + 10, from.y + from.height / 2)
    await this.page.mouse.down()
    await this.page.mouse.move(from.x + 20, from.y + from.height / 2 + 8, { steps: 4 })
    // The tree draws only the rows near the view: a collection far above is not drawn yet. Hold the pointer at the
    // top of the scrolling area, where dnd-kit scrolls the page up, until its row is.
    const area = (await this.page.locator('main[data-scroll-root]').boundingBox())!
    for (let i = 0; i < 100 && (await target.count()) === 0; i++) {
      await this.page.mouse.move(from.x + 20, area.y + 6, { steps: 2 })
      await this.page.waitForTimeout(100)
    }
    const to = (await target.getByTestId('tree-row-title').boundingBox())!
    await this.page.mouse.move(to.x + 20, to.y + to.height / 2, { steps: 12 })
    // dnd-kit scrolls the page while the pointer is near its top or bottom (a long tree: the source row near the
    // bottom, the collection near the top): follow the target until the page stops moving, then drop on it.
    let last = to
    for (let i = 0; i < 30; i++) {
      await this.page.waitForTimeout(100)
      const now = (await target.getByTestId('tree-row-title').boundingBox())!
      if (now.y === last.y) break
      last = now
      await this.page.mouse.move(now.x + 20, now.y + now.height / 2, { steps: 2 })
    }
    await expect(target).toHaveAttribute('data-drop', 'inside')
    await this.page.mouse.up()
  }

  async delete(title: string): Promise<void> {
    await this.openRowMenu(title)
    await this.page.getByRole('menuitem', { name: 'Delete' }).click()
    await this.page.getByTestId('confirm-delete').click()
    await expect(this.row(title)).toHaveCount(0)
  }
}
