import { create } from 'zustand'
import { persist } from 'zustand/middleware'

// UI-only state (panels, selection, dialogs). Server data lives in TanStack Query, never here.

/** The dialogs of the organization home; one open at a time. */
export type ContentDialog =
  | { kind: 'create-space'; parent: string | null }
  | { kind: 'create-collection'; parent: string | null }
  | { kind: 'rename-space'; spaceId: string }
  | { kind: 'rename-collection'; collectionId: string }
  | { kind: 'move'; item: { kind: 'space' | 'collection'; id: string } }
  | { kind: 'transfer'; item: { kind: 'space' | 'collection'; id: string } }

interface UiState {
  sidebarOpen: boolean
  toggleSidebar(): void
  /** The organization the user looked at last: where `/` and org-less screens (a space) lead back to. */
  lastOrgId: string | null
  setLastOrgId(orgId: string): void
  /** Collections folded in the content tree (expanded is the default, so new ones show their spaces). */
  collapsed: Record<string, true>
  toggleCollapsed(collectionId: string): void
  setCollapsed(collectionId: string, collapsed: boolean): void
  /** The row last clicked or focused in the content tree. */
  selectedTreeId: string | null
  select(id: string | null): void
  contentDialog: ContentDialog | null
  openContentDialog(dialog: ContentDialog): void
  closeContentDialog(): void
}

export const useUiStore = create<UiState>()(
  persist(
    (set) => ({
      sidebarOpen: true,
      toggleSidebar: () => set((s) => ({ sidebarOpen: !s.sidebarOpen })),
      lastOrgId: null,
      setLastOrgId: (orgId) => set((s) => (s.lastOrgId === orgId ? s : { lastOrgId: orgId })),
      collapsed: {},
      toggleCollapsed: (id) => set((s) => ({ collapsed: toggled(s.collapsed, id, !s.collapsed[id]) })),
      setCollapsed: (id, collapsed) => set((s) => ({ collapsed: toggled(s.collapsed, id, collapsed) })),
      selectedTreeId: null,
      select: (id) => set({ selectedTreeId: id }),
      contentDialog: null,
      openContentDialog: (dialog) => set({ contentDialog: dialog }),
      closeContentDialog: () => set({ contentDialog: null })
    }),
    {
      name: 'quire.ui',
      // Preferences survive a restart; selection and dialogs do not.
      partialize: (s) => ({ sidebarOpen: s.sidebarOpen, lastOrgId: s.lastOrgId, collapsed: s.collapsed })
    }
  )
)

function toggled(map: Record<string, true>, id: string, on: boolean): Record<string, true> {
  if (on === !!map[id]) return map
  const next = { ...map }
  if (on) next[id] = true
  else delete next[id]
  return next
}
