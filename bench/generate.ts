// Fills a Quire workspace with one organization of many spaces, fast: prepared inserts of what the API's
// createSpace writes (the space row, an empty first revision, its (empty) search state, the creator's admin
// grant), many spaces per transaction, no HTTP. createSpace itself re-prepares statements per call: 100k spaces took ~18 s, these ~4 s.
import type { Services } from '../src-main/workspace/context'
import { newId } from '../src-main/storage/ids'
import { newToken } from '../src-main/storage/ids'
import { repository } from '../src-main/storage/repositories/memo'
import { organizationRepository } from '../src-main/storage/repositories/organizationRepository'
import { userRepository, type UserRow } from '../src-main/storage/repositories/userRepository'
import { SPACE_EMOJI, isSampled, spaceTitle } from './rows'

export interface GenerateOptions {
  organizationId: string
  owner: UserRow
  spaces: number
  sampleSize: number
  /** Spaces per transaction. One transaction per row is several times slower (see DESIGN.md). */
  batch?: number
}

export interface Generated {
  sampleIds: string[]
  /** A token of a second user, member of the organization with the `read` role (no admin short-cut). */
  readerToken: string
  millis: number
}

export function generateOrganization(services: Services, options: GenerateOptions): Generated {
  const started = performance.now()
  const { db } = services
  const { organizationId, owner, spaces, sampleSize, batch = 5_000 } = options
  const sampleIds: string[] = []
  const insertSpace = db.prepare(
    `INSERT INTO spaces (id, organization_id, parent_id, title, emoji, visibility, edit_mode, default_level, position, revision_id,
       created_by, created_at, updated_at)
     VALUES (?, ?, NULL, ?, ?, 'private', 'live', NULL, ?, ?, ?, ?, ?)`
  )
  const insertRevision = db.prepare(
    "INSERT INTO revisions (id, space_id, parents, type, created_by, created_at) VALUES (?, ?, '[]', 'edits', ?, ?)"
  )
  // An empty revision has nothing to index; the state says the index is in step with it.
  const insertSearchState = db.prepare('INSERT INTO search_state (space_id, revision_id) VALUES (?, ?)')
  const insertGrant = db.prepare(
    "INSERT INTO space_grants (space_id, principal_type, principal_id, role, granted_at) VALUES (?, 'user', ?, 'admin', ?)"
  )
  const firstPosition = db
    .prepare<[string], number>('SELECT coalesce(max(position), 0) FROM spaces WHERE organization_id = ?')
    .pluck()
    .get(organizationId)!
  const now = services.clock.now().toISOString()
  const insertBatch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const spaceId = newId()
      const revisionId = newId()
      insertSpace.run(spaceId, organizationId, spaceTitle(i), SPACE_EMOJI, firstPosition + i + 1, revisionId, owner.id, now, now)
      insertRevision.run(revisionId, spaceId, owner.id, now)
      insertSearchState.run(spaceId, revisionId)
      insertGrant.run(spaceId, owner.id, now)
      if (isSampled(i, spaces, sampleSize)) sampleIds.push(spaceId)
    }
  })
  for (let from = 0; from < spaces; from += batch) insertBatch(from, Math.min(spaces, from + batch))

  const readerToken = newToken()
  db.transaction(() => {
    const users = repository(db, userRepository)
    const reader = users.create({ email: 'reader@bench.test', displayName: 'Bench reader' }, now)
    users.addToken(reader.id, readerToken, 'bench', now)
    repository(db, organizationRepository).addMember(organizationId, reader.id, 'read', now)
  })()
  services.writes++
  return { sampleIds, readerToken, millis: performance.now() - started }
}
