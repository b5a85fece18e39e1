// Types for dependencies that ship none usable under the main process's DOM-less `lib`: two of the import, and fontkit.

declare module '@mixmark-io/domino' {
  /** The little of the DOM the HTML import reads (domino implements the rest of it). */
  interface DomElement {
    readonly tagName: string
    textContent: string | null
    getAttribute(name: string): string | null
    setAttribute(name: string, value: string): void
    querySelector(selectors: string): DomElement | null
    querySelectorAll(selectors: string): ArrayLike<DomElement>
    remove(): void
  }
  interface DomDocument {
    readonly title: string
    readonly body: DomElement | null
    readonly documentElement: DomElement
    querySelector(selectors: string): DomElement | null
    querySelectorAll(selectors: string): ArrayLike<DomElement>
  }
  export function createDocument(html?: string, force?: boolean): DomDocument
}

declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown'
  /** Tables, strikethrough, task lists and highlighted code blocks. */
  export const gfm: TurndownService.Plugin
}

declare module 'fontkit' {
  /** What the PDF export asks of a font file (pdfkit reads the fonts themselves). */
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean
  }
  export function create(buffer: Buffer): Font
}
