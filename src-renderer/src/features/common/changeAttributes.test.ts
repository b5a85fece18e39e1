import { describe, expect, it } from 'vitest'
import { attributeRows } from './changeAttributes.ts'

const layout = {
  width: 'default',
  cover: true,
  coverSize: 'full',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true
} as const

describe('attributeRows', () => {
  it('gives a row per changed layout part, the cover as an image, flags as yes/no, and leaves the text out', () => {
    const rows = attributeRows({
      document: { before: 'h1', after: 'h2', hunks: [] },
      layout: { before: layout, after: { ...layout, width: 'wide', tableOfContents: false } },
      cover: { after: { ref: { kind: 'file', file: 'f1' }, yPos: 0 } },
      hidden: { before: false, after: true },
      emoji: { before: '1f600' }
    })
    expect(rows.map((r) => [r.label, r.before, r.after])).toEqual([
      ['Layout: width', 'default', 'wide'],
      ['Layout: table of contents', 'shown', 'hidden'],
      ['Cover', '—', 'image'],
      ['Hidden', 'no', 'yes'],
      ['Emoji', '1f600', '—']
    ])
  })

  it('says the offset when the same cover image only moved', () => {
    const rows = attributeRows({
      cover: { before: { ref: { kind: 'file', file: 'f1' }, yPos: 0 }, after: { ref: { kind: 'file', file: 'f1' }, yPos: 120 } }
    })
    expect(rows).toEqual([{ key: 'cover', label: 'Cover', before: 'image, offset 0', after: 'image, offset 120' }])
  })
})
