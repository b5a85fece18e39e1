import { describe, expect, it } from 'vitest'
import type { AuditEvent } from '../../api/types.ts'
import { auditCsv, auditQuery, csvCell, payloadChanges, readAuditFilters } from './auditLog.ts'

const event = (over: Partial<AuditEvent> = {}): AuditEvent => ({
  object: 'audit-event',
  id: '6f1c1f6e-3d2b-4a55-9d55-0c7a8e3d1b11',
  occurredAt: '2026-03-01T10:00:00.000Z',
  action: 'space.updated',
  actor: { type: 'user', id: 'u1', label: 'Ada Lovelace' },
  source: 'api',
  target: { type: 'space', id: 's1', label: 'Guides, "v2"' },
  urls: { location: 'http://127.0.0.1/v1/orgs/o/audit-events/x' },
  ...over
})

describe('auditCsv', () => {
  it('writes a header and one quoted-where-needed line per event', () => {
    expect(auditCsv([event()])).toBe(
      'occurredAt,action,actorType,actorId,actor,source,targetType,targetId,target\r\n' +
        '2026-03-01T10:00:00.000Z,space.updated,user,u1,Ada Lovelace,api,space,s1,"Guides, ""v2"""\r\n'
    )
  })
  it('keeps a label a spreadsheet would run as a formula as text', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvCell('-1')).toBe("'-1")
    expect(csvCell('plain')).toBe('plain')
    expect(auditCsv([event({ target: { type: 'space', id: 's1' } })]).split('\r\n')[1]).toMatch(/,space,s1,$/)
  })
})

describe('filters', () => {
  it('turns local days into a whole-day time range and drops empty values', () => {
    const q = auditQuery({ fromDay: '2026-03-01', toDay: '2026-03-02', actor: '', action: 'space.updated' })
    expect(q.from).toBe(new Date('2026-03-01T00:00:00.000').toISOString())
    expect(q.to).toBe(new Date('2026-03-02T23:59:59.999').toISOString())
    expect(q.actor).toBeUndefined()
    expect(q.action).toBe('space.updated')
  })
  it('reads the address, ignoring malformed days', () => {
    expect(readAuditFilters({ fromDay: 'yesterday', toDay: '2026-03-02', target: 's1', actor: 3 })).toEqual({
      actor: undefined,
      action: undefined,
      target: 's1',
      fromDay: undefined,
      toDay: '2026-03-02'
    })
  })
})

describe('payloadChanges', () => {
  it('pairs before and after by field', () => {
    expect(payloadChanges({ before: { title: 'A' }, after: { title: 'B', emoji: 'x' } })).toEqual([
      { field: 'title', before: 'A', after: 'B' },
      { field: 'emoji', before: undefined, after: 'x' }
    ])
    expect(payloadChanges({})).toEqual([])
  })
})
