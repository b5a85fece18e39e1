// A workspace file handed to the desktop app (double-click, "Open with", command line): which arguments are files,
// and the file added as "Open workspace file…" adds one, here through a `--home` server's HTTP API.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { WorkspaceList } from '../../src-shared/workspaces'
import { startServer, type RunningServer } from '../server/server'
import { tempDirs } from '../testing/tempDirs'
import { backupFilename } from '../workspaces/files'
import { freeName, isWorkspaceFileName, openWorkspaceFile, WORKSPACE_FILE_EXTENSION, workspaceFilesInArgv } from './workspaceFileArgs'

const tempDir = tempDirs('file-args')

describe('workspace files on a command line', () => {
  const cwd = '/home/ann'

  it('takes the files after the executable (packaged) or after the app folder (electron .), resolved against cwd', () => {
    expect(workspaceFilesInArgv(['/opt/Quire/quire', 'backups/handbook-2026-03-01.quire.db'], { packaged: true, cwd })).toEqual([
      '/home/ann/backups/handbook-2026-03-01.quire.db'
    ])
    expect(workspaceFilesInArgv(['/usr/bin/electron', '/src/quire', '/tmp/a.quire.db'], { packaged: false, cwd })).toEqual([
      '/tmp/a.quire.db'
    ])
    // The app folder of `electron .` is never taken for a file, even when it ends like one.
    expect(workspaceFilesInArgv(['/usr/bin/electron', 'app.db'], { packaged: false, cwd })).toEqual([])
  })

  it('skips switches (a second instance gets Chromium’s), other files, and repeats; reads file:// URLs (%U)', () => {
    const argv = [
      'C:\\Program Files\\Quire\\Quire.exe',
      '--allow-file-access-from-files',
      '--original-process-start-time=13385',
      'notes.txt',
      '/tmp/x.quire.db',
      'file:///tmp/x.quire.db',
      'file:///tmp/my%20team.SQLITE3',
      'file://remote-host/share/a.db',
      '/tmp/old.db'
    ]
    expect(workspaceFilesInArgv(argv, { packaged: true, cwd })).toEqual(['/tmp/x.quire.db', '/tmp/my team.SQLITE3', '/tmp/old.db'])
    expect(workspaceFilesInArgv(['/opt/Quire/quire'], { packaged: true, cwd })).toEqual([])
  })

  it('knows a backup by the name `quire backup` gives it', () => {
    expect(backupFilename('handbook', new Date('2026-03-01T10:00:00Z')).endsWith(`.${WORKSPACE_FILE_EXTENSION}`)).toBe(true)
    expect(isWorkspaceFileName('handbook-2026-03-01.quire.db')).toBe(true)
    expect(isWorkspaceFileName('HANDBOOK.DB')).toBe(true)
    expect(isWorkspaceFileName('handbook.db.txt')).toBe(false)
    expect(isWorkspaceFileName('handbook')).toBe(false)
  })

  it('numbers a name that is taken, within the 64-character limit', () => {
    expect(freeName('Handbook', new Set())).toBe('Handbook')
    expect(freeName('Handbook', new Set(['handbook', 'handbook (2)']))).toBe('Handbook (3)')
    const long = 'x'.repeat(64)
    expect(freeName(long, new Set([long]))).toBe(`${'x'.repeat(60)} (2)`)
  })
})

/** The server's token: at least 32 characters, as `--token` requires. */
const T0 = 'quire-file-args-test-token-0123456789abc'
const servers: RunningServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

async function homeServer() {
  const server = await startServer({ home: tempDir(), port: 0, token: T0, searchThreads: 0 })
  servers.push(server)
  const authorized = (request: Request) => {
    request.headers.set('authorization', `Bearer ${T0}`)
    return fetch(request)
  }
  const json = async (method: string, path: string, body?: unknown) => {
    const res = await authorized(
      new Request(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body)
      })
    )
    return { status: res.status, body: (await res.json()) as any }
  }
  return { server, authorized, json }
}

describe('opening a workspace file handed to the app', () => {
  it('adds it as a workspace named after the file, without switching to it; the same file twice keeps both', async () => {
    const { server, authorized, json } = await homeServer()
    const backup = await authorized(new Request(`${server.url}/app/workspaces/local/backup`))
    const file = join(tempDir(), 'team-guide-2026-03-01.quire.db')
    const bytes = new Uint8Array(await backup.arrayBuffer())
    writeFileSync(file, bytes)

    const first = await openWorkspaceFile(file, authorized, server.url)
    const second = await openWorkspaceFile(file, authorized, server.url)

    expect(first).toMatchObject({ file, workspace: { name: 'Team guide', active: false } })
    expect(second).toMatchObject({ file, workspace: { name: 'Team guide (2)', active: false } })
    const list = (await json('GET', '/app/workspaces')).body as WorkspaceList
    expect(list.active).toBe('local')
    expect(list.items.map((w) => w.name)).toEqual(['Local', 'Team guide', 'Team guide (2)'])
    // The file itself was only read (what the copy holds is the host's business: src-main/workspaces/files.test.ts).
    expect(new Uint8Array(readFileSync(file))).toEqual(bytes)
  }, 60_000)

  it('says why a file cannot be opened: missing, or not a workspace (the host’s own answer); nothing is added', async () => {
    const { server, authorized, json } = await homeServer()
    const dir = tempDir()
    const notes = join(dir, 'notes.db')
    writeFileSync(notes, 'just some text, not SQLite')

    expect(await openWorkspaceFile(join(dir, 'gone.quire.db'), authorized, server.url)).toEqual({
      file: join(dir, 'gone.quire.db'),
      problem: 'The file does not exist'
    })
    expect(await openWorkspaceFile(dir, authorized, server.url)).toEqual({ file: dir, problem: 'It is not a file' })
    const refused = await openWorkspaceFile(notes, authorized, server.url)
    expect(refused).toMatchObject({ file: notes, problem: expect.stringMatching(/^file: /) })
    expect((await json('GET', '/app/workspaces')).body.items.map((w: { name: string }) => w.name)).toEqual(['Local'])
  })

  it('reports an answer that is not the error envelope by its status', async () => {
    const dir = tempDir()
    const file = join(dir, 'a.quire.db')
    copyFileSync(import.meta.filename, file)
    const teapot = async () => new Response('no', { status: 418 })
    expect(await openWorkspaceFile(file, teapot, 'http://quire.localhost')).toEqual({ file, problem: 'The app answered 418' })
  })
})
