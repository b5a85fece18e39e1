import { describe, expect, it } from 'vitest'
import { treeNavigation } from './treeKeys'

const leaf = { expandable: false, expanded: false, parentIndex: 0 }

describe('treeNavigation', () => {
  it('moves the focus down, up, to the first and the last row, within bounds', () => {
    expect(treeNavigation('ArrowDown', 2, 5, leaf)).toEqual({ type: 'focus', index: 3 })
    expect(treeNavigation('ArrowDown', 4, 5, leaf)).toEqual({ type: 'focus', index: 4 })
    expect(treeNavigation('ArrowUp', 0, 5, leaf)).toEqual({ type: 'focus', index: 0 })
    expect(treeNavigation('ArrowUp', -1, 5, undefined)).toEqual({ type: 'focus', index: 0 })
    expect(treeNavigation('Home', 3, 5, leaf)).toEqual({ type: 'focus', index: 0 })
    expect(treeNavigation('End', 1, 5, leaf)).toEqual({ type: 'focus', index: 4 })
    expect(treeNavigation('ArrowDown', 0, 0, undefined)).toBeNull()
  })

  it('unfolds a closed row, then enters it; folds an open row, then goes to the parent', () => {
    expect(treeNavigation('ArrowRight', 1, 5, { expandable: true, expanded: false })).toEqual({ type: 'expand' })
    expect(treeNavigation('ArrowRight', 1, 5, { expandable: true, expanded: true })).toEqual({ type: 'focus', index: 2 })
    expect(treeNavigation('ArrowRight', 1, 5, leaf)).toBeNull()
    expect(treeNavigation('ArrowLeft', 1, 5, { expandable: true, expanded: true, parentIndex: 0 })).toEqual({ type: 'collapse' })
    expect(treeNavigation('ArrowLeft', 3, 5, { expandable: true, expanded: false, parentIndex: 1 })).toEqual({ type: 'focus', index: 1 })
    expect(treeNavigation('ArrowLeft', 0, 5, { expandable: true, expanded: false })).toBeNull()
    expect(treeNavigation('Enter', 0, 5, leaf)).toBeNull()
  })
})
