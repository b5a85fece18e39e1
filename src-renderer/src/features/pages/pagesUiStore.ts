import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { DEFAULT_PANE_SIZES, type EditorMode, type PaneSizes } from './paneLayout.ts'

// UI state of the pages screen only (server rows live in TanStack Query).

export type { EditorMode } from './paneLayout.ts'

interface PagesUiState {
  mode: EditorMode
  setMode(mode: EditorMode): void
  commentsOpen: boolean
  toggleComments(): void
  /** The panes' sizes the writer chose (`paneLayout.ts` fits them to the window). */
  panes: PaneSizes
  setPaneSize(pane: keyof PaneSizes, size: number): void
  /** Focus mode: the editor alone in the window (not kept across reloads). */
  focus: boolean
  setFocus(focus: boolean): void
  /** Pages folded in the page tree (expanded is the default). Page ids are unique across spaces. */
  collapsed: Record<string, true>
  setCollapsed(pageId: string, collapsed: boolean): void
  /** A page just created in the tree: its editor selects the title so typing names it. */
  focusTitleOf: string | null
  setFocusTitleOf(pageId: string | null): void
  /** What the space search box holds, per space: kept while the screen moves between main and a change request. */
  searchText: Record<string, string>
  setSearchText(spaceId: string, text: string): void
  /** The page whose layout settings are open: they stay open when the editor moves to the draft its first edit opened. */
  layoutOpenFor: string | null
  setLayoutOpenFor(pageId: string | null): void
}

export const usePagesUi = create<PagesUiState>()(
  persist(
    (set) => ({
      mode: 'split',
      setMode: (mode) => set({ mode }),
      commentsOpen: false,
      toggleComments: () => set((s) => ({ commentsOpen: !s.commentsOpen })),
      panes: DEFAULT_PANE_SIZES,
      setPaneSize: (pane, size) => set((s) => (s.panes[pane] === size ? s : { panes: { ...s.panes, [pane]: size } })),
      focus: false,
      setFocus: (focus) => set({ focus }),
      collapsed: {},
      setCollapsed: (pageId, collapsed) =>
        set((s) => {
          if (collapsed === !!s.collapsed[pageId]) return s
          const next = { ...s.collapsed }
          if (collapsed) next[pageId] = true
          else delete next[pageId]
          return { collapsed: next }
        }),
      focusTitleOf: null,
      setFocusTitleOf: (pageId) => set({ focusTitleOf: pageId }),
      searchText: {},
      setSearchText: (spaceId, text) => set((s) => ({ searchText: { ...s.searchText, [spaceId]: text } })),
      layoutOpenFor: null,
      setLayoutOpenFor: (pageId) => set({ layoutOpenFor: pageId })
    }),
    // The editor layout and pane sizes are preferences; folds, focus and searches are not kept across restarts.
    {
      name: 'quire.pages',
      partialize: (s) => ({ mode: s.mode, commentsOpen: s.commentsOpen, panes: s.panes }),
      // A kept value from before a pane existed (or a hand-edited one) falls back to the default size.
      merge: (kept, current) => {
        const k = (kept ?? {}) as Partial<PagesUiState>
        const panes = { ...DEFAULT_PANE_SIZES }
        for (const key of Object.keys(panes) as (keyof PaneSizes)[]) {
          const v = k.panes?.[key]
          if (typeof v === 'number' && Number.isFinite(v)) panes[key] = v
        }
        return { ...current, ...k, panes }
      }
    }
  )
)

/** Where the page tree was scrolled, per space: the tree remounts when the address moves to a change request. */
export const treeScroll = new Map<string, number>()
