import { describe, expect, it } from 'vitest'
import { fontPieces } from './pdfFonts'

describe('fontPieces', () => {
  it('sets each run of text in the first font that has its characters, spaces with the text before them', () => {
    expect(fontPieces('Größe Ελληνικά Привет 文档 ラーメン 한국어 體')).toEqual([
      { text: 'Größe Ελληνικά Привет ', family: 'sans' },
      { text: '文档 ラーメン ', family: 'hans' },
      { text: '한국어 ', family: 'kr' },
      { text: '體', family: 'hans' }
    ])
  })

  it('keeps code in Courier while it can, and prints what no font has as ?', () => {
    expect(fontPieces('let x = "文档"\n\tok', true)).toEqual([
      { text: 'let x = "', family: 'Courier' },
      { text: '文档', family: 'hans' },
      { text: '"\n    ok', family: 'Courier' }
    ])
    expect(fontPieces('a\u0007b')).toEqual([{ text: 'a?b', family: 'sans' }])
  })
})
