// How the Pages screen shares its width between the page tree, the editor, the preview and the comments.
// Pure, so the rule is tested apart from the DOM: the screen measures its width and draws what this answers.

export type EditorMode = 'edit' | 'split' | 'preview'

/** The sizes the writer chose (by dragging a separator or with its arrow keys), kept across reloads. */
export interface PaneSizes {
  /** The page tree's width, px. */
  tree: number
  /** The comments panel's width, px. */
  comments: number
  /** The preview's share of the editor and preview together in Split, 0..1. */
  split: number
}

export const DEFAULT_PANE_SIZES: PaneSizes = { tree: 260, comments: 320, split: 0.5 }

export const PANE_MIN = {
  tree: 200,
  preview: 240,
  comments: 280,
  /** The editor beside a preview (Split shares the room on purpose). */
  editor: 320,
  /** The editor beside the comments: room to write, which the other panes give way to. */
  writing: 480
} as const

export const PANE_MAX = { tree: 480, comments: 560 } as const

/** Split's preview share, within which both halves stay usable at any width. */
export const SPLIT_RANGE = { min: 0.2, max: 0.8 } as const

/** One separator is drawn between two panes (a 1px rule with a wider grip). */
export const SEPARATOR = 1

export interface PaneInput {
  /** The screen's width, px. */
  width: number
  mode: EditorMode
  commentsOpen: boolean
  focus: boolean
  sizes: PaneSizes
}

/** Widths in px of the panes shown; null for a pane that is not. The editor (or, in Preview, the preview) takes the rest. */
export interface PaneLayout {
  tree: number | null
  editor: number | null
  preview: number | null
  comments: number | null
  /** The tree is hidden for want of room (the screen offers it over the editor instead). */
  treeYielded: boolean
  /** Split's preview is hidden for want of room (the comments took its place). */
  previewYielded: boolean
  /** How far each separator may move its pane: up to where the editor keeps its minimum. */
  limits: { tree: [number, number]; comments: [number, number]; preview: [number, number] }
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi))

/**
 * The panes for a width. Focus mode shows the editor alone (the preview alone in Preview). Otherwise each pane
 * keeps its chosen size while the editor keeps its minimum (480 px beside the comments, 320 px beside a preview);
 * short of room, the comments and then the tree shrink towards their minimums, and then panes give way in turn:
 * Split's preview to the comments, then the tree, then Split's preview. The comments stay once opened.
 */
export function arrangePanes({ width, mode, commentsOpen, focus, sizes }: PaneInput): PaneLayout {
  const W = Math.max(0, Math.floor(width))
  const none = {
    tree: [PANE_MIN.tree, PANE_MIN.tree],
    comments: [PANE_MIN.comments, PANE_MIN.comments],
    preview: [PANE_MIN.preview, PANE_MIN.preview]
  } as PaneLayout['limits']
  if (focus) {
    const alone = { tree: null, editor: null, preview: null, comments: null, treeYielded: false, previewYielded: false, limits: none }
    return mode === 'preview' ? { ...alone, preview: W } : { ...alone, editor: W }
  }
  const floor = commentsOpen ? PANE_MIN.writing : PANE_MIN.editor
  const wantTree = clamp(sizes.tree, PANE_MIN.tree, PANE_MAX.tree)
  const wantComments = commentsOpen ? clamp(sizes.comments, PANE_MIN.comments, PANE_MAX.comments) : 0
  const split = mode === 'split'

  // Tried in order: the first whose minimums fit is drawn.
  const tries: { tree: boolean; preview: boolean }[] = [
    { tree: true, preview: split },
    ...(split && commentsOpen ? [{ tree: true, preview: false }] : []),
    { tree: false, preview: split && !commentsOpen },
    ...(split && !commentsOpen ? [{ tree: false, preview: false }] : [])
  ]
  const separators = (t: { tree: boolean; preview: boolean }) => (t.tree ? 1 : 0) + (t.preview ? 1 : 0) + (commentsOpen ? 1 : 0)
  const needs = (t: { tree: boolean; preview: boolean }) =>
    (t.tree ? PANE_MIN.tree : 0) +
    (commentsOpen ? PANE_MIN.comments : 0) +
    floor +
    (t.preview ? PANE_MIN.preview : 0) +
    separators(t) * SEPARATOR
  const chosen = tries.find((t) => needs(t) <= W) ?? tries[tries.length - 1]!

  // Shrink the comments, then the tree, only as far as the editor (and Split's preview) need.
  const room = W - separators(chosen) * SEPARATOR
  let tree = chosen.tree ? wantTree : 0
  let comments = wantComments
  let deficit = tree + comments + floor + (chosen.preview ? PANE_MIN.preview : 0) - room
  if (deficit > 0) {
    const take = Math.min(deficit, comments - Math.min(comments, PANE_MIN.comments))
    comments -= take
    deficit -= take
  }
  if (deficit > 0 && chosen.tree) {
    const take = Math.min(deficit, tree - PANE_MIN.tree)
    tree -= take
    deficit -= take
  }
  const body = Math.max(0, room - tree - comments)
  let preview: number | null = null
  let editor: number | null = body
  if (mode === 'preview') {
    preview = body
    editor = null
  } else if (chosen.preview) {
    preview = clamp(Math.round(sizes.split * body), PANE_MIN.preview, body - floor)
    editor = body - preview
  }

  const grow = Math.max(0, (editor ?? preview ?? 0) - floor)
  return {
    tree: chosen.tree ? tree : null,
    editor,
    preview,
    comments: commentsOpen ? comments : null,
    treeYielded: !chosen.tree,
    previewYielded: split && !chosen.preview,
    limits: {
      tree: [PANE_MIN.tree, Math.max(PANE_MIN.tree, Math.min(PANE_MAX.tree, tree + grow))],
      comments: [PANE_MIN.comments, Math.max(PANE_MIN.comments, Math.min(PANE_MAX.comments, comments + grow))],
      preview: [PANE_MIN.preview, Math.max(PANE_MIN.preview, body - floor)]
    }
  }
}

/** The preview share for a preview width the writer dragged to, within `SPLIT_RANGE`. */
export function splitShare(previewWidth: number, body: number): number {
  if (body <= 0) return DEFAULT_PANE_SIZES.split
  return clamp(previewWidth / body, SPLIT_RANGE.min, SPLIT_RANGE.max)
}
