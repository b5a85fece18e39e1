import { useEffect, useRef, type DependencyList } from 'react'
import type { Extension } from '@codemirror/state'
import { EditorView } from '@codemirror/view'
import { shadowMount } from './codemirror.ts'

/**
 * A CodeMirror view in the returned `host` (mounted through `shadowMount`), controlled loosely: typing reports the
 * text to the latest `onChange` (through `report`, which `extensions` wires in); a new `value` from outside replaces
 * the document. The view is rebuilt when `deps` (its look and mode) change, the document carried over.
 */
export function useLooseEditor(
  value: string,
  onChange: (text: string) => void,
  extensions: (report: (text: string) => void) => Extension,
  deps: DependencyList
) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const change = useRef(onChange)
  change.current = onChange

  useEffect(() => {
    const { root, container, dispose } = shadowMount(host.current!)
    const editor = new EditorView({ doc: value, extensions: extensions((text) => change.current(text)), parent: container, root })
    view.current = editor
    return () => {
      editor.destroy()
      dispose()
      view.current = null
    }
    // The document is carried over by the effect below; only `deps` rebuild the editor.
  }, deps)

  useEffect(() => {
    const editor = view.current
    if (!editor || editor.state.doc.toString() === value) return
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } })
  }, [value])

  return { host, view }
}
