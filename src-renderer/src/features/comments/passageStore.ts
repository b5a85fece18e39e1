import { create } from 'zustand'
import { usePagesUi } from '../pages/pagesUiStore.ts'
import type { PassageNode } from './passages.ts'

// UI state between the page editor's passage highlights (`passageComments.ts`) and the comments panel: the
// passage a new comment will be on, which thread to show, and which passages the editor found in the text.

export interface PassageComment {
  id: string
  node: PassageNode
}

interface PassageUi {
  /** The passage the panel's next comment is on (set by the editor's "Comment"). */
  draft: { pageId: string; node: PassageNode } | null
  /** The open passage comments of each page, as the panel lists them: what the editor highlights. */
  comments: Record<string, PassageComment[]>
  /** Pages whose space the caller may not comment in: their editor offers no "Comment". */
  noComment: Record<string, true>
  setCommentable(pageId: string, allowed: boolean): void
  /** Whether the editor found each passage comment's text (false: outdated). */
  found: Record<string, boolean>
  /** A thread the panel should scroll to and mark (`n` changes with every ask). */
  focus: { commentId: string; n: number } | null
  /** A passage the editor should select and scroll to. */
  reveal: { commentId: string; n: number } | null
  compose(pageId: string, node: PassageNode): void
  clearDraft(): void
  setComments(pageId: string, comments: PassageComment[]): void
  setFound(found: Record<string, boolean>): void
  /** Drops what an editor found, once it closes (the Comments tab has no editor to say). */
  forgetFound(ids: string[]): void
  openThread(commentId: string): void
  revealPassage(commentId: string): void
}

const sameComments = (a: PassageComment[] | undefined, b: PassageComment[]) =>
  !!a &&
  a.length === b.length &&
  a.every((c, i) => c.id === b[i]!.id && c.node.id === b[i]!.node.id && c.node.preview === b[i]!.node.preview)

export const usePassageUi = create<PassageUi>()((set) => ({
  draft: null,
  comments: {},
  noComment: {},
  setCommentable: (pageId, allowed) =>
    set((s) => {
      if (allowed !== !!s.noComment[pageId]) return s
      const noComment = { ...s.noComment }
      if (allowed) delete noComment[pageId]
      else noComment[pageId] = true
      return { noComment }
    }),
  found: {},
  focus: null,
  reveal: null,
  compose: (pageId, node) => {
    set({ draft: { pageId, node } })
    if (!usePagesUi.getState().commentsOpen) usePagesUi.getState().toggleComments()
  },
  clearDraft: () => set({ draft: null }),
  setComments: (pageId, comments) =>
    set((s) => (sameComments(s.comments[pageId], comments) ? s : { comments: { ...s.comments, [pageId]: comments } })),
  setFound: (found) =>
    set((s) => (Object.entries(found).every(([id, ok]) => s.found[id] === ok) ? s : { found: { ...s.found, ...found } })),
  forgetFound: (ids) =>
    set((s) => {
      if (!ids.some((id) => id in s.found)) return s
      const found = { ...s.found }
      for (const id of ids) delete found[id]
      return { found }
    }),
  openThread: (commentId) => {
    set((s) => ({ focus: { commentId, n: (s.focus?.n ?? 0) + 1 } }))
    if (!usePagesUi.getState().commentsOpen) usePagesUi.getState().toggleComments()
  },
  revealPassage: (commentId) => set((s) => ({ reveal: { commentId, n: (s.reveal?.n ?? 0) + 1 } }))
}))
