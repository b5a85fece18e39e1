import { describe, expect, it } from 'vitest'
import { arrangePanes, DEFAULT_PANE_SIZES, PANE_MIN, splitShare, type PaneInput } from './paneLayout.ts'

// The Pages screen's width beside the shell's 248 px sidebar, at the two window sizes the screenshots use.
const WIDE = 1440 - 248
const NARROW = 1024 - 248

const input = (over: Partial<PaneInput>): PaneInput => ({
  width: WIDE,
  mode: 'split',
  commentsOpen: false,
  focus: false,
  sizes: DEFAULT_PANE_SIZES,
  ...over
})
const total = (l: ReturnType<typeof arrangePanes>) =>
  (l.tree ?? 0) +
  (l.editor ?? 0) +
  (l.preview ?? 0) +
  (l.comments ?? 0) +
  [l.tree, l.preview !== null && l.editor !== null ? 1 : null, l.comments].filter((x) => x !== null).length

describe('arrangePanes', () => {
  it('gives every pane its chosen size when there is room, the editor the rest', () => {
    const l = arrangePanes(input({}))
    expect(l).toMatchObject({ tree: 260, comments: null, treeYielded: false, previewYielded: false })
    expect(l.preview).toBe(Math.round(0.5 * (WIDE - 260 - 2)))
    expect(total(l)).toBe(WIDE)
  })

  it('keeps the editor at least 480 px beside the comments at 1024 px: the preview and then the tree give way', () => {
    const l = arrangePanes(input({ width: NARROW, commentsOpen: true }))
    expect(l.tree).toBeNull()
    expect(l.preview).toBeNull()
    expect(l).toMatchObject({ treeYielded: true, previewYielded: true })
    expect(l.editor).toBeGreaterThanOrEqual(PANE_MIN.writing)
    expect(l.comments).toBeGreaterThanOrEqual(PANE_MIN.comments)
    expect(total(l)).toBe(NARROW)
  })

  it('lets the comments take the preview’s place before the tree shrinks away at 1440 px', () => {
    const l = arrangePanes(input({ commentsOpen: true }))
    expect(l).toMatchObject({ tree: 260, comments: 320, preview: null, previewYielded: true, treeYielded: false })
    expect(l.editor).toBe(WIDE - 260 - 320 - 2)
  })

  it('shows all four panes on a wide screen', () => {
    const l = arrangePanes(input({ width: 1900, commentsOpen: true }))
    expect(l.tree).toBe(260)
    expect(l.comments).toBe(320)
    expect(l.preview).toBeGreaterThanOrEqual(PANE_MIN.preview)
    expect(l.editor).toBeGreaterThanOrEqual(PANE_MIN.writing)
    expect(total(l)).toBe(1900)
  })

  it('shrinks the tree before hiding it in Split at 1024 px', () => {
    const l = arrangePanes(input({ width: NARROW }))
    expect(l.tree).toBeGreaterThanOrEqual(PANE_MIN.tree)
    expect(l.tree).toBeLessThan(260)
    expect(l.editor).toBeGreaterThanOrEqual(PANE_MIN.editor)
    expect(l.preview).toBeGreaterThanOrEqual(PANE_MIN.preview)
    expect(total(l)).toBe(NARROW)
  })

  it('hides the tree, then the preview, as the screen narrows', () => {
    expect(arrangePanes(input({ width: 700 }))).toMatchObject({ tree: null, treeYielded: true, previewYielded: false })
    expect(arrangePanes(input({ width: 500 }))).toMatchObject({ tree: null, preview: null, editor: 500, previewYielded: true })
  })

  it('shows the editor alone in focus mode (the preview alone in Preview)', () => {
    expect(arrangePanes(input({ focus: true, commentsOpen: true }))).toMatchObject({
      tree: null,
      preview: null,
      comments: null,
      editor: WIDE
    })
    expect(arrangePanes(input({ focus: true, mode: 'preview' }))).toMatchObject({ editor: null, preview: WIDE })
  })

  it('clamps sizes to their minimums and maximums, and limits a separator to where the editor keeps its minimum', () => {
    const l = arrangePanes(input({ width: 1900, mode: 'edit', sizes: { tree: 5000, comments: 10, split: 0.5 }, commentsOpen: true }))
    expect(l.tree).toBe(480)
    // Short of room the tree gives up what the editor needs.
    expect(arrangePanes(input({ mode: 'edit', sizes: { tree: 5000, comments: 10, split: 0.5 }, commentsOpen: true })).tree).toBe(
      WIDE - 2 - PANE_MIN.comments - PANE_MIN.writing
    )
    expect(l.comments).toBe(PANE_MIN.comments)
    expect(l.limits.tree[1]).toBe(480)
    expect(l.limits.comments[1]).toBe(Math.min(560, PANE_MIN.comments + l.editor! - PANE_MIN.writing))
    const split = arrangePanes(input({}))
    expect(split.limits.preview).toEqual([PANE_MIN.preview, split.editor! + split.preview! - PANE_MIN.editor])
  })
})

describe('separator sizes', () => {
  it('turns a dragged preview width into a share within range', () => {
    expect(splitShare(300, 600)).toBe(0.5)
    expect(splitShare(10, 600)).toBe(0.2)
    expect(splitShare(590, 600)).toBe(0.8)
  })
})
