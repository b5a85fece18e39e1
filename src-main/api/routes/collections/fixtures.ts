// Test-only factories for the collections and custom-fields tests.
import { expect } from 'vitest'
import type { Role } from '../../../../src-shared/schemas/common'
import { repository } from '../../../storage/repositories/memo'
import { collectionRepository } from '../../../storage/repositories/collectionRepository'
import { spaceRepository } from '../../../storage/repositories/spaceRepository'
import type { Client, TestServer } from '../../../testing/harness'

export async function createCollection(t: TestServer, body: Record<string, unknown> = {}, options: { api?: Client; orgId?: string } = {}) {
  const res = await (options.api ?? t.owner.api).post(`/v1/orgs/${options.orgId ?? t.orgId}/collections`, body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; title: string; parent?: string; organization: string }
}

export async function createSpace(t: TestServer, body: Record<string, unknown> = {}, options: { api?: Client; orgId?: string } = {}) {
  const res = await (options.api ?? t.owner.api).post(`/v1/orgs/${options.orgId ?? t.orgId}/spaces`, { title: 'Space', ...body })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; title: string; parent?: string; organization: string; updatedAt: string }
}

/** No operation grants a collection role (api-v1.md lists none), so tests write grants directly. */
export function grantCollection(t: TestServer, collectionId: string, principal: { user?: string; team?: string }, role: Role | null) {
  const { services } = t.server.api
  const type = principal.team ? 'team' : 'user'
  repository(services.db, collectionRepository).setGrant(
    collectionId,
    type,
    (principal.team ?? principal.user)!,
    role,
    t.clock.now().toISOString()
  )
  services.writes++
}

/** Order of the spaces and collections under one parent (not visible through the API). */
export function siblingOrder(t: TestServer, orgId: string, parentId: string | null): string[] {
  return repository(t.server.api.services.db, spaceRepository)
    .siblings(orgId, parentId)
    .map((s) => `${s.kind}:${s.id}`)
}

export function collectionGrants(t: TestServer, collectionId: string) {
  return repository(t.server.api.services.db, collectionRepository).grants(collectionId)
}

export function expectCollection(collection: any, orgId: string) {
  expect(collection).toMatchObject({
    object: 'collection',
    id: expect.any(String),
    title: expect.any(String),
    organization: orgId,
    urls: { location: expect.stringMatching(new RegExp(`/v1/collections/${collection.id}$`)), app: expect.stringContaining(collection.id) },
    permissions: {
      view: expect.any(Boolean),
      admin: expect.any(Boolean),
      viewInviteLinks: expect.any(Boolean),
      create: expect.any(Boolean)
    }
  })
  expect(collection).toHaveProperty('defaultLevel')
  expect(Object.keys(collection.permissions).sort()).toEqual(['admin', 'create', 'view', 'viewInviteLinks'])
}
