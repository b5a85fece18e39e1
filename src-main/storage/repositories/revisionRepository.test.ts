import { describe, expect, it } from 'vitest'
import { writeRevision } from '../../content/revisions'
import { openDatabase } from '../database'
import { changeRequestRepository } from './changeRequestRepository'
import { repository } from './memo'
import { organizationRepository } from './organizationRepository'
import { revisionRepository } from './revisionRepository'
import { spaceRepository } from './spaceRepository'
import { userRepository } from './userRepository'

const now = '2026-03-01T10:00:00.000Z'

/** Space `s1` with primary revisions `r1` ← `r2` ← `r3` (its current one) and a change request revision `c1`. */
function workspace() {
  const db = openDatabase({ file: ':memory:' })
  const org = repository(db, organizationRepository).create({ title: 'Org' }, now)
  const spaces = repository(db, spaceRepository)
  const { id: spaceId } = spaces.create({
    organization_id: org.id,
    parent_id: null,
    title: 'Space',
    emoji: '',
    visibility: 'private',
    edit_mode: 'live',
    default_level: null,
    position: 1,
    created_by: null,
    created_at: now,
    updated_at: now
  })
  let base: string | null = null
  for (const id of ['r1', 'r2', 'r3']) {
    base = writeRevision(db, {
      id,
      spaceId,
      parents: base ? [base] : [],
      type: 'edits',
      createdBy: null,
      now,
      base,
      pages: { upsert: [], remove: [] }
    })
  }
  spaces.update(spaceId, { revision_id: 'r3' })
  writeRevision(db, {
    id: 'c1',
    spaceId,
    changeRequestId: 'cr',
    parents: ['r3'],
    type: 'edits',
    createdBy: null,
    now,
    base: 'r3',
    pages: { upsert: [], remove: [] }
  })
  return { db, spaceId, revisions: repository(db, revisionRepository) }
}

describe('revisionRepository: which revisions exist and which are still needed', () => {
  it('knows the revisions held, and a space’s newest first', () => {
    const { spaceId, revisions } = workspace()
    expect(revisions.heldOf(['r1', 'c1', 'nope'])).toEqual(new Set(['r1', 'c1']))
    expect(revisions.idsOfSpace(spaceId)).toEqual(['c1', 'r3', 'r2', 'r1'])
  })

  it('a primary revision is unneeded unless the space, a change request, the search rows or the outbox name it', () => {
    const { db, spaceId, revisions } = workspace()
    expect(revisions.unneededInSpace(spaceId).sort()).toEqual(['r1', 'r2'])

    const user = repository(db, userRepository).create({ email: 'ann@example.com' }, now)
    const cr = repository(db, changeRequestRepository).create({
      space_id: spaceId,
      subject: 'Fix',
      created_by: user.id,
      created_at: now,
      revision: 'r1'
    })
    expect(revisions.unneededInSpace(spaceId)).toEqual(['r2'])
    db.prepare('DELETE FROM change_requests WHERE id = ?').run(cr.id)

    db.prepare('INSERT INTO search_state (space_id, revision_id) VALUES (?, ?)').run(spaceId, 'r2')
    expect(revisions.unneededInSpace(spaceId)).toEqual(['r1'])

    db.prepare(
      `INSERT INTO sync_outbox (method, path, kind, space_id, change_request_id, base_revision, created_at)
       VALUES ('POST', '/x', 'content', ?, 'cr', 'r1', ?)`
    ).run(spaceId, now)
    expect(revisions.unneededInSpace(spaceId)).toEqual([])
  })
})
