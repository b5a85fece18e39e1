import { create } from 'zustand'
import { persist } from 'zustand/middleware'

// UI state of the pages screen only (server rows live in TanStack Query).

export type EditorMode = 'edit' | 'split' | 'preview'

interface PagesUiState {
  mode: EditorMode
  setMode(mode: EditorMode): void
  commentsOpen: boolean
  toggleComments(): void
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
      setLayoutOpenFor: (pageId) => set({ layoutOpenFor: pageId }),
    }),
    // The editor layout is a preference; folds, focus and searches are not kept across restarts.
    { name: 'quire.pages', partialize: (s) => ({ mode: s.mode, commentsOpen: s.commentsOpen }) },
  ),
)

/** Where the page tree was scrolled, per space: the tree remounts when the address moves to a change request. */
export const treeScroll = new Map<string, number>()
