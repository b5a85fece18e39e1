import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

export type DropZone = 'before' | 'inside' | 'after'

/** A text on screen, its colour and background as drawn, and their WCAG contrast ratio. */
export interface TextContrast {
  text: string
  color: string
  background: string
  ratio: number
}

/** A space's Pages tab: the page tree, the page editor (title, save bar, CodeMirror, preview) and uploads. */
export class EditorPage extends AppShell {
  readonly tree: Locator
  readonly rows: Locator
  readonly titleInput: Locator
  readonly markdown: Locator
  readonly preview: Locator
  readonly frontMatter: Locator
  readonly saveStatus: Locator
  readonly saveTarget: Locator
  readonly saveError: Locator
  readonly readOnlyBanner: Locator
  readonly uploadInput: Locator
  readonly uploadErrors: Locator
  readonly searchInput: Locator
  readonly searchResults: Locator
  readonly searchCount: Locator

  constructor(page: Page) {
    super(page)
    this.tree = page.getByTestId('page-tree')
    this.rows = page.getByTestId('page-row')
    this.titleInput = page.getByTestId('page-title-input')
    this.markdown = page.getByTestId('markdown-editor').locator('.cm-content')
    this.preview = page.getByTestId('preview')
    this.frontMatter = page.getByTestId('front-matter')
    this.saveStatus = page.getByTestId('save-status')
    this.saveTarget = page.getByTestId('save-target')
    this.saveError = page.getByTestId('save-error')
    this.readOnlyBanner = page.getByTestId('read-only-banner')
    this.uploadInput = page.getByTestId('upload-input')
    this.uploadErrors = page.getByTestId('upload-error')
    this.searchInput = page.getByTestId('space-search-input')
    this.searchResults = page.getByTestId('space-search-result')
    this.searchCount = page.getByTestId('space-search-count')
  }

  /** A page found by the space search (title and sections). */
  searchResult(title: string): Locator {
    return this.searchResults.filter({ has: this.page.getByRole('button', { name: title, exact: true }) })
  }

  row(title: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('page-row-title').getByText(title, { exact: true }) })
  }

  /** Opens a space on its Pages tab (which opens its first page). */
  async openSpace(token: string, spaceId: string): Promise<void> {
    await this.open(token, `/spaces/${spaceId}`)
    await this.waitUntilReady()
  }

  /** `{spaceId, changeRequest?, pageId}` read from the address (`#/spaces/…[/change-requests/N]/pages/…`). */
  where(): { spaceId: string; changeRequest?: number; pageId: string } {
    const hash = new URL(this.page.url()).hash
    const match = /^#\/spaces\/([^/]+)(?:\/change-requests\/(\d+))?\/pages\/([^/?]+)/.exec(hash)
    if (!match) throw new Error(`Not on a page editor: ${hash}`)
    return { spaceId: match[1]!, changeRequest: match[2] ? Number(match[2]) : undefined, pageId: match[3]! }
  }

  async addPage(): Promise<void> {
    await this.page.getByTestId('new-page').click()
  }

  async addChildPage(parentTitle: string): Promise<void> {
    const row = this.row(parentTitle)
    await row.hover()
    await row.getByTestId('page-add-child').click()
  }

  /** Types at the end of the markdown, as a user would (CodeMirror's own keys: lists continue on Enter). */
  async typeMarkdown(text: string): Promise<void> {
    await this.markdown.click()
    await this.page.keyboard.press('ControlOrMeta+End')
    await this.page.keyboard.type(text)
  }

  /** Opens the page's settings (the toolbar's drawer). */
  async openPageSettings(): Promise<void> {
    await this.page.getByTestId('page-settings').click()
    await expect(this.page.getByTestId('page-settings-panel')).toBeVisible()
  }

  /** A switch of the layout settings: a part of the page (`title`, `outline`...) or `noIndex`. */
  pageSetting(name: string): Locator {
    return this.page.getByTestId(`layout-${name}`)
  }

  /** A field of the page settings drawer: `slug`, `slug-save`, `path`, `emoji`, `description`, `cover`, `hidden`… */
  settingsField(name: string): Locator {
    return this.page.getByTestId(`setting-${name}`)
  }

  async expectSaved(): Promise<void> {
    await expect(this.saveStatus).toHaveAttribute('data-status', 'saved')
  }

  /** Chooses Edit, Split or Preview in the header's layout switch (labelled, or icons named by aria-label). */
  async setMode(mode: 'Edit' | 'Split' | 'Preview'): Promise<void> {
    // The radios are visually hidden inputs (Mantine's SegmentedControl): a click event, not a pointer at a point.
    const radio = this.page.getByTestId('editor-mode').getByRole('radio', { name: mode, exact: true })
    await radio.dispatchEvent('click')
    await expect(radio).toBeChecked()
  }

  /** The writing layout's panes and controls. */
  get panes() {
    const page = this.page
    return {
      tree: page.getByTestId('tree-pane'),
      editor: page.getByTestId('markdown-editor'),
      previewPane: page.getByTestId('preview-pane'),
      comments: page.getByTestId('comments-pane'),
      header: page.getByTestId('editor-header'),
      treeSeparator: page.getByRole('separator', { name: 'Resize page tree' }),
      previewSeparator: page.getByRole('separator', { name: 'Resize preview' }),
      commentsSeparator: page.getByRole('separator', { name: 'Resize comments' }),
      toggleComments: page.getByTestId('toggle-comments'),
      closeComments: page.getByRole('button', { name: 'Close comments' }),
      focusMode: page.getByTestId('focus-mode'),
      sidebar: page.getByRole('navigation', { name: 'Main' })
    }
  }

  /** A locator's box on screen (it must be visible). */
  async box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
    const box = await locator.boundingBox()
    expect(box, 'the element has a box on screen').not.toBeNull()
    return box!
  }

  /** Drags a separator sideways by `dx` px with real pointer events. */
  async dragSeparator(separator: Locator, dx: number): Promise<void> {
    const b = await this.box(separator)
    const x = b.x + b.width / 2
    const y = b.y + b.height / 2
    await this.page.mouse.move(x, y)
    await this.page.mouse.down()
    await this.page.mouse.move(x + dx / 2, y, { steps: 4 })
    await this.page.mouse.move(x + dx, y, { steps: 4 })
    await this.page.mouse.up()
  }

  /**
   * Every visible text under `root` (its shadow roots too: CodeMirror lives in one) with its colour, the colour of
   * what is behind it (the nearest opaque background up the tree, with the translucent ones above it laid over) and
   * their WCAG contrast ratio.
   */
  async textContrasts(root: Locator): Promise<TextContrast[]> {
    return root.evaluate((el) => {
      type Rgba = [number, number, number, number]
      const parse = (c: string): Rgba => {
        // color-mix() computes to color(srgb r g b / a), in 0..1.
        const srgb = /color\(srgb ([^)]+)\)/.exec(c)
        if (srgb) {
          const [r, g, b, a = '1'] = srgb[1]!.split(/[ /]+/).filter(Boolean)
          return [Number(r) * 255, Number(g) * 255, Number(b) * 255, Number(a)]
        }
        const m = /rgba?\(([^)]+)\)/.exec(c)
        if (!m) throw new Error(`Unexpected colour ${c}`)
        const [r, g, b, a = '1'] = m[1]!.split(/[ ,/]+/).filter(Boolean)
        return [Number(r), Number(g), Number(b), Number(a)]
      }
      const over = (top: Rgba, bottom: Rgba): Rgba => {
        const a = top[3]
        return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1]
      }
      const up = (e: Element): Element | null => e.parentElement ?? (e.parentNode as ShadowRoot | null)?.host ?? null
      const background = (start: Element): Rgba => {
        const layers: Rgba[] = []
        for (let e: Element | null = start; e; e = up(e)) {
          const c = parse(getComputedStyle(e).backgroundColor)
          if (c[3] > 0) layers.push(c)
          if (c[3] >= 1) break
        }
        let colour: Rgba = layers.at(-1)?.[3] === 1 ? layers.pop()! : [255, 255, 255, 1]
        for (const layer of layers.reverse()) colour = over(layer, colour)
        return colour
      }
      const luminance = ([r, g, b]: Rgba) => {
        const lin = (v: number) => {
          const s = v / 255
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
        }
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
      }
      const out: { text: string; color: string; background: string; ratio: number }[] = []
      const visit = (node: Node) => {
        if (node.nodeType === Node.TEXT_NODE) {
          const text = node.textContent?.trim()
          const parent = node.parentElement
          if (!text || !parent) return
          const style = getComputedStyle(parent)
          const rect = parent.getBoundingClientRect()
          if (style.visibility === 'hidden' || style.display === 'none' || rect.width === 0 || rect.height === 0) return
          const bg = background(parent)
          const fg = over(parse(style.color), bg)
          const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a)
          const rgb = (c: Rgba) => `rgb(${c.slice(0, 3).map(Math.round).join(', ')})`
          out.push({ text, color: rgb(fg), background: rgb(bg), ratio: Math.round(((l1! + 0.05) / (l2! + 0.05)) * 100) / 100 })
          return
        }
        if (node instanceof Element && node.shadowRoot) node.shadowRoot.childNodes.forEach(visit)
        node.childNodes.forEach(visit)
      }
      visit(el)
      return out
    })
  }

  /**
   * Drags a page row onto another with real pointer events: above the upper quarter (before), the middle
   * (inside) or below the lower quarter (after); the drop indicator must show before the button is released.
   */
  async drag(title: string, targetTitle: string, zone: DropZone): Promise<void> {
    const source = this.row(title).getByTestId('page-row-title')
    const target = this.row(targetTitle)
    await source.hover()
    const from = (await source.boundingBox())!
    const to = (await target.boundingBox())!
    const y = zone === 'before' ? to.y + to.height * 0.12 : zone === 'after' ? to.y + to.height * 0.88 : to.y + to.height / 2
    await this.page.mouse.move(from.x + 10, from.y + from.height / 2)
    await this.page.mouse.down()
    await this.page.mouse.move(from.x + 20, from.y + from.height / 2 + 8, { steps: 4 })
    await this.page.mouse.move(to.x + 40, y, { steps: 12 })
    await expect(target).toHaveAttribute('data-drop', zone)
    await this.page.mouse.up()
  }
}
