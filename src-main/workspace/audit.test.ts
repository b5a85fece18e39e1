// Writes no route makes record their audit events too, with a system actor, in their own transaction: the
// workspace's setup, its upkeep, and the background work a request starts (Git sync, OpenAPI processing).
// (The CLI's are in cli/main.test.ts; the routes' in api/routes/audit/audit.test.ts.)
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DAY_MS } from '../base/clock'
import { bareRepo, removeTempDirs, workingRepo } from '../git/testing/repos'
import { DOCS_REPO, newSpace, sync } from '../api/routes/git/fixtures'
import { PETSTORE, untilComplete, warmUpValidator } from '../api/routes/openapi/fixtures'
import { startTestServer, walk, type TestServer } from '../testing/harness'
import { purgeExpiredSpaces } from './workspace'

let t: TestServer
beforeEach(async () => {
  t = await startTestServer()
})
afterEach(async () => {
  await t.close()
  removeTempDirs()
})

const eventsPath = () => `/v1/orgs/${t.orgId}/audit-events`
const events = async (query: Record<string, unknown> = {}) => (await walk(t.owner.api, eventsPath(), query)).items
const detail = async (id: string) => (await t.owner.api.get(`${eventsPath()}/${id}`)).body

describe('the workspace’s setup', () => {
  it('records the organization, its owner and the owner’s token, by the system', async () => {
    const setup = await events({ actor: 'setup' })
    expect(setup.map((e) => e.action).sort()).toEqual(['member.added', 'member.token_created', 'organization.created'])
    for (const event of setup) {
      expect(event).toMatchObject({ actor: { type: 'system', id: 'setup', label: 'Workspace setup' }, source: 'workflow' })
    }
    const org = setup.find((e) => e.action === 'organization.created')!
    expect(org.target).toEqual({ type: 'organization', id: t.orgId, label: 'My organization' })
    const owner = setup.find((e) => e.action === 'member.added')!
    expect(owner.target).toEqual({ type: 'member', id: t.owner.user.id, label: t.owner.user.display_name })
    expect((await detail(owner.id)).payload).toEqual({ after: { role: 'admin' } })
    const token = setup.find((e) => e.action === 'member.token_created')!
    expect((await detail(token.id)).payload).toEqual({ after: { label: 'serve --token' } })

    const actions = (await t.owner.api.get(`/v1/orgs/${t.orgId}/audit-event-actions`)).body.items.map((a: any) => a.id)
    expect(actions).toEqual(expect.arrayContaining(['member.added', 'space.purged', 'space.git_import_applied', 'openapi_spec.processed']))
  })
})

describe('upkeep', () => {
  it('records each space removed for good past its restore window, in its organization, with its title', async () => {
    const kept = await newSpace(t, 'Kept')
    const gone = await newSpace(t, 'Old notes')
    expect((await t.owner.api.delete(`/v1/spaces/${gone}`)).status).toBe(205)
    t.clock.advance(7 * DAY_MS + 1000)
    expect(purgeExpiredSpaces(t.server.api.services)).toBe(1)

    const [purged, ...more] = await events({ action: 'space.purged' })
    expect(more).toEqual([])
    expect(purged).toMatchObject({
      actor: { type: 'system', id: 'upkeep', label: 'Workspace upkeep' },
      source: 'workflow',
      target: { type: 'space', id: gone, label: 'Old notes' },
      occurredAt: t.clock.now().toISOString()
    })
    // Nothing past its window: nothing removed, nothing recorded.
    expect(purgeExpiredSpaces(t.server.api.services)).toBe(0)
    expect(await events({ action: 'space.purged' })).toHaveLength(1)
    expect((await t.owner.api.get(`/v1/spaces/${kept}`)).status).toBe(200)
  })
})

describe('Git sync jobs', { timeout: 60_000 }, () => {
  it('record the import they applied, caused by the request’s event; a failed import records nothing', async () => {
    const dir = await workingRepo(DOCS_REPO)
    const spaceId = await newSpace(t)
    const info = await sync(t.owner.api, spaceId, 'import', { url: dir, ref: 'refs/heads/main' })
    expect(info.status).toBe('succeeded')

    const [requested] = await events({ action: 'space.git_imported' })
    expect(requested).toMatchObject({ actor: { type: 'user', id: t.owner.user.id }, source: 'api' })
    const [applied] = await events({ action: 'space.git_import_applied' })
    expect(applied).toMatchObject({
      actor: { type: 'system', id: 'git-sync', label: 'Git sync' },
      source: 'api',
      target: { type: 'space', id: spaceId, label: 'Docs' }
    })
    const space = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body
    expect(await detail(applied.id)).toMatchObject({
      causedByEventId: requested.id,
      payload: { after: { revision: space.revision, commit: info.commit, url: dir, ref: 'refs/heads/main', standalone: false } }
    })

    const failed = await sync(t.owner.api, spaceId, 'import', { url: dir, ref: 'refs/heads/nope' })
    expect(failed.status).toBe('failed')
    expect(await events({ action: 'space.git_imported' })).toHaveLength(2)
    expect(await events({ action: 'space.git_import_applied' })).toHaveLength(1)
  })

  it('record an export that pushed a commit; one with nothing to commit records nothing', async () => {
    const repo = await bareRepo({ LICENSE: 'MIT\n' })
    const spaceId = await newSpace(t)
    await sync(t.owner.api, spaceId, 'import', { url: await workingRepo(DOCS_REPO), ref: 'refs/heads/main' })
    const pushed = await sync(t.owner.api, spaceId, 'export', { url: repo, ref: 'refs/heads/main', commitMessage: 'Docs' })
    expect(pushed.status).toBe('succeeded')
    const [exported, ...more] = await events({ action: 'space.git_export_pushed' })
    expect(more).toEqual([])
    const [requested] = await events({ action: 'space.git_exported' })
    expect(await detail(exported.id)).toMatchObject({
      actor: { type: 'system', id: 'git-sync' },
      target: { type: 'space', id: spaceId },
      causedByEventId: requested.id,
      payload: { after: { commit: pushed.commit, url: repo, ref: 'refs/heads/main' } }
    })

    const again = await sync(t.owner.api, spaceId, 'export', { url: repo, ref: 'refs/heads/main', commitMessage: 'Docs' })
    expect(again).toMatchObject({ status: 'succeeded', commit: pushed.commit })
    expect(await events({ action: 'space.git_exported' })).toHaveLength(2)
    expect(await events({ action: 'space.git_export_pushed' })).toHaveLength(1)
  })
})

describe('OpenAPI processing', { timeout: 60_000 }, () => {
  beforeAll(warmUpValidator, 120_000)

  it('records each outcome (a version, or a failure) caused by the write that set the source', async () => {
    const base = `/v1/orgs/${t.orgId}/openapi`
    expect((await t.owner.api.put(`${base}/pets`, { source: { text: PETSTORE } })).status).toBe(200)
    const done = await untilComplete(t.owner.api, `${base}/pets`)
    const [processed] = await events({ action: 'openapi_spec.processed' })
    const [written] = await events({ action: 'openapi_spec.updated' })
    expect(await detail(processed.id)).toMatchObject({
      actor: { type: 'system', id: 'openapi-processing', label: 'OpenAPI processing' },
      source: 'api',
      target: { type: 'openapi_spec', id: 'pets', label: 'pets' },
      causedByEventId: written.id,
      payload: { after: { lastVersion: done.lastVersion, processingState: 'complete' } }
    })

    expect((await t.owner.api.put(`${base}/pets`, { source: { text: 'openapi: [' } })).status).toBe(200)
    const failed = await untilComplete(t.owner.api, `${base}/pets`)
    expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR')
    const [failure] = await events({ action: 'openapi_spec.processing_failed' })
    const [rewritten] = await events({ action: 'openapi_spec.updated' })
    expect(await detail(failure.id)).toMatchObject({
      causedByEventId: rewritten.id,
      payload: { after: { lastProcessErrorCode: 'PARSE_ERROR', processingState: 'complete' } }
    })
    expect(await events({ action: 'openapi_spec.processed' })).toHaveLength(1)
  })
})
