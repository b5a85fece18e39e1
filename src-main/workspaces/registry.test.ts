import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { WORKSPACE_ID_PATTERN } from '../../src-shared/workspaces'
import { ApiError } from '../base/errors'
import { parseRegistry, REGISTRY_FILE, slugify, WorkspaceRegistry } from './registry'
import { tempDirs } from '../testing/tempDirs'

const tempHome = tempDirs('registry')

const onDisk = (home: string) => JSON.parse(readFileSync(join(home, REGISTRY_FILE), 'utf8'))

/** The status and message an ApiError-throwing call fails with. */
function failure(fn: () => unknown): { status: number; message: string } {
  try {
    fn()
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message }
    throw error
  }
  throw new Error('expected an ApiError')
}

describe('workspace registry', () => {
  it('first open moves a workspace file kept in the home itself (a --data folder) to "Local", its log folded in', async () => {
    const home = tempHome()
    const flat = new Database(join(home, 'quire.db'))
    flat.pragma('journal_mode = WAL')
    flat.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('kept')")
    // Another process with the file open: its log stays, and nothing moves.
    expect(existsSync(join(home, 'quire.db-wal'))).toBe(true)
    expect(() => WorkspaceRegistry.open(home)).toThrow('is open in another process')
    expect(existsSync(join(home, 'quire.db'))).toBe(true)
    expect(existsSync(join(home, REGISTRY_FILE))).toBe(false)
    flat.close()
    const written = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 30))

    // Opened later: "Local" is dated by its database file (which the move keeps), not by the move.
    const registry = WorkspaceRegistry.open(home, { now: () => new Date(written + 60_000) })
    expect(registry.list().map((e) => e.id)).toEqual(['local'])
    expect(Date.parse(registry.list()[0]!.createdAt)).toBeLessThanOrEqual(written)
    expect(readdirSync(home).sort()).toEqual(['workspaces', REGISTRY_FILE])
    const moved = new Database(join(registry.dataDir('local'), 'quire.db'), { readonly: true })
    expect(moved.prepare('SELECT text FROM notes').pluck().all()).toEqual(['kept'])
    moved.close()
  })

  it('first open creates "Local", adopting the workspaces/local folder the app already used', () => {
    const home = tempHome()
    mkdirSync(join(home, 'workspaces', 'local'), { recursive: true })
    writeFileSync(join(home, 'workspaces', 'local', 'quire.db'), 'existing data')

    const registry = WorkspaceRegistry.open(home)

    expect(registry.active).toBe('local')
    expect(registry.list()).toEqual([{ id: 'local', name: 'Local', createdAt: expect.any(String) }])
    expect(onDisk(home)).toEqual({ version: 1, active: 'local', workspaces: registry.list() })
    expect(registry.dataDir('local')).toBe(join(home, 'workspaces', 'local'))
    expect(readFileSync(join(home, 'workspaces', 'local', 'quire.db'), 'utf8')).toBe('existing data')
  })

  it('first open of an empty home also creates "Local" (its folder comes with the database)', () => {
    const home = tempHome()
    const registry = WorkspaceRegistry.open(home)
    expect(registry.list().map((e) => [e.id, e.name])).toEqual([['local', 'Local']])
    // Opening again reads what was written.
    expect(WorkspaceRegistry.open(home).list()).toEqual(registry.list())
  })

  it('adds, renames and removes, writing each change atomically (no temp file is left behind)', () => {
    const home = tempHome()
    const registry = WorkspaceRegistry.open(home)
    const id = registry.newId('Handbook')
    const added = registry.add(id, '  Handbook ')
    expect(added).toEqual({ id, name: 'Handbook', createdAt: expect.any(String) })
    expect(onDisk(home).workspaces.map((e: { name: string }) => e.name)).toEqual(['Local', 'Handbook'])

    registry.rename(id, 'Product handbook')
    expect(onDisk(home).workspaces[1].name).toBe('Product handbook')

    registry.setActive(id)
    expect(onDisk(home).active).toBe(id)
    registry.setActive('local')
    registry.remove(id)
    expect(onDisk(home).workspaces.map((e: { id: string }) => e.id)).toEqual(['local'])

    expect(readdirSync(home).sort()).toEqual(['workspaces', REGISTRY_FILE])
  })

  it('a failed write changes neither the file nor the list, and leaves no temp file', () => {
    const home = tempHome()
    const registry = WorkspaceRegistry.open(home)
    const before = readFileSync(join(home, REGISTRY_FILE), 'utf8')
    // A folder where the file should be makes the rename fail.
    rmSync(join(home, REGISTRY_FILE))
    mkdirSync(join(home, REGISTRY_FILE))
    writeFileSync(join(home, REGISTRY_FILE, 'blocker'), '')

    expect(() => registry.add(registry.newId('Sandbox'), 'Sandbox')).toThrow()

    expect(registry.list().map((e) => e.id)).toEqual(['local'])
    expect(readdirSync(home).filter((f) => f.includes('.tmp-'))).toEqual([])
    rmSync(join(home, REGISTRY_FILE), { recursive: true })
    writeFileSync(join(home, REGISTRY_FILE), before)
  })

  it('keeps a broken registry aside and rebuilds the list from the folders (names = folder ids)', () => {
    const home = tempHome()
    for (const id of ['local', 'handbook-x1y2z3', 'Not_An_Id']) mkdirSync(join(home, 'workspaces', id), { recursive: true })
    writeFileSync(join(home, REGISTRY_FILE), '{"version": 1, "active": "local", "workspaces": [')
    const warnings: string[] = []

    const registry = WorkspaceRegistry.open(home, { warn: (m) => warnings.push(m) })

    expect(
      registry
        .list()
        .map((e) => [e.id, e.name])
        .sort()
    ).toEqual([
      ['handbook-x1y2z3', 'handbook-x1y2z3'],
      ['local', 'local']
    ])
    expect(registry.active).toBe('local')
    const kept = readdirSync(home).filter((f) => f.startsWith(`${REGISTRY_FILE}.broken-`))
    expect(kept).toHaveLength(1)
    expect(readFileSync(join(home, kept[0]!), 'utf8')).toBe('{"version": 1, "active": "local", "workspaces": [')
    expect(warnings.join('\n')).toContain('kept it as')
    expect(onDisk(home).workspaces).toHaveLength(2)
  })

  it('treats a file of the wrong shape as broken too (never overwritten in place)', () => {
    const home = tempHome()
    mkdirSync(join(home, 'workspaces', 'sandbox-aaaaaa'), { recursive: true })
    writeFileSync(
      join(home, REGISTRY_FILE),
      JSON.stringify({ version: 1, active: 'gone', workspaces: [{ id: 'local', name: 'Local', createdAt: '2026-01-01T00:00:00.000Z' }] })
    )
    const registry = WorkspaceRegistry.open(home, { warn: () => {} })
    expect(registry.list().map((e) => e.id)).toEqual(['sandbox-aaaaaa'])
    expect(registry.active).toBe('sandbox-aaaaaa')
    expect(readdirSync(home).some((f) => f.startsWith(`${REGISTRY_FILE}.broken-`))).toBe(true)
  })

  it('validates the shape it reads', () => {
    const entry = { id: 'local', name: 'Local', createdAt: '2026-01-01T00:00:00.000Z' }
    expect(parseRegistry(JSON.stringify({ version: 1, active: 'local', workspaces: [entry] })).ok).toBe(true)
    const bad = [
      'null',
      '[]',
      JSON.stringify({ version: 2, active: 'local', workspaces: [entry] }),
      JSON.stringify({ version: 1, active: 'local', workspaces: [] }),
      JSON.stringify({ version: 1, active: 'local', workspaces: [{ ...entry, id: '../etc' }] }),
      JSON.stringify({ version: 1, active: 'local', workspaces: [{ ...entry, name: '' }] }),
      JSON.stringify({ version: 1, active: 'local', workspaces: [{ ...entry, createdAt: 'yesterday' }] }),
      JSON.stringify({ version: 1, active: 'local', workspaces: [entry, { ...entry, id: 'other', name: 'LOCAL' }] })
    ]
    for (const text of bad) expect(parseRegistry(text).ok, text).toBe(false)
  })

  it('applies the name rules: trimmed, 1..64 characters, unique regardless of case', () => {
    const registry = WorkspaceRegistry.open(tempHome())
    expect(failure(() => registry.checkName(undefined))).toEqual({ status: 400, message: 'name: is required' })
    expect(failure(() => registry.checkName(42))).toEqual({ status: 400, message: 'name: must be string' })
    expect(failure(() => registry.checkName('   '))).toEqual({ status: 400, message: 'name: must not be blank' })
    expect(failure(() => registry.checkName('x'.repeat(65)))).toEqual({ status: 400, message: 'name: must be at most 64 characters' })
    expect(failure(() => registry.checkName('a\nb')).status).toBe(400)
    expect(registry.checkName(`  ${'x'.repeat(64)}  `)).toBe('x'.repeat(64))
    expect(registry.checkName('😀'.repeat(64))).toHaveLength(128)
    expect(failure(() => registry.checkName('local'))).toEqual({ status: 409, message: 'name: a workspace named “Local” already exists' })
    // Renaming a workspace to its own name (another case) is fine.
    expect(registry.checkName('LOCAL', 'local')).toBe('LOCAL')
  })

  it('makes folder-safe ids from the name plus a random suffix', () => {
    const registry = WorkspaceRegistry.open(tempHome())
    const ids = ['Product Handbook (EN)', 'Ça été ÜBER', '日本語', '---', 'x'.repeat(64)].map((name) => registry.newId(name))
    for (const id of ids) expect(id).toMatch(WORKSPACE_ID_PATTERN)
    expect(ids[0]).toMatch(/^product-handbook-en-[a-z0-9]{6}$/)
    expect(ids[1]).toMatch(/^ca-ete-uber-[a-z0-9]{6}$/)
    expect(ids[2]).toMatch(/^workspace-[a-z0-9]{6}$/)
    expect(registry.newId('Same')).not.toBe(registry.newId('Same'))
    expect(slugify('  Hello,  World!  ')).toBe('hello-world')
  })

  it('answers 404 for unknown ids and 409 for removing the active one', () => {
    const registry = WorkspaceRegistry.open(tempHome())
    expect(failure(() => registry.rename('nope', 'X')).status).toBe(404)
    expect(failure(() => registry.remove('nope')).status).toBe(404)
    expect(failure(() => registry.setActive('nope')).status).toBe(404)
    expect(failure(() => registry.remove('local')).status).toBe(409)
  })
})
