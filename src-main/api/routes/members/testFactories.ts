// Test-only factories for the members and teams tests: spaces and grants written straight to the workspace
// (their own routes belong to other areas), and small API helpers.
import type { Role } from '../../../../src-shared/schemas/common'
import type { TestServer, TestUser } from '../../../testing/harness'
import { repository } from '../../../storage/repositories/memo'
import { spaceRepository, type GrantPrincipal, type SpaceRow } from '../../../storage/repositories/spaceRepository'

function db(t: TestServer) {
  return t.server.api.services.db
}

/** Marks a direct database write, so cached list counts are recomputed as after an API write. */
function wrote(t: TestServer) {
  t.server.api.services.writes++
}

export function buildSpace(
  t: TestServer,
  options: { orgId?: string; title?: string; defaultLevel?: Role | null; deleted?: boolean } = {}
): SpaceRow {
  const spaces = repository(db(t), spaceRepository)
  const now = t.clock.now().toISOString()
  const orgId = options.orgId ?? t.orgId
  const row = spaces.create({
    organization_id: orgId,
    parent_id: null,
    title: options.title ?? 'Space',
    emoji: '',
    visibility: 'private',
    edit_mode: 'live',
    default_level: options.defaultLevel ?? null,
    position: spaces.nextPosition(orgId, null),
    created_by: null,
    created_at: now,
    updated_at: now
  })
  if (options.deleted) spaces.update(row.id, { deleted_at: now })
  wrote(t)
  return spaces.get(row.id)!
}

export function grant(t: TestServer, spaceId: string, type: GrantPrincipal, principalId: string, role: Role | null) {
  repository(db(t), spaceRepository).setGrant(spaceId, type, principalId, role, t.clock.now().toISOString())
  wrote(t)
}

export function grantCollection(t: TestServer, orgId: string, type: GrantPrincipal, principalId: string): string {
  const now = t.clock.now().toISOString()
  const id = `col${Math.random().toString(36).slice(2, 10)}`
  db(t)
    .prepare('INSERT INTO collections (id, organization_id, title, position, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)')
    .run(id, orgId, 'Collection', now, now)
  db(t)
    .prepare("INSERT INTO collection_grants (collection_id, principal_type, principal_id, role, granted_at) VALUES (?, ?, ?, 'read', ?)")
    .run(id, type, principalId, now)
  wrote(t)
  return id
}

export function countRows(t: TestServer, sql: string, ...params: unknown[]): number {
  return db(t)
    .prepare(sql)
    .pluck()
    .get(...params) as number
}

export function setDisabled(t: TestServer, orgId: string, userId: string, disabled: boolean) {
  db(t)
    .prepare('UPDATE members SET disabled = ? WHERE organization_id = ? AND user_id = ?')
    .run(disabled ? 1 : 0, orgId, userId)
  wrote(t)
}

/** Creates a team through the API (as the owner) and answers its id. */
export async function createTeam(t: TestServer, title: string, members: TestUser[] = [], orgId = t.orgId): Promise<string> {
  const res = await t.owner.api.put(`/v1/orgs/${orgId}/teams`, { title, members: members.map((m) => m.user.id) })
  if (res.status !== 201) throw new Error(`createTeam: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.id
}

/** A second organization (owner is its admin) answering its id. */
export async function createOrg(t: TestServer, title = 'Other org'): Promise<string> {
  const res = await t.owner.api.post('/v1/orgs', { title })
  if (res.status !== 201) throw new Error(`createOrg: ${res.status}`)
  return res.body.id
}
