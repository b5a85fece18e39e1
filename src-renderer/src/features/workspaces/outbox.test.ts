import { describe, expect, it } from 'vitest'
import type { OutboxItem } from '../../../../src-shared/workspaces.ts'
import {
  changeRequestLabel,
  changeRequestsOf,
  conflictDraft,
  conflictRegions,
  discardConsequence,
  hasConflictMarkers,
  renumberedPath,
  sendableCount,
  syncOutcome,
  unsentLabel
} from './outbox.ts'

const item = (seq: number, cr: string, kind: OutboxItem['kind'] = 'content', extra: Partial<OutboxItem> = {}): OutboxItem => ({
  seq,
  kind,
  createdAt: '2026-11-26T10:00:00.000Z',
  space: { id: 'space1', title: 'Handbook' },
  changeRequest: { id: cr, number: cr === 'crA' ? 3 : 7, subject: cr === 'crA' ? 'Edit “Install”' : '' },
  summary: 'Edited 1 page',
  ...extra
})

describe('unsentLabel', () => {
  it('says nothing while nothing waits', () => {
    expect(unsentLabel(undefined)).toBeNull()
    expect(unsentLabel({ unsent: 0, failed: 0, conflicts: 0 })).toBeNull()
  })

  it('counts the writes not sent, and puts what needs the user first', () => {
    expect(unsentLabel({ unsent: 1, failed: 0, conflicts: 0 })).toEqual({ label: '1 change not sent', refused: false })
    expect(unsentLabel({ unsent: 3, failed: 0, conflicts: 0 })).toEqual({ label: '3 changes not sent', refused: false })
    expect(unsentLabel({ unsent: 1, failed: 1, conflicts: 0 })).toEqual({ label: '1 change refused', refused: true })
    expect(unsentLabel({ unsent: 4, failed: 2, conflicts: 0 })).toEqual({ label: '2 changes refused · 2 not sent', refused: true })
    expect(unsentLabel({ unsent: 1, failed: 0, conflicts: 1 })).toEqual({ label: '1 conflict to resolve', refused: true })
    expect(unsentLabel({ unsent: 5, failed: 1, conflicts: 2 })).toEqual({
      label: '2 conflicts to resolve · 1 change refused · 2 not sent',
      refused: true
    })
  })
})

describe('changeRequestLabel', () => {
  it('names a change request by number and subject', () => {
    expect(changeRequestLabel(item(1, 'crA'))).toBe('#3 Edit “Install”')
    expect(changeRequestLabel(item(1, 'crB'))).toBe('#7')
  })
})

describe('discardConsequence', () => {
  const items = [
    item(1, 'crA', 'create-change-request'),
    item(2, 'crB'),
    item(3, 'crA'),
    item(4, 'crA', 'update-change-request'),
    item(5, 'crB')
  ]

  it('loses that write only; the change request goes back to the server’s once nothing of it is left', () => {
    expect(discardConsequence(items, 3)).toEqual({ later: 0, removesChangeRequest: false, last: false })
    expect(discardConsequence(items, 2)).toEqual({ later: 0, removesChangeRequest: false, last: false })
    expect(discardConsequence([item(5, 'crB')], 5)).toEqual({ later: 0, removesChangeRequest: false, last: true })
  })

  it('removes a change request made on this computer, with its later writes, when its opening goes', () => {
    expect(discardConsequence(items, 1)).toEqual({ later: 2, removesChangeRequest: true, last: true })
  })

  it('knows nothing of a write that is not listed', () => {
    expect(discardConsequence(items, 9)).toBeNull()
  })
})

describe('syncOutcome', () => {
  const host = 'docs.example.com'
  it('says what was sent', () => {
    expect(syncOutcome({ sent: 2, failed: 0, items: [] }, host)).toEqual({ text: 'Sent 2 changes to docs.example.com', tone: 'sent' })
    expect(syncOutcome({ sent: 0, failed: 0, items: [] }, host)).toEqual({ text: 'Nothing was waiting to be sent', tone: 'sent' })
  })

  it('says the server is still out of reach, or went away during the send', () => {
    expect(syncOutcome({ sent: 0, failed: 0, items: [item(1, 'crA')], stopped: 'unreachable' }, host)).toEqual({
      text: 'Still out of reach: docs.example.com did not answer',
      tone: 'waiting'
    })
    expect(syncOutcome({ sent: 1, failed: 0, items: [item(2, 'crA')], stopped: 'unreachable' }, host).text).toBe(
      'Sent 1 change; then docs.example.com went out of reach again'
    )
  })

  it('says what the server refused, and when it stopped with an error or refused the token', () => {
    expect(syncOutcome({ sent: 1, failed: 1, items: [item(2, 'crA')] }, host)).toEqual({
      text: 'Sent 1 change; docs.example.com refused 1 change: the reason is shown with it',
      tone: 'problem'
    })
    expect(syncOutcome({ sent: 0, failed: 0, items: [item(1, 'crA')], stopped: 'server-error' }, host).text).toMatch(
      /error of its own: the changes wait/
    )
    expect(
      syncOutcome({ sent: 0, failed: 0, items: [item(1, 'crA')], stopped: 'server-error', message: 'Database locked' }, host).text
    ).toContain('error of its own (“Database locked”)')
    expect(syncOutcome({ sent: 0, failed: 0, items: [item(1, 'crA')], stopped: 'refused' }, host).text).toMatch(
      /refused this workspace's token/
    )
  })

  it('says when what is left waits behind a write that needs the user', () => {
    expect(syncOutcome({ sent: 0, failed: 0, items: [item(1, 'crA', 'content', { failed: { at: '', message: 'no' } })] }, host)).toEqual({
      text: 'Nothing was sent; the changes left wait behind one that needs you',
      tone: 'waiting'
    })
  })

  it('says a conflict needs a choice', () => {
    expect(syncOutcome({ sent: 1, failed: 0, conflicts: 1, items: [item(2, 'crA')] }, host)).toEqual({
      text: 'Sent 1 change; 1 change conflicts with what was changed on docs.example.com: choose what to keep',
      tone: 'problem'
    })
  })
})

describe('renumberedPath', () => {
  const renumbered = [{ spaceId: 'space1', from: 1, to: 4 }]
  it('moves a change request’s screen, and a page in it, to the server’s number', () => {
    expect(renumberedPath('/spaces/space1/change-requests/1', renumbered)).toBe('/spaces/space1/change-requests/4')
    expect(renumberedPath('/spaces/space1/change-requests/1/pages/p1', renumbered)).toBe('/spaces/space1/change-requests/4/pages/p1')
  })

  it('leaves other addresses alone', () => {
    expect(renumberedPath('/spaces/space1/change-requests/2', renumbered)).toBeNull()
    expect(renumberedPath('/spaces/space2/change-requests/1', renumbered)).toBeNull()
    expect(renumberedPath('/spaces/space1/change-requests/10', renumbered)).toBeNull()
    expect(renumberedPath('/spaces/space1/change-requests', renumbered)).toBeNull()
    expect(renumberedPath('/spaces/space1/pages/p1', renumbered)).toBeNull()
    expect(renumberedPath('/spaces/space1/change-requests/1', [])).toBeNull()
  })
})

describe('changeRequestsOf', () => {
  it('lists each change request once', () => {
    expect(changeRequestsOf([item(1, 'crA'), item(2, 'crB'), item(3, 'crA')])).toEqual([
      { spaceId: 'space1', number: 3 },
      { spaceId: 'space1', number: 7 }
    ])
  })
})

describe('sendableCount', () => {
  const refused = { failed: { at: '2026-11-26T10:00:00.000Z', message: 'no' } }
  it('leaves out conflicts, like refused writes, and what waits behind them', () => {
    const conflict = { conflict: { at: '', message: 'clash', pages: [] } }
    expect(sendableCount([item(1, 'crA', 'content', conflict), item(2, 'crA'), item(3, 'crB')])).toBe(1)
  })

  it('leaves out refused writes and the later writes of their change requests', () => {
    expect(sendableCount([item(1, 'crA'), item(2, 'crB')])).toBe(2)
    expect(sendableCount([item(1, 'crA', 'content', refused), item(2, 'crB'), item(3, 'crA')])).toBe(1)
    expect(sendableCount([item(1, 'crA', 'content', refused)])).toBe(0)
  })
})

describe('conflict regions', () => {
  const base = 'Title\none\ntwo\nthree\n'
  const mine = 'Title\nONE\ntwo\nthree, mine\n'
  const theirs = 'Title\nEins\ntwo\nthree\n'

  it('shows where the three versions agree and where both changed', () => {
    expect(conflictRegions(base, mine, theirs)).toEqual([
      { same: ['Title'] },
      { base: ['one'], mine: ['ONE'], theirs: ['Eins'] },
      { same: ['two', 'three, mine', ''] }
    ])
  })

  it('starts an edited merge with both versions of each clash between markers, and knows when markers are left', () => {
    const draft = conflictDraft(conflictRegions(base, mine, theirs))
    expect(draft).toBe('Title\n<<<<<<< this computer\nONE\n=======\nEins\n>>>>>>> the server\ntwo\nthree, mine\n')
    expect(hasConflictMarkers(draft)).toBe(true)
    expect(hasConflictMarkers('Title\nONE / Eins\ntwo\n')).toBe(false)
  })
})
