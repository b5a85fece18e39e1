import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { startTestServer, walk } from '../testing/harness'
import { tempDirs } from '../testing/tempDirs'

// The CLI as a user runs it: `quire <command>` in a process of its own, with QUIRE_DATA naming its default folder.

const cli = join(import.meta.dirname, 'main.ts')
const tempDir = tempDirs('cli')

function quire(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' })
  return { status: run.status, out: run.stdout, err: run.stderr }
}

/** `quire serve` until its ready line, then stopped; answers what it printed. */
async function serveOnce(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', '--port', '0', ...args], { env: { ...process.env, ...env } })
  let out = ''
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('listening on')) resolve()
    })
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.once('exit', (code) => reject(new Error(`quire serve exited with ${code}: ${out}`)))
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
  return out
}

describe('quire CLI', () => {
  it('serves its default folder as a home, moving a one-workspace file there to "Local"; user and token commands follow it', async () => {
    const folder = tempDir()
    expect(quire(['user', 'add', '--data', folder, '--email', 'ada@example.com']).out).toContain('Created user')
    expect(readdirSync(folder)).toContain('quire.db')

    const printed = await serveOnce([], { QUIRE_DATA: folder })
    expect(printed).toMatch(/Token \(this run\): \S+|Quire app: \S+\?token=\S+/)
    expect(existsSync(join(folder, 'workspaces', 'local', 'quire.db'))).toBe(true)
    expect(existsSync(join(folder, 'quire.db'))).toBe(false)
    expect(existsSync(join(folder, 'quire.lock'))).toBe(false)

    // Without --data the commands work on the active workspace: the user added before the move is there.
    const token = quire(['token', 'create', '--email', 'ada@example.com'], { QUIRE_DATA: folder })
    expect(token.status).toBe(0)
    expect(token.out.trim()).toMatch(/^\S{20,}$/)
  }, 60_000)

  it('refuses a connected workspace’s folder: its users and tokens are its server’s', () => {
    const folder = tempDir()
    writeFileSync(
      join(folder, 'connection.json'),
      JSON.stringify({
        version: 1,
        url: 'https://docs.example.com',
        account: { id: 'u1', displayName: 'Ada' },
        token: { seal: 'file', data: 't' }
      })
    )
    for (const args of [
      ['user', 'add', '--data', folder, '--email', 'ada@example.com'],
      ['token', 'create', '--data', folder, '--email', 'ada@example.com']
    ]) {
      const refused = quire(args)
      expect(refused.status).toBe(2)
      expect(refused.err).toContain(
        `${folder} is a workspace connected to https://docs.example.com: its users and tokens are that server's`
      )
    }
    expect(existsSync(join(folder, 'quire.db'))).toBe(false)
  })

  it('serve --data on a damaged or newer workspace file fails at start with one line naming the file', () => {
    const garbage = tempDir()
    writeFileSync(join(garbage, 'quire.db'), 'not a database\n'.repeat(50))
    const refused = quire(['serve', '--port', '0', '--data', garbage])
    expect(refused.status).toBe(2)
    expect(refused.err).toBe(`quire: ${join(garbage, 'quire.db')} is not a Quire workspace: it is not an SQLite database\n`)

    const newer = tempDir()
    expect(quire(['user', 'add', '--data', newer, '--email', 'ada@example.com']).status).toBe(0)
    const db = new Database(join(newer, 'quire.db'))
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'from_the_future', '2030-01-01')").run()
    db.close()
    for (const args of [
      ['serve', '--port', '0', '--data', newer],
      ['token', 'create', '--data', newer, '--email', 'ada@example.com']
    ]) {
      const run = quire(args)
      expect(run.status).toBe(2)
      expect(run.err).toMatch(
        new RegExp(`^quire: ${join(newer, 'quire.db')} comes from a newer version of Quire \\(its schema has version 999; [^\n]*\n$`)
      )
    }
  }, 60_000)

  it('backup writes one file that user and token commands take as --data FILE; refuses to replace a file, and a connected workspace', () => {
    const folder = tempDir()
    expect(quire(['user', 'add', '--data', folder, '--email', 'ada@example.com']).status).toBe(0)
    const copy = join(tempDir(), 'team.quire.db')

    const done = quire(['backup', '--data', folder, '--to', copy])
    expect(done.status).toBe(0)
    expect(done.out).toMatch(new RegExp(`^Backed up ${join(folder, 'quire.db')} to ${copy} \\(\\d+\\.\\d MB\\)\n$`))
    expect(readdirSync(dirname(copy))).toEqual(['team.quire.db'])
    // The copy is a workspace of its own: the user is in it, and a token is made there (not in the original).
    expect(quire(['token', 'create', '--data', copy, '--email', 'ada@example.com']).status).toBe(0)
    expect(quire(['user', 'add', '--data', copy, '--email', 'bob@example.com']).out).toContain('Created user')
    expect(quire(['token', 'create', '--data', folder, '--email', 'bob@example.com']).err).toContain('no user with e-mail bob@example.com')

    const again = quire(['backup', '--data', folder, '--to', copy])
    expect(again).toMatchObject({ status: 2, err: `quire: ${copy} already exists: give --force to replace it\n` })
    expect(quire(['backup', '--data', folder, '--to', copy, '--force']).status).toBe(0)
    expect(quire(['token', 'create', '--data', copy, '--email', 'bob@example.com']).err, 'replaced by the original').toContain(
      'no user with e-mail bob@example.com'
    )

    writeFileSync(
      join(folder, 'connection.json'),
      JSON.stringify({
        version: 1,
        url: 'https://docs.example.com',
        account: { id: 'u1', displayName: 'Ada' },
        token: { seal: 'file', data: 't' }
      })
    )
    const connected = quire(['backup', '--data', folder, '--to', join(tempDir(), 'x.quire.db')])
    expect(connected.status).toBe(2)
    expect(connected.err).toContain(`${folder} is a workspace connected to https://docs.example.com: its content is kept by that server`)
  }, 60_000)

  it('records who it added and the tokens it made in the audit log, by the command line; a refused command records nothing', async () => {
    const folder = tempDir()
    const added = quire(['user', 'add', '--data', folder, '--email', 'ada@example.com', '--name', 'Ada', '--role', 'edit'])
    expect(added.status).toBe(0)
    expect(quire(['user', 'add', '--data', folder, '--email', 'ada@example.com']).err).toContain('already exists')
    expect(quire(['token', 'create', '--data', folder, '--email', 'ada@example.com']).status).toBe(0)
    expect(quire(['token', 'create', '--data', folder, '--email', 'nobody@example.com']).status).toBe(2)

    const t = await startTestServer({ dataDir: folder })
    try {
      const { items } = await walk(t.owner.api, `/v1/orgs/${t.orgId}/audit-events`, { actor: 'cli' })
      expect(items.map((e) => e.action)).toEqual(['member.token_created', 'member.added'])
      const ada = /Created user (\S+)/.exec(added.out)![1]
      for (const event of items) {
        expect(event).toMatchObject({
          actor: { type: 'system', id: 'cli', label: 'Command line' },
          source: 'script',
          target: { type: 'member', id: ada, label: 'Ada' }
        })
      }
      const payloads = await Promise.all(
        items.map(async (e) => (await t.owner.api.get(`/v1/orgs/${t.orgId}/audit-events/${e.id}`)).body.payload)
      )
      expect(payloads).toEqual([{ after: { label: 'cli' } }, { after: { role: 'edit' } }])
    } finally {
      await t.close()
    }
  }, 180_000)

  it('refuses --data on a folder that keeps several workspaces, saying what to give instead', async () => {
    const folder = tempDir()
    await serveOnce(['--home', folder], {})
    const refused = quire(['user', 'add', '--data', folder, '--email', 'ada@example.com'])
    expect(refused.status).toBe(2)
    expect(refused.err).toContain(
      `${folder} keeps several workspaces (workspaces.json): give --home ${folder}, or --data ${join(folder, 'workspaces', '<id>')}`
    )
    expect(existsSync(join(folder, 'quire.db'))).toBe(false)
  }, 60_000)
})
