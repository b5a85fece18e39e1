import { useEffect, useEffectEvent, useLayoutEffect, useRef } from 'react'
import { Compartment, EditorState, Prec, StateEffect, type Extension } from '@codemirror/state'
import { EditorView, keymap, placeholder } from '@codemirror/view'
import { basicSetup } from 'codemirror'
import { passageComments } from '../comments/passageComments.ts'
import { appEditorTheme, shadowMount } from '../common/codemirror.ts'
import { blockTagCompletionSource, type IncludeTarget } from './blockTagCompletion.ts'
import { linkCompletionSource, type LinkTarget } from './linkCompletion.ts'
import { formattingKeymap } from './markdownFormatting.ts'
import { markdownLanguage } from './markdownLanguage.ts'
import type { PageSession } from './pageSession.ts'
import classes from './PageEditor.module.css'

/** The page editor's sizes on top of the app's editor look. */
const pageTheme = EditorView.theme({
  '&': { height: '100%', fontSize: '14px' },
  '.cm-scroller': { lineHeight: '1.6' },
  '.cm-content': { padding: '12px 0 48px', caretColor: 'var(--mantine-primary-color-filled)' },
  '.cm-line': { padding: '0 16px 0 12px' },
  '.cm-frontMatter': { backgroundColor: 'var(--app-subtle-bg)', color: 'var(--app-text-quiet)' },
  '.cm-blockTag': { color: 'var(--app-code-keyword)', fontFamily: 'var(--mantine-font-family-monospace)' }
})

interface Handlers {
  onSave(): void
  onFiles(files: File[], pos?: number): void
  onScroll?(ratio: number): void
  /** What a link typed in the page may point at (offered after `](`). */
  linkTargets?(): LinkTarget[]
  /** The reusable contents a `{% include %}` typed in the page may name (read when the completion opens). */
  includeTargets?(): Promise<IncludeTarget[]>
}

function extensions(session: PageSession, readOnly: Compartment, ro: boolean, handlers: { current: Handlers }): Extension[] {
  const filesOf = (list: FileList | null | undefined) => (list ? Array.from(list) : [])
  const linkData = [
    { autocomplete: linkCompletionSource(() => handlers.current.linkTargets?.() ?? []) },
    { autocomplete: blockTagCompletionSource(() => handlers.current.includeTargets?.() ?? Promise.resolve([])) }
  ]
  return [
    basicSetup,
    markdownLanguage,
    EditorView.lineWrapping,
    appEditorTheme,
    pageTheme,
    placeholder('Write in Markdown… Drop or paste images and files to upload them; type {% for GitBook blocks.'),
    // basicSetup's autocompletion asks the language data at the cursor for sources: these complete links and block tags.
    // One data object: the completion state keeps a source's results by its identity.
    EditorState.languageData.of(() => linkData),
    readOnly.of([EditorState.readOnly.of(ro), EditorView.editable.of(!ro)]),
    EditorView.contentAttributes.of({ 'aria-label': 'Page markdown', 'data-testid': 'markdown-input' }),
    // Above basicSetup's keys (its Mod-i selects the parent syntax node): writers expect Mod-i to mean italic.
    Prec.highest(keymap.of(formattingKeymap)),
    Prec.highest(
      keymap.of([
        {
          key: 'Mod-s',
          preventDefault: true,
          run: () => {
            handlers.current.onSave()
            return true
          }
        }
      ])
    ),
    // Comments on a selected passage, and the page's commented passages highlighted.
    passageComments(session.pageId),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) session.edit({ markdown: update.state.doc.toString() })
    }),
    EditorView.domEventHandlers({
      blur: () => {
        void session.queue.flush()
        return false
      },
      // Files are uploaded, not read into the text (CodeMirror's own drop would insert their bytes).
      drop: (event, view) => {
        const files = filesOf(event.dataTransfer?.files)
        if (!files.length) return false
        event.preventDefault()
        if (!view.state.readOnly) handlers.current.onFiles(files, view.posAtCoords({ x: event.clientX, y: event.clientY }) ?? undefined)
        return true
      },
      paste: (event, view) => {
        const files = filesOf(event.clipboardData?.files)
        if (!files.length) return false
        event.preventDefault()
        if (!view.state.readOnly) handlers.current.onFiles(files)
        return true
      },
      scroll: (_event, view) => {
        const s = view.scrollDOM
        const max = s.scrollHeight - s.clientHeight
        handlers.current.onScroll?.(max > 0 ? s.scrollTop / max : 0)
        return false
      }
    })
  ]
}

/**
 * CodeMirror 6 on a page session: the session holds the text (and autosaves it); the view is created once per
 * mount and, when the session was handed over from another route, resumes its selection, history and scroll.
 */
export function MarkdownEditor({ session, readOnly, ...handlers }: { session: PageSession; readOnly: boolean } & Handlers) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const readOnlyConf = useRef(new Compartment())
  const handlersRef = useRef<Handlers>(handlers)
  handlersRef.current = handlers

  // The view is made once per session, in the mode of that moment; the effect below follows `readOnly` after.
  const startsReadOnly = useEffectEvent(() => readOnly)

  // A layout effect: the view exists (and has focus back) in the same commit that shows it, so keys typed while
  // the address moves to the change request reach the new editor.
  useLayoutEffect(() => {
    const ext = extensions(session, readOnlyConf.current, startsReadOnly(), handlersRef)
    const handoff = session.handoff
    session.handoff = null
    const text = session.queue.fields.markdown
    // A handed-over state is reused only if it still holds the session's text (an upload may have finished
    // while no editor showed the page); its extensions are replaced with this mount's.
    const resumed = handoff !== null && handoff.state.doc.toString() === text
    const state = resumed
      ? handoff.state.update({ effects: StateEffect.reconfigure.of(ext) }).state
      : EditorState.create({ doc: text, extensions: ext })
    const mount = shadowMount(host.current!)
    const v = new EditorView({ state, parent: mount.container, root: mount.root })
    view.current = v
    session.view = v
    if (resumed) {
      v.dispatch({ effects: handoff.scroll })
      if (handoff.focused) v.focus()
    }
    return () => {
      session.handoff = { state: v.state, scroll: v.scrollSnapshot(), focused: v.hasFocus }
      if (session.view === v) session.view = null
      view.current = null
      v.destroy()
      mount.dispose()
    }
  }, [session])

  useEffect(() => {
    view.current?.dispatch({
      effects: readOnlyConf.current.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)])
    })
  }, [readOnly])

  return <div ref={host} className={classes.codemirror} data-testid="markdown-editor" />
}
