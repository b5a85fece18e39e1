import { useEffect, useRef } from 'react'
import { useComputedColorScheme } from '@mantine/core'
import { EditorState } from '@codemirror/state'
import { EditorView } from '@codemirror/view'
import { basicSetup } from 'codemirror'
import { appEditorTheme, shadowMount } from '../common/codemirror.ts'
import { markdownLanguage } from '../pages/markdownLanguage.ts'
import classes from './ReusableContentsScreen.module.css'

/**
 * The markdown of a reusable content (CodeMirror, the page editor's language: block tags drawn apart). Loosely
 * controlled: typing reports the text; a new `value` from outside (another content chosen) replaces the document.
 */
export function ReusableMarkdownEditor({ value, onChange, readOnly }: { value: string; onChange(text: string): void; readOnly: boolean }) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const change = useRef(onChange)
  change.current = onChange
  const dark = useComputedColorScheme('light') === 'dark'

  useEffect(() => {
    const { root, container, dispose } = shadowMount(host.current!)
    const editor = new EditorView({
      doc: value,
      extensions: [
        basicSetup,
        markdownLanguage,
        EditorView.lineWrapping,
        EditorState.readOnly.of(readOnly),
        EditorView.editable.of(!readOnly),
        EditorView.contentAttributes.of({ 'aria-label': 'Reusable content text (Markdown)', 'data-testid': 'reusable-markdown' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) change.current(update.state.doc.toString())
        }),
        appEditorTheme,
        EditorView.theme({ '&': { fontSize: '13px', height: '100%' }, '.cm-scroller': { overflow: 'auto' } }, { dark }),
      ],
      parent: container,
      root,
    })
    view.current = editor
    return () => {
      editor.destroy()
      dispose()
      view.current = null
    }
    // The document is carried over by the effect below; only the look and mode rebuild the editor.
  }, [dark, readOnly])

  useEffect(() => {
    const editor = view.current
    if (!editor || editor.state.doc.toString() === value) return
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } })
  }, [value])

  return <div ref={host} className={classes.editor} />
}
