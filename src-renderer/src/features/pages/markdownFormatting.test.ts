import { EditorSelection, EditorState } from '@codemirror/state'
import { describe, expect, it } from 'vitest'
import { toggleMarker } from './markdownFormatting.ts'

/** Applies the toggle to `doc` with a selection written as `[` … `]` (or `|` for a cursor); shows the result the same way. */
function toggle(doc: string, marker: string): string {
  const cursor = doc.indexOf('|')
  const [from, to] = cursor >= 0 ? [cursor, cursor] : [doc.indexOf('['), doc.indexOf(']') - 1]
  const text = doc.replace(/[[\]|]/g, '')
  const state = EditorState.create({ doc: text, selection: EditorSelection.single(from, to) })
  const next = state.update(toggleMarker(state, marker)).state
  const { from: a, to: b } = next.selection.main
  const out = next.doc.toString()
  return a === b ? `${out.slice(0, a)}|${out.slice(a)}` : `${out.slice(0, a)}[${out.slice(a, b)}]${out.slice(b)}`
}

describe('formatting keys', () => {
  it('wraps a selection, and unwraps it from outside or inside', () => {
    expect(toggle('Make [this] bold', '**')).toBe('Make **[this]** bold')
    expect(toggle('Make **[this]** bold', '**')).toBe('Make [this] bold')
    expect(toggle('Make [**this**] bold', '**')).toBe('Make [this] bold')
    expect(toggle('An [inline] word', '`')).toBe('An `[inline]` word')
  })

  it('wraps the word at the cursor, or opens an empty pair', () => {
    expect(toggle('Some wo|rd here', '_')).toBe('Some _[word]_ here')
    expect(toggle('Some _wo|rd_ here', '_')).toBe('Some [word] here')
    expect(toggle('End. |', '**')).toBe('End. **|**')
  })

  it('formats every selection at once', () => {
    const state = EditorState.create({
      doc: 'one two',
      selection: EditorSelection.create([EditorSelection.range(0, 3), EditorSelection.range(4, 7)]),
      extensions: EditorState.allowMultipleSelections.of(true)
    })
    expect(state.update(toggleMarker(state, '~~')).state.doc.toString()).toBe('~~one~~ ~~two~~')
  })
})
