import { useEffect, useEffectEvent, useRef } from 'react'
import type { Extension } from '@codemirror/state'
import { EditorView } from '@codemirror/view'
import { shadowMount } from './codemirror.ts'

/**
 * A CodeMirror view in the returned `host` (mounted through `shadowMount`), controlled loosely: typing reports the
 * text to the latest `onChange` (through `report`, which `extensions` wires in); a new `value` from outside replaces
 * the document. The view is rebuilt when `extensions` changes (its look and mode: memoize it with `useCallback`),
 * the document carried over.
 */
export function useLooseEditor(value: string, onChange: (text: string) => void, extensions: (report: (text: string) => void) => Extension) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const report = useEffectEvent((text: string) => onChange(text))
  // A rebuilt view starts from the current text; the effect below then follows `value`.
  const currentValue = useEffectEvent(() => value)

  useEffect(() => {
    const { root, container, dispose } = shadowMount(host.current!)
    const editor = new EditorView({ doc: currentValue(), extensions: extensions((text) => report(text)), parent: container, root })
    view.current = editor
    return () => {
      editor.destroy()
      dispose()
      view.current = null
    }
  }, [extensions])

  useEffect(() => {
    const editor = view.current
    if (!editor || editor.state.doc.toString() === value) return
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } })
  }, [value])

  return { host, view }
}
