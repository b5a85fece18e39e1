// A workspace that cannot be opened (damaged, not a workspace, from a newer Quire) is listed with its problem and
// skipped; every other workspace of the home keeps working.
import { createHash } from 'node:crypto'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import type { Workspace, WorkspaceList } from '../../src-shared/workspaces'
import { openLocalBackend } from '../backend/localBackend'
import { tempDirs } from '../testing/tempDirs'
import { WorkspaceHost } from './host'
import { REGISTRY_FILE } from './registry'
import { callHost } from '../testing/hostCalls'

const tempDir = tempDirs('broken')
const hosts: WorkspaceHost[] = []
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close()
})

async function openHost(home: string, warnings: string[] = []) {
  const host = await WorkspaceHost.open({ home, open: ({ dataDir }) => openLocalBackend({ dataDir }), warn: (m) => warnings.push(m) })
  hosts.push(host)
  return host
}

async function closeHost(host: WorkspaceHost) {
  hosts.splice(hosts.indexOf(host), 1)
  await host.close()
}

/** A home with "Local" and "Handbook" (a space in it), closed: its files can be damaged before the next open. */
async function homeOfTwo() {
  const home = tempDir()
  const host = await openHost(home)
  const handbook = (await callHost<Workspace>(host, 'POST', '/app/workspaces', { name: 'Handbook' })).body
  await callHost(host, 'POST', `/app/workspaces/${handbook.id}/activate`)
  const orgId = (await callHost(host, 'GET', '/v1/orgs')).body.items[0].id
  await callHost(host, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Guide' })
  await callHost(host, 'POST', '/app/workspaces/local/activate')
  await closeHost(host)
  const file = (id: string) => join(home, 'workspaces', id, 'quire.db')
  return { home, handbook, file }
}

/** Makes a workspace file one a newer Quire wrote (a schema version this build does not know). */
function fromNewerQuire(file: string) {
  const db = new Database(file)
  db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'from_the_future', '2030-01-01')").run()
  db.close()
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

describe('a workspace that cannot be opened', () => {
  it('as the active one: the host opens the next healthy workspace and lists the broken one with its problem', async () => {
    const { home, handbook, file } = await homeOfTwo()
    writeFileSync(file('local'), 'not a database at all\n'.repeat(100))
    const warnings: string[] = []

    const host = await openHost(home, warnings)

    expect(host.activeId).toBe(handbook.id)
    const list = (await callHost<WorkspaceList>(host, 'GET', '/app/workspaces')).body
    expect(list.active).toBe(handbook.id)
    expect(list.items.find((w) => w.id === 'local')).toEqual({
      id: 'local',
      name: 'Local',
      createdAt: expect.any(String),
      active: false,
      problem: {
        kind: 'not-workspace',
        message: `${file('local')} is not a Quire workspace: it is not an SQLite database`,
        file: file('local')
      }
    })
    expect(list.items.find((w) => w.id === handbook.id)).not.toHaveProperty('problem')
    // The healthy workspace answers /v1, and is remembered as the active one.
    const orgId = (await callHost(host, 'GET', '/v1/orgs')).body.items[0].id
    expect((await callHost(host, 'GET', `/v1/orgs/${orgId}/spaces`)).body.items.map((s: { title: string }) => s.title)).toEqual(['Guide'])
    expect(JSON.parse(readFileSync(join(home, REGISTRY_FILE), 'utf8')).active).toBe(handbook.id)
    expect(warnings).toEqual([
      `Workspace “Local” cannot be opened: ${file('local')} is not a Quire workspace: it is not an SQLite database`,
      'Opened workspace “Handbook” instead of “Local”, which cannot be opened'
    ])
    expect(readFileSync(file('local'), 'utf8')).toBe('not a database at all\n'.repeat(100))
  })

  it('as another one: listed with its problem from the start, activation refused (409, naming the file and what to do), the others fine', async () => {
    const { home, handbook, file } = await homeOfTwo()
    fromNewerQuire(file(handbook.id))
    const before = sha(file(handbook.id))

    const host = await openHost(home)
    const listed = (await callHost<WorkspaceList>(host, 'GET', '/app/workspaces')).body.items.find((w) => w.id === handbook.id)
    expect(listed?.problem).toEqual({
      kind: 'newer',
      message: expect.stringContaining('comes from a newer version of Quire'),
      file: file(handbook.id)
    })

    const refused = await callHost(host, 'POST', `/app/workspaces/${handbook.id}/activate`)

    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe(409)
    expect(refused.body.error.message).toMatch(
      new RegExp(
        `^Workspace “Handbook” cannot be opened: ${file(handbook.id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} comes from a newer version of Quire .*remove the workspace only if you no longer need it$`
      )
    )
    expect(host.activeId).toBe('local')
    expect((await callHost(host, 'GET', '/v1/orgs')).status).toBe(200)
    expect(sha(file(handbook.id)), 'the newer file is left byte for byte').toBe(before)
    // It can still be removed, and the list no longer names it.
    expect((await callHost(host, 'DELETE', `/app/workspaces/${handbook.id}`)).status).toBe(204)
    expect((await callHost<WorkspaceList>(host, 'GET', '/app/workspaces')).body.items.map((w) => w.id)).toEqual(['local'])
  })

  it('a damaged file is refused at activation, and the workspace opens once its file is restored', async () => {
    const { home, handbook, file } = await homeOfTwo()
    const good = readFileSync(file(handbook.id))
    // Pages past the header scrambled: the header and schema read fine, PRAGMA quick_check does not.
    const damaged = Buffer.from(good)
    const pageSize = damaged.readUInt16BE(16)
    damaged.fill(0x5a, pageSize * 2, damaged.length)
    writeFileSync(file(handbook.id), damaged)
    const host = await openHost(home)

    const refused = await callHost(host, 'POST', `/app/workspaces/${handbook.id}/activate`)
    expect(refused.status).toBe(409)
    expect(refused.body.error.message).toContain(`Workspace “Handbook” cannot be opened: ${file(handbook.id)} is damaged`)
    expect(refused.body.error.message).toContain('Restore it from a backup with “Open workspace file…”, or remove it')
    expect(
      (await callHost<WorkspaceList>(host, 'GET', '/app/workspaces')).body.items.find((w) => w.id === handbook.id)?.problem?.kind
    ).toBe('damaged')

    writeFileSync(file(handbook.id), good)
    rmSync(`${file(handbook.id)}-wal`, { force: true })
    rmSync(`${file(handbook.id)}-shm`, { force: true })
    expect((await callHost(host, 'POST', `/app/workspaces/${handbook.id}/activate`)).status).toBe(200)
    expect((await callHost<WorkspaceList>(host, 'GET', '/app/workspaces')).body.items.find((w) => w.id === handbook.id)).not.toHaveProperty(
      'problem'
    )
  })

  it('when none opens, a new empty workspace does, beside the broken ones', async () => {
    const { home, handbook, file } = await homeOfTwo()
    writeFileSync(file('local'), 'garbage')
    fromNewerQuire(file(handbook.id))

    const host = await openHost(home)

    const list = (await callHost<WorkspaceList>(host, 'GET', '/app/workspaces')).body
    expect(list.items.map((w) => [w.name, w.active, w.problem?.kind])).toEqual([
      ['Local', false, 'not-workspace'],
      ['Handbook', false, 'newer'],
      ['Local 2', true, undefined]
    ])
    expect((await callHost(host, 'GET', '/v1/orgs')).body.items).toHaveLength(1)
  })
})
