import { useCallback, useEffect } from 'react'
import { useComputedColorScheme } from '@mantine/core'
import { json } from '@codemirror/lang-json'
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language'
import { EditorState, StateEffect, StateField, type Extension } from '@codemirror/state'
import {
  Decoration,
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  type DecorationSet
} from '@codemirror/view'
import { appEditorTheme } from '../common/codemirror.ts'
import { useLooseEditor } from '../common/useLooseEditor.ts'
import classes from './Sites.module.css'

/** Marks the line a JSON syntax error is on (1-based; null clears it). */
const setErrorLine = StateEffect.define<number | null>()
const errorLineField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    let next = marks.map(tr.changes)
    for (const effect of tr.effects) {
      if (!effect.is(setErrorLine)) continue
      const line = effect.value
      next =
        line && line <= tr.state.doc.lines
          ? Decoration.set([Decoration.line({ class: 'cm-error-line' }).range(tr.state.doc.line(line).from)])
          : Decoration.none
    }
    return next
  },
  provide: (field) => EditorView.decorations.from(field)
})

function extensions(dark: boolean, readOnly: boolean, testId: string, onChange: (text: string) => void): Extension {
  return [
    lineNumbers(),
    history(),
    keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    json(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    EditorState.tabSize.of(2),
    EditorState.readOnly.of(readOnly),
    EditorView.editable.of(!readOnly),
    EditorView.lineWrapping,
    errorLineField,
    EditorView.contentAttributes.of({ 'aria-label': 'Adaptive schema (JSON)', 'data-testid': testId }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) onChange(update.state.doc.toString())
    }),
    appEditorTheme,
    EditorView.theme(
      {
        '&': { fontSize: '13px', minHeight: '280px', maxHeight: '520px' },
        '.cm-scroller': { overflow: 'auto' },
        '.cm-content': { padding: '8px 0', minHeight: '280px' },
        '.cm-line': { padding: '0 10px' },
        '.cm-error-line': { backgroundColor: 'rgba(250, 82, 82, 0.14)' }
      },
      { dark }
    )
  ]
}

/**
 * A JSON editor (CodeMirror 6): highlighting, bracket matching, the line of a syntax error marked. Controlled
 * loosely: typing reports the text; a new `value` from outside (discard, a reload) replaces the document.
 */
export function JsonEditor({
  value,
  onChange,
  errorLine,
  readOnly = false,
  invalid = false,
  testId = 'json-editor'
}: {
  value: string
  onChange(text: string): void
  errorLine?: number | null
  readOnly?: boolean
  invalid?: boolean
  testId?: string
}) {
  const dark = useComputedColorScheme('light') === 'dark'
  const editorExtensions = useCallback(
    (report: (text: string) => void) => extensions(dark, readOnly, testId, report),
    [dark, readOnly, testId]
  )
  const { host, view } = useLooseEditor(value, onChange, editorExtensions)

  useEffect(() => {
    view.current?.dispatch({ effects: setErrorLine.of(errorLine ?? null) })
    // `view` is a ref; `value` is listed because a new text (its own transaction) must be marked again.
  }, [errorLine, value, view])

  return <div ref={host} className={classes.editor} data-invalid={invalid || undefined} data-testid={`${testId}-host`} />
}
