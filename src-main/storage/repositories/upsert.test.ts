// The repositories' writes of rows known elsewhere (a connected workspace's copy, src-main/sync/mirrorRows.ts): each
// writes only when a value differs, so the same state written again changes no row, and the deletions of what a
// server no longer lists keep what it lists.
import { describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../database'
import { changeRequestRepository, type MirroredChangeRequest } from './changeRequestRepository'
import { collectionRepository, type MirroredCollection } from './collectionRepository'
import { commentRepository } from './commentRepository'
import { memberRepository } from './memberRepository'
import { repository } from './memo'
import { organizationRepository, type MirroredOrganization } from './organizationRepository'
import { reactionRepository } from './reactionRepository'
import { settingsRepository } from './settingsRepository'
import { spaceRepository, type MirroredSpace } from './spaceRepository'
import { upsertSql } from './upsert'
import { userRepository } from './userRepository'

const now = '2026-03-01T10:00:00.000Z'
const later = '2026-03-02T10:00:00.000Z'

/** Rows the connection inserted, updated or deleted while `fn` ran. */
function changesOf(db: Db, fn: () => void): number {
  const total = db.prepare<[], number>('SELECT total_changes()').pluck()
  const before = total.get()!
  fn()
  return total.get()! - before
}

const org = (id: string, title = id): MirroredOrganization => ({
  id,
  title,
  created_at: now,
  hostname: null,
  type: 'business',
  use_case: null,
  community_type: null,
  default_role: 'read',
  default_content: null,
  sso: 0,
  ai: 0,
  invite_links: 1,
  plan: 'free',
  custom_hostname: null,
  logo: null,
  merge_rules: null
})
const collection = (id: string, title = id): MirroredCollection => ({
  id,
  organization_id: 'o1',
  title,
  description: null,
  default_level: null,
  position: 1,
  created_at: now,
  updated_at: now
})
const space = (id: string, position: number, title = id): MirroredSpace => ({
  id,
  organization_id: 'o1',
  parent_id: null,
  title,
  emoji: '',
  visibility: 'private',
  edit_mode: 'live',
  default_level: null,
  position,
  visitor_auth: null,
  git_sync: null,
  comments_open: 0,
  change_requests: 0,
  change_requests_open: 0,
  change_requests_draft: 0,
  created_at: now,
  updated_at: now,
  deleted_at: null,
  merge_rules: null
})
const changeRequest = (id: string, number: number, subject = id): MirroredChangeRequest => ({
  id,
  space_id: 's1',
  number,
  status: 'open',
  subject,
  created_by: null,
  created_at: now,
  updated_at: now,
  revision_id: 'r1',
  revision_initial: 'r1',
  revision_merged_ancestor: null,
  revision_merged: null,
  comments_open: 0
})

/** A workspace with one user, organization `o1` and space `s1`. */
function workspace() {
  const db = openDatabase({ file: ':memory:' })
  const user = repository(db, userRepository).create({ email: 'ann@example.com' }, now)
  repository(db, organizationRepository).upsertMirrored(org('o1'))
  repository(db, spaceRepository).upsertMirrored(space('s1', 1), false)
  return { db, user }
}

describe('upsertSql', () => {
  it('inserts, writes nothing for the same values, updates a difference (with the `also` columns, which alone are none)', () => {
    const db = openDatabase({ file: ':memory:' })
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, a TEXT, b INTEGER, at TEXT)')
    const upsert = db.prepare(upsertSql('t', ['id'], ['id', 'a', 'b', 'at'], ['a', 'b'], ['at']))
    const row = () => db.prepare('SELECT a, b, at FROM t WHERE id = ?').get('x')

    expect(upsert.run({ id: 'x', a: 'one', b: null, at: now }).changes).toBe(1)
    expect(upsert.run({ id: 'x', a: 'one', b: null, at: later }).changes).toBe(0)
    expect(row()).toEqual({ a: 'one', b: null, at: now })
    expect(upsert.run({ id: 'x', a: 'one', b: 2, at: later }).changes).toBe(1)
    expect(row()).toEqual({ a: 'one', b: 2, at: later })
  })
})

describe('repositories: mirrored rows are written only when a value differs', () => {
  it('organizations and their deletion of the unlisted ones (with their members)', () => {
    const { db, user } = workspace()
    const orgs = repository(db, organizationRepository)
    expect(changesOf(db, () => orgs.upsertMirrored(org('o1')))).toBe(0)
    expect(changesOf(db, () => orgs.upsertMirrored(org('o1', 'Renamed')))).toBe(1)
    expect(orgs.get('o1')?.title).toBe('Renamed')

    orgs.upsertMirrored(org('o2'))
    orgs.addMember('o2', user.id, 'admin', now)
    expect([...orgs.getMany(['o1', 'o2', 'o3']).keys()].sort()).toEqual(['o1', 'o2'])
    orgs.deleteNotIn(['o1'])
    expect(orgs.get('o1')?.title).toBe('Renamed')
    expect(orgs.get('o2')).toBeUndefined()
    expect(orgs.member('o2', user.id)).toBeUndefined()
  })

  it('memberships', () => {
    const { db, user } = workspace()
    const members = repository(db, memberRepository)
    const row = { organization_id: 'o1', user_id: user.id, role: 'read', disabled: 0, sso: 0, joined_at: now, last_seen_at: null }
    expect(changesOf(db, () => members.upsertMirrored(row))).toBe(1)
    expect(changesOf(db, () => members.upsertMirrored(row))).toBe(0)
    expect(changesOf(db, () => members.upsertMirrored({ ...row, role: 'admin' }))).toBe(1)
    expect(members.ofUser(user.id).get('o1')).toMatchObject({ role: 'admin', joined_at: now })
  })

  it('collections: updated_at moves with a change only; parents; deleteNotIn keeps the listed ones', () => {
    const { db } = workspace()
    const collections = repository(db, collectionRepository)
    collections.upsertMirrored(collection('c1'))
    collections.upsertMirrored(collection('c2'))
    expect(changesOf(db, () => collections.upsertMirrored({ ...collection('c1'), updated_at: later }))).toBe(0)
    expect(collections.get('c1')?.updated_at).toBe(now)
    expect(changesOf(db, () => collections.upsertMirrored({ ...collection('c1', 'Renamed'), updated_at: later }))).toBe(1)
    expect(collections.get('c1')).toMatchObject({ title: 'Renamed', updated_at: later, parent_id: null })

    expect(changesOf(db, () => collections.setParentIfDifferent('c2', 'c1'))).toBe(1)
    expect(changesOf(db, () => collections.setParentIfDifferent('c2', 'c1'))).toBe(0)
    // An upsert leaves the parent as it is.
    collections.upsertMirrored(collection('c2', 'Moved'))
    expect(collections.get('c2')).toMatchObject({ parent_id: 'c1', title: 'Moved' })

    collections.upsertMirrored(collection('c3'))
    collections.deleteNotIn(['c1', 'c2'])
    expect(['c1', 'c2', 'c3'].map((id) => !!collections.get(id))).toEqual([true, true, false])
  })

  it('spaces: a kept position, the revision, the grant; removeMany takes reactions to their comments along', () => {
    const { db, user } = workspace()
    const spaces = repository(db, spaceRepository)
    expect(changesOf(db, () => spaces.upsertMirrored(space('s1', 1), false))).toBe(0)
    expect(changesOf(db, () => spaces.upsertMirrored(space('s1', 5), true))).toBe(0)
    expect(spaces.get('s1')?.position).toBe(1)
    expect(changesOf(db, () => spaces.upsertMirrored(space('s1', 5), false))).toBe(1)
    expect(spaces.get('s1')?.position).toBe(5)

    expect(spaces.setRevisionIfDifferent('s1', 'r1')).toBe(true)
    expect(spaces.setRevisionIfDifferent('s1', 'r1')).toBe(false)

    expect(changesOf(db, () => spaces.setGrant('s1', 'user', user.id, 'write', now))).toBe(1)
    expect(changesOf(db, () => spaces.setGrant('s1', 'user', user.id, 'write', later))).toBe(0)
    expect(changesOf(db, () => spaces.setGrant('s1', 'user', user.id, 'read', later))).toBe(1)
    expect(spaces.grants('s1')).toEqual([{ principal_type: 'user', principal_id: user.id, role: 'read' }])

    spaces.upsertMirrored(space('s2', 2), false)
    spaces.upsertMirrored(space('s3', 3), false)
    expect(spaces.idsNotIn(['s1', 's2']).sort()).toEqual(['s3'])
    const comment = repository(db, commentRepository).create({
      space_id: 's3',
      change_request_id: null,
      page_id: null,
      node_id: null,
      node_preview: null,
      revision_id: null,
      body: 'Hi',
      posted_by: user.id,
      posted_at: now
    })
    repository(db, reactionRepository).add(comment.id, '👍', user.id, now)
    repository(db, reactionRepository).add('elsewhere', '👍', user.id, now)
    spaces.removeMany(['s3'])
    expect(spaces.idsNotIn(['s1', 's2'])).toEqual([])
    expect(db.prepare('SELECT subject_id FROM reactions').pluck().all()).toEqual(['elsewhere'])
  })

  it('change requests: rows, the live ones, removeMany', () => {
    const { db } = workspace()
    const crs = repository(db, changeRequestRepository)
    expect(changesOf(db, () => crs.upsertMirrored(changeRequest('cr1', 1)))).toBe(1)
    expect(changesOf(db, () => crs.upsertMirrored(changeRequest('cr1', 1)))).toBe(0)
    expect(changesOf(db, () => crs.upsertMirrored({ ...changeRequest('cr1', 1), status: 'merged' }))).toBe(1)
    crs.upsertMirrored({ ...changeRequest('cr2', 2), status: 'draft' })
    crs.upsertMirrored(changeRequest('cr3', 3))
    expect(crs.liveInSpace('s1').sort((a, b) => a.number - b.number)).toEqual([
      { id: 'cr2', number: 2 },
      { id: 'cr3', number: 3 }
    ])
    crs.removeMany(['cr3'])
    expect(['cr1', 'cr2', 'cr3'].map((id) => !!crs.get('s1', id))).toEqual([true, true, false])
  })

  it('the owner', () => {
    const { db, user } = workspace()
    const settings = repository(db, settingsRepository)
    expect(settings.owner()).toBeUndefined()
    expect(changesOf(db, () => settings.setOwner(user.id))).toBe(1)
    expect(changesOf(db, () => settings.setOwner(user.id))).toBe(0)
    expect(settings.owner()).toBe(user.id)
  })
})
