import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import * as fontkit from 'fontkit'

// Fonts of the PDF export, from Noto packages of the npm registry (SIL Open Font License 1.1): Noto Sans for Latin,
// Greek and Cyrillic (@embedpdf/fonts-latin), Noto Sans Hans for Chinese and Japanese (@embedpdf/fonts-sc: Noto
// Sans CJK SC, 30,000 glyphs: simplified and traditional hanzi, kanji, kana) and Noto Sans KR for Hangul
// (@embedpdf/fonts-kr). Each run of text is set in the first of them that has its characters (code in Courier
// while it is ASCII); pdfkit embeds only the glyphs a document uses (a subset of each font), so a PDF carries
// kilobytes of a CJK font, not megabytes.

export type Face = 'regular' | 'bold' | 'italic' | 'boldItalic'

interface Family {
  pkg: string
  files: Partial<Record<Face, string>> & { regular: string }
}

/** In the order they are tried for a character. */
const FAMILIES = {
  sans: {
    pkg: '@embedpdf/fonts-latin',
    files: {
      regular: 'NotoSans-Regular.ttf',
      bold: 'NotoSans-Bold.ttf',
      italic: 'NotoSans-Italic.ttf',
      boldItalic: 'NotoSans-BoldItalic.ttf'
    }
  },
  hans: { pkg: '@embedpdf/fonts-sc', files: { regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' } },
  kr: { pkg: '@embedpdf/fonts-kr', files: { regular: 'NotoSansKR-Regular.otf', bold: 'NotoSansKR-Bold.otf' } }
} satisfies Record<string, Family>

export type FamilyName = keyof typeof FAMILIES
const ORDER = Object.keys(FAMILIES) as FamilyName[]

const resolver = createRequire(import.meta.url)
const bytes = new Map<string, Buffer>()
const coverage = new Map<FamilyName, fontkit.Font>()
const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>()

/** A font file's bytes, read once (the packages keep the files beside their `dist/`). */
function fontBytes(family: FamilyName, file: string): Buffer {
  const key = `${family}/${file}`
  let data = bytes.get(key)
  if (!data) {
    data = readFileSync(join(dirname(resolver.resolve(FAMILIES[family].pkg)), '..', 'fonts', file))
    bytes.set(key, data)
  }
  return data
}

function hasGlyph(family: FamilyName, codePoint: number): boolean {
  let font = coverage.get(family)
  if (!font) coverage.set(family, (font = fontkit.create(fontBytes(family, FAMILIES[family].files.regular))))
  return font.hasGlyphForCodePoint(codePoint)
}

/** The face a family sets a style in: the nearest it has (CJK fonts have no italics). */
function faceOf(family: FamilyName, face: Face): string {
  const files: Partial<Record<Face, string>> = FAMILIES[family].files
  return files[face] ?? (face === 'boldItalic' ? files.bold : undefined) ?? files.regular!
}

/** The name a font is registered under in a document (registered on first use). */
export function useFont(doc: PDFKit.PDFDocument, family: FamilyName | 'Courier', face: Face): string {
  if (family === 'Courier') return 'Courier'
  const file = faceOf(family, face)
  const name = `${family}-${file}`
  let names = registered.get(doc)
  if (!names) registered.set(doc, (names = new Set()))
  if (!names.has(name)) {
    doc.registerFont(name, fontBytes(family, file))
    names.add(name)
  }
  return name
}

/** Characters the built-in Courier encodes (WinAnsi, printable): code keeps its monospace font for them. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ')
const inCourier = (ch: string, code: number) => (code >= 32 && code < 127) || (code >= 160 && code <= 255) || WIN_ANSI_EXTRA.has(ch)

/** A piece of text and the family that sets it. */
export interface FontPiece {
  text: string
  family: FamilyName | 'Courier'
}

/**
 * Text cut into pieces by the font that has its characters: code in Courier where it can, else the first family
 * with a glyph. Spaces and line breaks stay with the piece they follow; a character no font has prints as `?`.
 */
export function fontPieces(text: string, code = false): FontPiece[] {
  const pieces: FontPiece[] = []
  for (const ch of text.replace(/\t/g, '    ')) {
    const cp = ch.codePointAt(0)!
    let family: FontPiece['family'] | undefined
    let out = ch
    if (cp === 10 || cp === 32) family = pieces[pieces.length - 1]?.family ?? (code ? 'Courier' : 'sans')
    else if (code && inCourier(ch, cp)) family = 'Courier'
    // Printable ASCII, most of most documents, is Noto Sans's without asking.
    else if (cp > 32 && cp < 127) family = 'sans'
    else if (cp >= 32) family = ORDER.find((f) => hasGlyph(f, cp))
    if (!family) {
      family = code ? 'Courier' : 'sans'
      out = '?'
    }
    const last = pieces[pieces.length - 1]
    if (last?.family === family) last.text += out
    else pieces.push({ text: out, family })
  }
  return pieces
}
