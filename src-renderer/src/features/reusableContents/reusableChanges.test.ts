import { describe, expect, it } from 'vitest'
import { reusableChanges } from './reusableChanges.ts'

describe('reusableChanges', () => {
  it('lists the contents a change request added, edited (renamed or not) and removed, and nothing for the untouched', () => {
    const base = [
      { id: 'a', title: 'Kept', markdown: 'same' },
      { id: 'b', title: 'Note', markdown: 'old' },
      { id: 'c', title: 'Tip', markdown: 'tip' },
      { id: 'd', title: 'Gone', markdown: 'bye' }
    ]
    const head = [
      { id: 'e', title: 'Fresh', markdown: 'new' },
      { id: 'a', title: 'Kept', markdown: 'same' },
      { id: 'b', title: 'Note', markdown: 'new text' },
      { id: 'c', title: 'Hint', markdown: 'tip' }
    ]
    expect(reusableChanges(base, head)).toEqual([
      { kind: 'added', id: 'e', title: 'Fresh' },
      { kind: 'edited', id: 'b', title: 'Note' },
      { kind: 'edited', id: 'c', title: 'Hint', renamedFrom: 'Tip' },
      { kind: 'removed', id: 'd', title: 'Gone' }
    ])
    expect(reusableChanges(base, base)).toEqual([])
  })
})
