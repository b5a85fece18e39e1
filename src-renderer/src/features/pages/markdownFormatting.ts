// Formatting keys of the page editor: Mod-b bold, Mod-i italic, Mod-e inline code, Mod-Shift-x strikethrough, as
// writers expect from any editor. Each wraps every selection in the markers, or takes them off when the
// selection is already wrapped (inside or just outside it); an empty selection wraps the word at the cursor, or
// puts the cursor between a new pair. Pure state transactions: tested in Node.
import { EditorSelection, type ChangeSpec, type EditorState, type SelectionRange, type TransactionSpec } from '@codemirror/state'
import type { Command, KeyBinding } from '@codemirror/view'

/** The word around an empty selection (letters, digits, `_`, `-`), as a range; the range itself when none. */
function wordAt(state: EditorState, range: SelectionRange): { from: number; to: number } {
  const line = state.doc.lineAt(range.head)
  const at = range.head - line.from
  const before = /[\p{L}\p{N}_-]*$/u.exec(line.text.slice(0, at))![0].length
  const after = /^[\p{L}\p{N}_-]*/u.exec(line.text.slice(at))![0].length
  return { from: range.head - before, to: range.head + after }
}

/** The transaction that toggles `marker` around every selection range. */
export function toggleMarker(state: EditorState, marker: string): TransactionSpec {
  const m = marker.length
  const changes: ChangeSpec[] = []
  const ranges = state.selection.ranges.map((range) => {
    const { from, to } = range.empty ? wordAt(state, range) : range
    const text = state.sliceDoc(from, to)
    // Markers just outside the selection: take them off.
    if (state.sliceDoc(from - m, from) === marker && state.sliceDoc(to, to + m) === marker) {
      changes.push({ from: from - m, to: from }, { from: to, to: to + m })
      return EditorSelection.range(from - m, to - m)
    }
    // The selection holds its markers: take them off.
    if (text.length >= 2 * m && text.startsWith(marker) && text.endsWith(marker)) {
      changes.push({ from, to: from + m }, { from: to - m, to })
      return EditorSelection.range(from, to - 2 * m)
    }
    changes.push({ from, insert: marker }, { from: to, insert: marker })
    // An empty selection with no word: the cursor goes between the new markers.
    return range.empty && from === to ? EditorSelection.cursor(from + m) : EditorSelection.range(from + m, to + m)
  })
  return { changes, selection: EditorSelection.create(ranges, state.selection.mainIndex), scrollIntoView: true, userEvent: 'input.format' }
}

const command =
  (marker: string): Command =>
  (view) => {
    if (view.state.readOnly) return false
    view.dispatch(toggleMarker(view.state, marker))
    return true
  }

export const formattingKeymap: KeyBinding[] = [
  { key: 'Mod-b', run: command('**'), preventDefault: true },
  { key: 'Mod-i', run: command('_'), preventDefault: true },
  { key: 'Mod-e', run: command('`'), preventDefault: true },
  { key: 'Mod-Shift-x', run: command('~~'), preventDefault: true }
]
