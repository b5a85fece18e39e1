import { describe, expect, it } from 'vitest'
import { canEditSubject, isActive, movesFrom, STATUS_FILTERS, STATUS_MOVES } from './moves.ts'

describe('change request moves', () => {
  it('offers exactly the moves the API allows', () => {
    const targets = Object.fromEntries(Object.entries(STATUS_MOVES).map(([from, moves]) => [from, moves.map((m) => m.to)]))
    expect(targets).toEqual({ draft: ['open', 'archived'], open: ['draft', 'archived'], archived: ['open'], merged: [] })
  })

  it('names each move for what it does from where it starts', () => {
    expect(movesFrom('draft').map((m) => m.label)).toEqual(['Ready for review', 'Archive'])
    expect(movesFrom('open').map((m) => m.label)).toEqual(['Back to draft', 'Archive'])
    expect(movesFrom('archived').map((m) => m.label)).toEqual(['Reopen'])
  })

  it('never moves to merged or to where it already is', () => {
    for (const [from, moves] of Object.entries(STATUS_MOVES)) {
      for (const move of moves) {
        expect(move.to).not.toBe('merged')
        expect(move.to).not.toBe(from)
      }
    }
  })

  it('merges and updates only live change requests; a merged one is final', () => {
    expect(STATUS_FILTERS.filter(isActive)).toEqual(['open', 'draft'])
    expect(canEditSubject('archived')).toBe(true)
    expect(canEditSubject('merged')).toBe(false)
  })
})
