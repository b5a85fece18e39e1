import { useEffect, useRef, type ReactNode } from 'react'
import { Text, useComputedColorScheme } from '@mantine/core'
import { markdown } from '@codemirror/lang-markdown'
import { MergeView } from '@codemirror/merge'
import { EditorState, type Extension } from '@codemirror/state'
import { EditorView, lineNumbers } from '@codemirror/view'
import { appEditorTheme, shadowMount } from '../common/codemirror.ts'
import classes from './ChangeRequests.module.css'

type Tone = 'added' | 'removed'

// The app's diff tints (styles.css), readable under the text in either scheme.
const TONE_BACKGROUND: Record<Tone, string> = {
  added: 'var(--app-diff-added)',
  removed: 'var(--app-diff-removed)'
}

/** A read-only markdown view: line numbers, wrapping, the app's highlighting, colours and fonts (`appEditorTheme`). */
function readOnly(testId: string, dark: boolean, tone?: Tone): Extension {
  return [
    EditorState.readOnly.of(true),
    EditorView.editable.of(false),
    lineNumbers(),
    EditorView.lineWrapping,
    markdown(),
    EditorView.editorAttributes.of({ 'data-testid': testId }),
    appEditorTheme,
    EditorView.theme(
      {
        '&': { fontSize: '13px' },
        '.cm-content': { padding: '6px 0' },
        '.cm-line': { padding: '0 10px', ...(tone ? { backgroundColor: TONE_BACKGROUND[tone] } : {}) }
      },
      { dark }
    )
  ]
}

/**
 * Side by side: `before` on the left, `after` on the right, changed lines marked (removed on the left, added on
 * the right), long unchanged stretches folded away.
 */
export function DiffView({ before, after, testId = 'diff' }: { before: string; after: string; testId?: string }) {
  const host = useRef<HTMLDivElement>(null)
  const dark = useComputedColorScheme('light') === 'dark'
  useEffect(() => {
    const { root, container, dispose } = shadowMount(host.current!)
    const view = new MergeView({
      a: { doc: before, extensions: readOnly('diff-before', dark) },
      b: { doc: after, extensions: readOnly('diff-after', dark) },
      parent: container,
      root,
      gutter: true,
      highlightChanges: true,
      collapseUnchanged: { margin: 3, minSize: 6 }
    })
    return () => {
      view.destroy()
      dispose()
    }
  }, [before, after, dark])
  return <div ref={host} className={classes.codeHost} data-testid={testId} />
}

/** One document, read-only; `tone` tints every line (a page added or removed as a whole). */
export function DocumentView({ text, tone, testId = 'document' }: { text: string; tone?: Tone; testId?: string }) {
  const host = useRef<HTMLDivElement>(null)
  const dark = useComputedColorScheme('light') === 'dark'
  useEffect(() => {
    const { root, container, dispose } = shadowMount(host.current!)
    const view = new EditorView({ doc: text, extensions: readOnly(`${testId}-text`, dark, tone), parent: container, root })
    return () => {
      view.destroy()
      dispose()
    }
  }, [text, tone, dark, testId])
  return <div ref={host} className={classes.codeHost} data-testid={testId} />
}

/** Names the two sides of a diff, over their columns. */
export function SideLabels({ left, right }: { left: ReactNode; right: ReactNode }) {
  return (
    <div className={classes.sideLabels}>
      <Text size="xs" fw={600} c="dimmed">
        {left}
      </Text>
      <Text size="xs" fw={600} c="dimmed">
        {right}
      </Text>
    </div>
  )
}
