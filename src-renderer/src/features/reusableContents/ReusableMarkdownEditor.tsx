import { useCallback } from 'react'
import { useComputedColorScheme } from '@mantine/core'
import { EditorState } from '@codemirror/state'
import { EditorView } from '@codemirror/view'
import { basicSetup } from 'codemirror'
import { appEditorTheme } from '../common/codemirror.ts'
import { useLooseEditor } from '../common/useLooseEditor.ts'
import { markdownLanguage } from '../pages/markdownLanguage.ts'
import classes from './ReusableContentsScreen.module.css'

/**
 * The markdown of a reusable content (CodeMirror, the page editor's language: block tags drawn apart). Loosely
 * controlled: typing reports the text; a new `value` from outside (another content chosen) replaces the document.
 */
export function ReusableMarkdownEditor({ value, onChange, readOnly }: { value: string; onChange(text: string): void; readOnly: boolean }) {
  const dark = useComputedColorScheme('light') === 'dark'
  const extensions = useCallback(
    (report: (text: string) => void) => [
      basicSetup,
      markdownLanguage,
      EditorView.lineWrapping,
      EditorState.readOnly.of(readOnly),
      EditorView.editable.of(!readOnly),
      EditorView.contentAttributes.of({ 'aria-label': 'Reusable content text (Markdown)', 'data-testid': 'reusable-markdown' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) report(update.state.doc.toString())
      }),
      appEditorTheme,
      EditorView.theme({ '&': { fontSize: '13px', height: '100%' }, '.cm-scroller': { overflow: 'auto' } }, { dark })
    ],
    [dark, readOnly]
  )
  const { host } = useLooseEditor(value, onChange, extensions)

  return <div ref={host} className={classes.editor} />
}
