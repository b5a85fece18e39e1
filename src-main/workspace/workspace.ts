import { mkdirSync, statSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import type { Clock } from '../base/clock'
import { DAY_MS, systemClock } from '../base/clock'
import type { Services } from './context'
import { sweepIdempotencyKeys } from './idempotency'
import { openDatabase } from '../storage/database'
import { newToken } from '../storage/ids'
import { organizationRepository } from '../storage/repositories/organizationRepository'
import { collectUnreferenced } from '../content/revisions'
import { dropSearchIndex, scheduleStaleSearchIndexes } from '../content/searchIndex'
import { createSearchPool, searchThreads } from '../content/searchPool'
import { spaceRepository } from '../storage/repositories/spaceRepository'
import { repository } from '../storage/repositories/memo'
import { userRepository, type UserRow } from '../storage/repositories/userRepository'
import { auditEventRepository } from '../storage/repositories/auditEventRepository'
import { recordSystemEvent } from './audit'

export interface Workspace {
  services: Services
  /** Stops the search threads (if they started), then closes the database: the last connection, so the WAL is folded in. */
  close(): Promise<void>
}

export interface WorkspaceOptions {
  /**
   * Folder holding the workspace database (`quire.db`, created when missing), or an existing database file itself
   * (a backup served with `--data FILE`); ':memory:' for a throwaway workspace.
   */
  dataDir: string
  clock?: Clock
  baseUrl?: string
  /** Threads ranking searches beside the main one (searchPool.ts); default: one per core besides it, 3 at most; 0: rank in process. */
  searchThreads?: number
}

/** The database of a workspace folder: `DIR/quire.db`. */
export function workspaceFile(dataDir: string): string {
  return dataDir === ':memory:' ? ':memory:' : join(dataDir, 'quire.db')
}

/** True when `path` names an existing file (a workspace database given as such), not a folder. */
export function isFilePath(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** The database a `dataDir` names: the file itself when it is one, else the folder's `quire.db`. */
export function databaseFileOf(dataDir: string): string {
  return dataDir !== ':memory:' && isFilePath(dataDir) ? dataDir : workspaceFile(dataDir)
}

export function openWorkspace({
  dataDir,
  clock = systemClock,
  baseUrl = 'http://127.0.0.1',
  searchThreads: threads
}: WorkspaceOptions): Workspace {
  const file = databaseFileOf(dataDir)
  if (file !== dataDir && dataDir !== ':memory:') mkdirSync(dataDir, { recursive: true })
  const db = openDatabase({ file })
  const services: Services = { db, clock, baseUrl, writes: 0 }
  // Threads start at the first search (or when a host starts maintenance): a CLI command never starts them.
  const poolSize = file === ':memory:' ? 0 : (threads ?? searchThreads())
  if (poolSize > 0) services.searchPool = createSearchPool(file, poolSize)
  return {
    services,
    close: () => {
      const pool = services.searchPool
      // Without threads the database closes at once (a CLI command exits right after).
      if (!pool) {
        db.close()
        return Promise.resolve()
      }
      return pool.close().then(() => {
        if (db.open) db.close()
      })
    }
  }
}

export interface Bootstrap {
  owner: UserRow
  /** Set only when this call created the owner: the token is shown once, then only its hash remains. */
  createdToken?: string
  organizationId?: string
}

/** The user a connected workspace's local copy belongs to: the account its token names on the server. */
export interface WorkspaceAccount {
  id: string
  displayName: string
  email?: string
}

/**
 * First start of an empty workspace: creates the owner, one organization (owner as admin) and a token.
 * On later starts returns the owner. `token`, when given, is made a valid owner token. With `account` (a
 * connected workspace's local copy) the owner is that account, with its server's id, and no organization is
 * made: the copy holds the server's.
 */
export function bootstrapWorkspace(services: Services, token?: string, account?: WorkspaceAccount): Bootstrap {
  const { db, clock } = services
  const users = repository(db, userRepository)
  const orgs = repository(db, organizationRepository)
  return db
    .transaction((): Bootstrap => {
      const now = clock.now().toISOString()
      if (account) {
        const owner = users.upsert(account, now)
        db.prepare("INSERT INTO settings (key, value) VALUES ('owner', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
          owner.id
        )
        if (token) users.addToken(owner.id, token, 'serve --token', now)
        return { owner }
      }
      const ownerId = db.prepare<[], string>("SELECT value FROM settings WHERE key = 'owner'").pluck().get()
      let owner = ownerId ? users.get(ownerId) : undefined
      let result: Bootstrap
      if (owner) {
        result = { owner }
      } else {
        const name = safeUserName()
        owner = users.create({ email: `${name}@localhost`, displayName: name }, now)
        db.prepare("INSERT INTO settings (key, value) VALUES ('owner', ?)").run(owner.id)
        const org = orgs.create({ title: 'My organization' }, now)
        orgs.addMember(org.id, owner.id, 'admin', now)
        const setup = { organizationId: org.id, actor: 'setup', occurredAt: now } as const
        recordSystemEvent(services, {
          ...setup,
          action: 'organization.created',
          target: { id: org.id, label: org.title },
          after: { title: org.title }
        })
        recordSystemEvent(services, {
          ...setup,
          action: 'member.added',
          target: { id: owner.id, label: owner.display_name },
          after: { role: 'admin' }
        })
        const created = token ? undefined : newToken()
        if (created) users.addToken(owner.id, created, 'bootstrap', now)
        if (created) recordTokenCreated(services, owner, 'bootstrap', 'setup', now)
        result = { owner, createdToken: created, organizationId: org.id }
      }
      // A token given at start (`serve --token`) is recorded the first time it is added, not at every start.
      if (token && users.addToken(owner.id, token, 'serve --token', now)) recordTokenCreated(services, owner, 'serve --token', 'setup', now)
      return result
    })
    .immediate()
}

/** Records a token made for `user` in each organization they are a member of (a token opens all of them). */
export function recordTokenCreated(services: Services, user: UserRow, label: string, actor: 'setup' | 'cli', now: string): void {
  for (const organizationId of repository(services.db, auditEventRepository).memberOrgs(user.id)) {
    recordSystemEvent(services, {
      organizationId,
      action: 'member.token_created',
      actor,
      occurredAt: now,
      target: { id: user.id, label: user.display_name },
      after: { label }
    })
  }
}

function safeUserName(): string {
  try {
    const name = userInfo().username.replace(/[^A-Za-z0-9._-]/g, '')
    return name || 'owner'
  } catch {
    return 'owner'
  }
}

/** Deleted spaces stay restorable for this long, then they are removed for good. */
export const SPACE_RESTORE_WINDOW_MS = 7 * DAY_MS

/** Removes spaces deleted more than 7 days ago (they can no longer be restored). Returns how many went. */
export function purgeExpiredSpaces(services: Services): number {
  const cutoff = new Date(services.clock.now().getTime() - SPACE_RESTORE_WINDOW_MS).toISOString()
  const removed = services.db
    .transaction(() => {
      const spaces = repository(services.db, spaceRepository)
      const expired = spaces.deletedBefore(cutoff)
      spaces.removeMany(expired.map((s) => s.id))
      const now = services.clock.now().toISOString()
      for (const space of expired) {
        dropSearchIndex(services.db, space.id)
        recordSystemEvent(services, {
          organizationId: space.organization_id,
          action: 'space.purged',
          actor: 'upkeep',
          occurredAt: now,
          target: { id: space.id, label: space.title }
        })
      }
      return expired.length
    })
    .immediate()
  if (removed) services.writes++
  return removed
}

/** How long after a workspace opens its first upkeep pass runs: after the server listens and its first answers. */
export const FIRST_UPKEEP_DELAY_MS = 1_000

/**
 * Upkeep of an open workspace, off the request path, for every host (the loopback server, the desktop app's
 * in-process backend): deleted spaces past the restore window go for good (a second after opening, then hourly;
 * the routes treat them as gone meanwhile), documents and blobs nothing refers to any more are collected (hourly,
 * in small batches: collectUnreferenced), and search indexes left behind their space's content (a merge whose
 * catch-up never ran: the process stopped, or another process merged) catch up in the background. The first pass
 * (and the search threads' start) waits `FIRST_UPKEEP_DELAY_MS`, so a start's first answer never waits for it.
 * Returns the stop function.
 */
export function startMaintenance(services: Services): () => void {
  let collecting = false
  const first = setTimeout(() => {
    if (!services.db.open) return
    try {
      purgeExpiredSpaces(services)
      scheduleStaleSearchIndexes(services.db)
      services.searchPool?.warm()
      sweepIdempotencyKeys(services)
    } catch (error) {
      console.error('Workspace upkeep failed:', error)
    }
  }, FIRST_UPKEEP_DELAY_MS).unref()
  const hourly = setInterval(
    () => {
      purgeExpiredSpaces(services)
      sweepIdempotencyKeys(services)
      if (collecting) return
      collecting = true
      collectUnreferenced(services.db)
        .catch((error) => console.error('Collecting unreferenced content failed:', error))
        .finally(() => (collecting = false))
    },
    60 * 60 * 1000
  ).unref()
  return () => {
    clearTimeout(first)
    clearInterval(hourly)
  }
}
