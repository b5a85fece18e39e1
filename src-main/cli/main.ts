import { homedir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { WARM_EVENT } from '../base/codeCache'
import { newToken } from '../storage/ids'
import { repository } from '../storage/repositories/memo'
import { organizationRepository } from '../storage/repositories/organizationRepository'
import { userRepository } from '../storage/repositories/userRepository'
import { weakTokenReason } from '../server/guard'
import { startServer } from '../server/server'
import { backupDatabase } from '../storage/backup'
import { bootstrapWorkspace, databaseFileOf, isFilePath, openWorkspace, recordTokenCreated, workspaceFile } from '../workspace/workspace'
import { recordSystemEvent } from '../workspace/audit'
import { CONNECTION_FILE, readConnection } from '../workspaces/connection'
import { parseRegistry, REGISTRY_FILE, WORKSPACES_DIR, workspaceDir, type RegistryFile } from '../workspaces/registry'

const HELP = `Quire — documentation workspace, headless

Usage:
  quire serve [--port N] [--host 127.0.0.1] [--allow-host NAME]... [--home DIR | --data DIR|FILE]
              [--token T] [--log] [--host-process]
      Serve the /v1 API and the app on loopback. Stops cleanly on SIGINT/SIGTERM.
      Requests must name the server as it listens (127.0.0.1:N, localhost:N); --allow-host NAME
      (repeatable) admits another name, e.g. a reverse proxy's. A token given with --token or
      QUIRE_TOKEN must be at least 32 characters (openssl rand -base64 32 makes one).
      --home DIR (the default) keeps several workspaces, as the desktop app does (DIR/workspaces.json
      and DIR/workspaces/<id>/quire.db): /v1 answers the active one, /app/workspaces lists, creates,
      renames, deletes and activates them, and connects workspaces to another /v1 server (then /v1 is
      that server's, with a local copy for working offline). The server's token (--token T or
      QUIRE_TOKEN, else one generated at start and printed) is an owner token in every local workspace
      it opens, and the only token a connected one takes here. A DIR holding a
      quire.db of its own (a --data folder) keeps it as the workspace "Local". One process at a time
      serves a home.
      --data DIR serves one workspace, the single file DIR/quire.db. An empty folder gets an owner
      user, one organization and a token (printed once); --token T makes T a valid owner token.
      --data FILE serves the workspace file FILE itself (a backup made by quire backup, say).
      A workspace file that is damaged or comes from a newer version of Quire is never changed:
      --data refuses it; --home lists it with its problem and serves the other workspaces.
      --host-process runs the workspaces (SQLite, /v1, sync) in a child process of their own, as the
      desktop app does: this process keeps the port, and a long merge or import never stalls it.
  quire backup [--data DIR|FILE | --home DIR [--workspace ID]] --to FILE [--force]
      Write a consistent copy of a workspace to FILE, one file, while a server may be running on it
      (it goes on answering). --workspace takes an id or a name (default: the active one). FILE is
      not replaced unless --force is given. Open the copy with --data FILE, or in the app with
      "Open workspace file…". A connected workspace is refused: its content is its server's.
  quire user add [--data DIR|FILE] --email E [--name N] [--org ORG_ID] [--role ROLE]
      Create a user (and make them a member of ORG_ID, or of the first organization, with ROLE,
      default read; --role none makes a guest).
  quire token create [--data DIR|FILE] --email E
      Create an API token for an existing user and print it.
  quire help
      Show this text.

DIR defaults to $QUIRE_DATA, else \${XDG_DATA_HOME:-~/.local/share}/quire. Without --data, the backup,
user and token commands work on the active workspace of that folder. A connected workspace's folder
is refused: its users and tokens are its server's.`

/** The folder `quire serve` keeps its workspaces in when none is given (and `npm start` headless). */
export function defaultFolder(): string {
  if (process.env.QUIRE_DATA) return process.env.QUIRE_DATA
  const base = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share')
  return join(base, 'quire')
}

const isHome = (dir: string) => existsSync(join(dir, REGISTRY_FILE))

/**
 * The one workspace a command works on: `--data DIR` (unless DIR keeps several workspaces) or `--data FILE` as given,
 * else the default folder's active workspace (or the default folder itself, when it still holds one workspace file).
 */
function dataDirOf(given: string | undefined, connected = USERS_ARE_THE_SERVERS): string {
  if (given) {
    const path = resolve(given)
    // A workspace file: a backup, or a folder's quire.db named as such.
    if (isFilePath(path)) return basename(path) === 'quire.db' ? (notConnected(dirname(path), connected), path) : path
    if (isHome(path))
      fail(`${path} keeps several workspaces (${REGISTRY_FILE}): give --home ${path}, or --data ${join(path, WORKSPACES_DIR, '<id>')}`)
    return notConnected(path, connected)
  }
  const folder = resolve(defaultFolder())
  if (!isHome(folder)) return folder
  return notConnected(workspaceDir(folder, registryOf(folder).active), connected)
}

/** The registry of a home folder, or a one-line refusal when it cannot be read. */
function registryOf(home: string): RegistryFile {
  const parsed = parseRegistry(readFileSync(join(home, REGISTRY_FILE), 'utf8'))
  if (!parsed.ok) fail(`${join(home, REGISTRY_FILE)} cannot be read (${parsed.reason}): give --data DIR`)
  return parsed.file
}

const USERS_ARE_THE_SERVERS = "its users and tokens are that server's (serve it with --home, and manage them there)"
const CONTENT_IS_THE_SERVERS = 'its content is kept by that server, this computer holds only a partial copy of it: back it up there'

/**
 * A connected workspace's folder holds its server's address and a copy of what its account sees there, not a
 * workspace of its own: its users and tokens are the server's, and the copy changes only through the app (which
 * keeps what it sends). Commands refuse it rather than write where nobody would read, or back up a partial copy.
 */
function notConnected(dir: string, why = USERS_ARE_THE_SERVERS): string {
  if (!existsSync(join(dir, CONNECTION_FILE))) return dir
  let server = 'a server'
  try {
    server = readConnection(dir)?.url ?? server
  } catch {
    // unreadable: named generically
  }
  return fail(`${dir} is a workspace connected to ${server}: ${why}`)
}

/** out/renderer, whether we run from the sources (tsx) or the bundle (out/main/cli.js). */
function rendererDir(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url))
  for (const candidate of [resolve(here, '../renderer'), resolve(here, '../../out/renderer')]) {
    if (existsSync(join(candidate, 'index.html'))) return candidate
  }
  return undefined
}

/** A command's refusal thrown inside its transaction: the transaction rolls back, then the command fails with it. */
class CliRefusal extends Error {}

function fail(message: string): never {
  process.stderr.write(`quire: ${message}\n`)
  process.exit(2)
}

async function serve(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: process.env.PORT ?? '4100' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string' },
      home: { type: 'string' },
      token: { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
      log: { type: 'boolean', default: false },
      'host-process': { type: 'boolean', default: false }
    }
  })
  if (values.data && values.home) fail('give either --data (one workspace) or --home (several), not both')
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, got ${values.port}`)
  const token = values.token || process.env.QUIRE_TOKEN || undefined
  const weak = token && weakTokenReason(token, values.token ? '--token' : 'QUIRE_TOKEN')
  if (weak) fail(weak)
  const staticDir = rendererDir()
  const where = values.data ? { dataDir: dataDirOf(values.data) } : { home: resolve(values.home ?? defaultFolder()) }
  const home = !values.data
  const allowHosts = values['allow-host']
  const hostProcess = values['host-process']
  const server = await startServer({ ...where, port, host: values.host, allowHosts, token, staticDir, logger: values.log, hostProcess })
  // Handlers first: a script may signal as soon as it reads the ready line.
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`Received ${signal}, stopping.`)
    await server.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
  if (server.bootstrapped && !token && !home) {
    console.log(`Created the owner, an organization and a token. Token (shown once): ${server.token}`)
  }
  console.log(`Quire API listening on ${server.url}/v1`)
  // What this start compiled is what the next one wants from the code cache (base/codeCache.ts, when run built).
  process.emit(WARM_EVENT)
  if (server.token && staticDir) console.log(`Quire app: ${server.url}/?token=${server.token}`)
  // --home without --token: the generated token is the only way in, valid until the server stops.
  else if (home && !token) console.log(`Token (this run): ${server.token}`)
}

function withWorkspace<T>(dataDir: string | undefined, fn: (ws: ReturnType<typeof openWorkspace>) => T): T {
  // Commands read and write a few rows: no search threads.
  const ws = openWorkspace({ dataDir: dataDirOf(dataDir), searchThreads: 0 })
  try {
    bootstrapWorkspace(ws.services)
    return fn(ws)
  } finally {
    void ws.close()
  }
}

/**
 * `quire backup`: the workspace named by --data, or by --home and --workspace (id or name; default the home's
 * active one), else the default folder's active one, copied to --to while a server may be writing to it.
 */
async function backup(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string' },
      home: { type: 'string' },
      workspace: { type: 'string' },
      to: { type: 'string' },
      force: { type: 'boolean', default: false }
    }
  })
  if (!values.to) fail('--to FILE is required: where to write the copy')
  if (values.data && (values.home || values.workspace)) fail('give either --data (one workspace) or --home with --workspace, not both')
  let source: string
  if (values.home || values.workspace) {
    const home = resolve(values.home ?? defaultFolder())
    if (!isHome(home)) fail(`${home} keeps no list of workspaces (${REGISTRY_FILE}): give --data ${home}`)
    const registry = registryOf(home)
    const wanted = values.workspace ?? registry.active
    const entry =
      registry.workspaces.find((e) => e.id === wanted) ??
      registry.workspaces.find((e) => e.name.toLowerCase() === wanted.trim().toLowerCase())
    if (!entry) fail(`${home} has no workspace ${wanted} (it has: ${registry.workspaces.map((e) => `${e.name} (${e.id})`).join(', ')})`)
    source = workspaceFile(notConnected(workspaceDir(home, entry.id), CONTENT_IS_THE_SERVERS))
  } else {
    source = databaseFileOf(dataDirOf(values.data, CONTENT_IS_THE_SERVERS))
  }
  if (!existsSync(source)) fail(`${source} does not exist: there is no workspace there to back up`)
  const target = resolve(values.to)
  const size = await backupDatabase(source, target, { force: values.force })
  console.log(`Backed up ${source} to ${target} (${(size / 1024 / 1024).toFixed(1)} MB)`)
}

const ROLE_VALUES = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'none']

function userAdd(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      org: { type: 'string' },
      role: { type: 'string', default: 'read' }
    }
  })
  if (!values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email)) fail('--email must be an e-mail address')
  if (!ROLE_VALUES.includes(values.role!)) fail(`--role must be one of ${ROLE_VALUES.join(', ')}`)
  withWorkspace(values.data, ({ services }) => {
    const { db } = services
    const users = repository(db, userRepository)
    const orgs = repository(db, organizationRepository)
    const user = db
      .transaction(() => {
        const now = services.clock.now().toISOString()
        if (users.getByEmail(values.email!)) throw new CliRefusal(`a user with e-mail ${values.email} already exists`)
        const user = users.create({ email: values.email!, displayName: values.name }, now)
        const orgId = values.org ?? db.prepare<[], string>('SELECT id FROM organizations ORDER BY seq LIMIT 1').pluck().get()
        if (orgId) {
          if (!orgs.get(orgId)) throw new CliRefusal(`no organization ${orgId}`)
          const role = values.role === 'none' ? null : values.role!
          orgs.addMember(orgId, user.id, role, now)
          // Audit events belong to organizations: a user who joins none records nothing.
          recordSystemEvent(services, {
            organizationId: orgId,
            action: 'member.added',
            actor: 'cli',
            occurredAt: now,
            target: { id: user.id, label: user.display_name },
            after: { role }
          })
        }
        return { ...user, orgId }
      })
      .immediate()
    console.log(`Created user ${user.id} <${user.email}>${user.orgId ? ` in organization ${user.orgId} as ${values.role}` : ''}`)
  })
}

function tokenCreate(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: { data: { type: 'string' }, email: { type: 'string' }, label: { type: 'string', default: 'cli' } }
  })
  if (!values.email) fail('--email is required')
  withWorkspace(values.data, ({ services }) => {
    const users = repository(services.db, userRepository)
    const token = newToken()
    // The token and its events (one per organization of the user) commit together.
    services.db
      .transaction(() => {
        const user = users.getByEmail(values.email!)
        if (!user) throw new CliRefusal(`no user with e-mail ${values.email}`)
        const now = services.clock.now().toISOString()
        users.addToken(user.id, token, values.label!, now)
        recordTokenCreated(services, user, values.label!, 'cli', now)
      })
      .immediate()
    console.log(token)
  })
}

export async function main(argv = process.argv.slice(2)) {
  const [command, sub, ...rest] = argv
  try {
    if (!command || command === 'help' || command === '--help' || command === '-h') return console.log(HELP)
    if (command === 'serve') return await serve(argv.slice(1))
    if (command === 'backup') return await backup(argv.slice(1))
    if (command === 'user' && sub === 'add') return userAdd(rest)
    if (command === 'token' && sub === 'create') return tokenCreate(rest)
    fail(`unknown command: ${argv.join(' ')}\n\n${HELP}`)
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error))
  }
}

void main()
