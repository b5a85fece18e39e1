// CodeMirror 6 in the app: where a view lives and the look it shares.
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { EditorView } from '@codemirror/view'
import { tags as t } from '@lezer/highlight'

/**
 * CodeMirror writes its styles into a <style> element when it runs in the document, which the CSP refuses
 * (`style-src 'self'`); inside a shadow root it adopts a constructed stylesheet instead (CSSOM, not subject to
 * `style-src`). So every view lives in a shadow root of its host element. Pass `root` to the view (MergeView
 * builds its editors before attaching them, so they could not find it themselves). `dispose` removes the
 * container (the shadow root stays; a host can have only one).
 */
export function shadowMount(host: HTMLElement): { root: ShadowRoot; container: HTMLDivElement; dispose(): void } {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' })
  const container = document.createElement('div')
  container.style.height = '100%'
  root.appendChild(container)
  return { root, container, dispose: () => container.remove() }
}

/**
 * Markdown (and JSON, code) colours from the app's `--app-code-*` variables (`styles.css`), so the dark scheme gets
 * its own: CodeMirror's default style is drawn for a light background only. Every colour keeps 4.5:1 (WCAG AA).
 */
export const appHighlightStyle = HighlightStyle.define([
  { tag: t.heading, fontWeight: 'bold' },
  { tag: [t.processingInstruction, t.meta, t.contentSeparator], color: 'var(--app-code-mark)' },
  { tag: t.link, textDecoration: 'underline' },
  { tag: [t.url, t.labelName], color: 'var(--app-link)' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strong, fontWeight: 'bold' },
  { tag: t.strikethrough, textDecoration: 'line-through' },
  { tag: t.monospace, color: 'var(--app-code-code)' },
  { tag: [t.keyword, t.operatorKeyword, t.modifier], color: 'var(--app-code-keyword)' },
  { tag: [t.string, t.special(t.string), t.regexp, t.escape, t.inserted, t.character], color: 'var(--app-code-string)' },
  { tag: [t.number, t.bool, t.null, t.atom, t.literal], color: 'var(--app-code-number)' },
  {
    tag: [t.propertyName, t.definition(t.propertyName), t.typeName, t.className, t.namespace, t.macroName],
    color: 'var(--app-code-property)'
  },
  { tag: [t.comment, t.quote], color: 'var(--app-text-quiet)' },
  { tag: [t.deleted, t.invalid], color: 'var(--app-code-invalid)' }
])

/**
 * The app's look for every CodeMirror view, from the theme's CSS variables (custom properties inherit into the
 * shadow root), so light and dark both follow, with `appHighlightStyle`. Views add their own sizes and paddings on top.
 */
export const appEditorTheme = [
  syntaxHighlighting(appHighlightStyle),
  EditorView.theme({
    '&': { backgroundColor: 'var(--mantine-color-body)', color: 'var(--mantine-color-text)' },
    '&.cm-focused': { outline: 'none' },
    '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)', lineHeight: '1.55' },
    '.cm-gutters': { backgroundColor: 'var(--app-subtle-bg)', color: 'var(--app-text-quiet)', borderRight: '1px solid var(--app-border)' },
    '.cm-activeLineGutter': { backgroundColor: 'var(--app-hover-bg-strong)' },
    '.cm-activeLine': { backgroundColor: 'var(--app-hover-bg)' },
    '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--mantine-primary-color-filled)', borderLeftWidth: '2px' },
    '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
      backgroundColor: 'var(--mantine-primary-color-light-hover)'
    },
    '.cm-placeholder': { color: 'var(--mantine-color-placeholder)' },
    '.cm-tooltip': { border: '1px solid var(--app-border)', backgroundColor: 'var(--mantine-color-body)', borderRadius: '6px' },
    '.cm-panels': { backgroundColor: 'var(--app-subtle-bg)', color: 'var(--mantine-color-text)' },
    '.cm-foldPlaceholder': { backgroundColor: 'var(--app-hover-bg-strong)', border: 'none', color: 'var(--app-text-quiet)' },
    '.cm-collapsedLines': {
      fontFamily: 'var(--mantine-font-family)',
      fontSize: '12px',
      color: 'var(--app-text-quiet)',
      background: 'var(--app-subtle-bg)'
    },
    // The diff's changed lines (MergeView), tinted in the app's colours for either scheme.
    '&.cm-merge-a .cm-changedLine, .cm-deletedChunk': { backgroundColor: 'var(--app-diff-removed)' },
    '&.cm-merge-b .cm-changedLine, .cm-inlineChangedLine': { backgroundColor: 'var(--app-diff-added)' }
  })
]
