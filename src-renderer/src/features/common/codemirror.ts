// CodeMirror 6 in the app: where a view lives and the look it shares.
import { EditorView } from '@codemirror/view'

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
 * The app's look for every CodeMirror view, from the theme's CSS variables (custom properties inherit into the
 * shadow root), so light and dark both follow. Views add their own sizes and paddings on top.
 */
export const appEditorTheme = EditorView.theme({
  '&': { backgroundColor: 'var(--mantine-color-body)', color: 'var(--mantine-color-text)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)', lineHeight: '1.55' },
  '.cm-gutters': { backgroundColor: 'var(--app-subtle-bg)', color: 'var(--mantine-color-dimmed)', borderRight: '1px solid var(--app-border)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--app-hover-bg-strong)' },
  '.cm-activeLine': { backgroundColor: 'var(--app-hover-bg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--mantine-primary-color-filled)', borderLeftWidth: '2px' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--mantine-primary-color-light-hover)' },
  '.cm-placeholder': { color: 'var(--mantine-color-placeholder)' },
  '.cm-tooltip': { border: '1px solid var(--app-border)', backgroundColor: 'var(--mantine-color-body)', borderRadius: '6px' },
  '.cm-panels': { backgroundColor: 'var(--app-subtle-bg)', color: 'var(--mantine-color-text)' },
  '.cm-foldPlaceholder': { backgroundColor: 'var(--app-hover-bg-strong)', border: 'none', color: 'var(--mantine-color-dimmed)' },
  '.cm-collapsedLines': { fontFamily: 'var(--mantine-font-family)', fontSize: '12px' },
})
