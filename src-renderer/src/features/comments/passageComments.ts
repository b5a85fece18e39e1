// The page editor's hook for comments on a passage: a "Comment" button over a selection (and Mod-Alt-m), and the
// passages of the page's open comments highlighted in the text; a click on one opens its thread. Which comments
// and what the editor found go through `passageStore.ts`; where a passage is, through `passages.ts`.
import { EditorSelection, StateEffect, StateField, type EditorState, type Extension, type Range } from '@codemirror/state'
import { Decoration, EditorView, keymap, showTooltip, ViewPlugin, type DecorationSet, type Tooltip } from '@codemirror/view'
import { usePassageUi, type PassageComment } from './passageStore.ts'
import { locatePassage, passageNode } from './passages.ts'

const setComments = StateEffect.define<PassageComment[]>()

interface Passages {
  comments: PassageComment[]
  decorations: DecorationSet
  /** Each comment's passage where it is now, or null when its text is gone. */
  ranges: Map<string, { from: number; to: number } | null>
}

function locate(state: EditorState, comments: PassageComment[]): Passages {
  const doc = state.doc.toString()
  const ranges = new Map(comments.map((c) => [c.id, locatePassage(doc, c.node)] as const))
  const marks: Range<Decoration>[] = []
  for (const [id, range] of ranges) {
    if (range && range.to > range.from) {
      marks.push(
        Decoration.mark({
          class: 'cm-passageComment',
          attributes: { 'data-comment-id': id, title: 'Commented: click to open the thread' }
        }).range(range.from, range.to)
      )
    }
  }
  return { comments, decorations: Decoration.set(marks, true), ranges }
}

const passages = StateField.define<Passages>({
  create: (state) => locate(state, []),
  update(value, tr) {
    const next = tr.effects.find((e) => e.is(setComments))?.value as PassageComment[] | undefined
    if (next) return locate(tr.state, next)
    return tr.docChanged ? locate(tr.state, value.comments) : value
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.decorations)
})

/** Starts a comment on the selected text: the comments panel opens with the passage above its composer. */
function commentOnSelection(pageId: string) {
  return (view: EditorView): boolean => {
    const { from, to } = view.state.selection.main
    if (usePassageUi.getState().noComment[pageId]) return false
    const node = from === to ? null : passageNode(view.state.doc.toString(), from, to)
    if (!node) return false
    usePassageUi.getState().compose(pageId, node)
    return true
  }
}

function selectionTooltip(pageId: string) {
  const tooltipOf = (state: EditorState): Tooltip | null => {
    const { from, to, head } = state.selection.main
    if (from === to || !state.doc.sliceString(from, to).trim() || usePassageUi.getState().noComment[pageId]) return null
    return {
      pos: head,
      above: head === from,
      strictSide: false,
      arrow: false,
      create: (view) => {
        const dom = document.createElement('div')
        dom.className = 'cm-passageTooltip'
        const button = document.createElement('button')
        button.type = 'button'
        button.textContent = 'Comment'
        button.setAttribute('aria-label', 'Comment on the selection')
        button.title = 'Comment on the selection (Ctrl/Cmd+Alt+M)'
        button.dataset.testid = 'comment-selection'
        // The selection stays while the button is pressed.
        button.addEventListener('mousedown', (e) => e.preventDefault())
        button.addEventListener('click', () => commentOnSelection(pageId)(view))
        dom.appendChild(button)
        return { dom }
      }
    }
  }
  return StateField.define<Tooltip | null>({
    create: tooltipOf,
    update: (value, tr) => (tr.docChanged || tr.selection ? tooltipOf(tr.state) : value),
    provide: (field) => showTooltip.from(field)
  })
}

/** Keeps the field in step with the page's comments in the store, reports what it found, and reveals asked passages. */
function storeSync(pageId: string) {
  return ViewPlugin.define((view) => {
    let shown: PassageComment[] | undefined
    let revealed = usePassageUi.getState().reveal?.n ?? 0
    const report = () => {
      const found: Record<string, boolean> = {}
      for (const [id, range] of view.state.field(passages).ranges) found[id] = range !== null
      usePassageUi.getState().setFound(found)
    }
    const sync = () => {
      const state = usePassageUi.getState()
      const comments = state.comments[pageId] ?? []
      if (comments !== shown) {
        shown = comments
        // Never inside another update: the store may change while CodeMirror dispatches.
        queueMicrotask(() => {
          if (shown === comments) view.dispatch({ effects: setComments.of(comments) })
        })
      }
      if (state.reveal && state.reveal.n !== revealed) {
        revealed = state.reveal.n
        const id = state.reveal.commentId
        queueMicrotask(() => {
          const range = view.state.field(passages).ranges.get(id)
          if (range)
            view.dispatch({
              selection: EditorSelection.single(range.from, range.to),
              effects: EditorView.scrollIntoView(range.from, { y: 'center' })
            })
        })
      }
    }
    const unsubscribe = usePassageUi.subscribe(sync)
    sync()
    return {
      update(update) {
        if (update.docChanged || update.transactions.some((tr) => tr.effects.some((e) => e.is(setComments)))) report()
      },
      destroy: () => {
        unsubscribe()
        usePassageUi.getState().forgetFound([...view.state.field(passages).ranges.keys()])
      }
    }
  })
}

const theme = EditorView.theme({
  '.cm-passageComment': {
    backgroundColor: 'var(--mantine-color-yellow-light)',
    borderBottom: '2px solid var(--mantine-color-yellow-filled)',
    cursor: 'pointer'
  },
  '.cm-tooltip.cm-passageTooltip, .cm-passageTooltip': { border: 'none', background: 'transparent' },
  '.cm-passageTooltip button': {
    font: 'inherit',
    fontFamily: 'var(--mantine-font-family)',
    fontSize: '12px',
    fontWeight: '600',
    padding: '3px 10px',
    borderRadius: '6px',
    border: '1px solid var(--app-border)',
    color: 'var(--mantine-color-text)',
    backgroundColor: 'var(--mantine-color-body)',
    boxShadow: 'var(--mantine-shadow-sm)',
    cursor: 'pointer'
  },
  '.cm-passageTooltip button:hover': { backgroundColor: 'var(--app-hover-bg-strong)' }
})

/** The passage comments of the page `pageId` in its editor. */
export function passageComments(pageId: string): Extension {
  return [
    passages,
    selectionTooltip(pageId),
    storeSync(pageId),
    keymap.of([{ key: 'Mod-Alt-m', run: commentOnSelection(pageId) }]),
    EditorView.domEventHandlers({
      click: (event) => {
        const mark = event.target instanceof Element ? event.target.closest('[data-comment-id]') : null
        const id = mark?.getAttribute('data-comment-id')
        if (!id) return false
        usePassageUi.getState().openThread(id)
        return false
      }
    }),
    theme
  ]
}
