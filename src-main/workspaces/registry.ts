// The list of local workspaces under a home folder: `workspaces.json` beside `workspaces/<id>/quire.db`.
// Plain Node (no electron): the desktop app and `quire serve --home` share it.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { WORKSPACE_ID_PATTERN, normalizeWorkspaceName, workspaceNameProblem } from '../../src-shared/workspaces'
import { badRequest, conflict, notFound } from '../base/errors'
import { asciiSlug } from '../../src-shared/slug'
import { workspaceFile } from '../workspace/workspace'
import { writeFileAtomic } from './atomicFile'

export interface RegistryEntry {
  id: string
  name: string
  createdAt: string
}

export interface RegistryFile {
  version: 1
  active: string
  workspaces: RegistryEntry[]
}

export const REGISTRY_FILE = 'workspaces.json'
export const WORKSPACES_DIR = 'workspaces'
/** The workspace the app used before there was a registry; the first open adopts it. */
export const DEFAULT_WORKSPACE: RegistryEntry = { id: 'local', name: 'Local', createdAt: '' }

export interface RegistryOptions {
  now?: () => Date
  /** Told when a broken registry was kept aside and rebuilt (the host logs it). */
  warn?: (message: string) => void
}

/**
 * Reads and writes the registry. Every change is written at once, atomically (a temp file in the same folder,
 * fsynced, then renamed over the old one), so a crash leaves either the old list or the new one.
 */
export class WorkspaceRegistry {
  private file: RegistryFile

  private constructor(
    readonly home: string,
    file: RegistryFile,
    private readonly now: () => Date
  ) {
    this.file = file
  }

  /**
   * Opens the registry of `home`. Without `workspaces.json` it creates one whose single workspace "Local" adopts
   * `workspaces/local` (the folder the app used before), or a workspace file kept in the home itself (see
   * adoptFlatWorkspace), so nobody loses data. A file that cannot be read as a
   * registry is not replaced silently: it is kept as `workspaces.json.broken-<timestamp>` and the list is rebuilt
   * from the folders under `workspaces/` (names = folder ids), so every database stays reachable.
   */
  static open(home: string, options: RegistryOptions = {}): WorkspaceRegistry {
    const now = options.now ?? (() => new Date())
    mkdirSync(join(home, WORKSPACES_DIR), { recursive: true })
    const path = join(home, REGISTRY_FILE)
    let file: RegistryFile
    let write = true
    if (!existsSync(path)) {
      adoptFlatWorkspace(home)
      const stamp = now().toISOString()
      const adopted = folderEntries(home).filter((e) => e.id !== DEFAULT_WORKSPACE.id)
      file = {
        version: 1,
        active: DEFAULT_WORKSPACE.id,
        workspaces: [{ ...DEFAULT_WORKSPACE, createdAt: workspaceTime(home, 'local') ?? stamp }, ...adopted]
      }
    } else {
      const text = readFileSync(path, 'utf8')
      const parsed = parseRegistry(text)
      if (parsed.ok) {
        file = parsed.file
        write = false
      } else {
        const kept = `${path}.broken-${now().toISOString().replace(/[:.]/g, '-')}`
        renameSync(path, kept)
        const entries = folderEntries(home)
        if (!entries.length) entries.push({ ...DEFAULT_WORKSPACE, createdAt: now().toISOString() })
        const active = entries.some((e) => e.id === DEFAULT_WORKSPACE.id) ? DEFAULT_WORKSPACE.id : entries[0]!.id
        file = { version: 1, active, workspaces: entries }
        options.warn?.(
          `${path} could not be read (${parsed.reason}); kept it as ${kept} and rebuilt the list from ${join(home, WORKSPACES_DIR)}`
        )
      }
    }
    const registry = new WorkspaceRegistry(home, file, now)
    if (write) registry.write(file)
    return registry
  }

  get active(): string {
    return this.file.active
  }

  list(): RegistryEntry[] {
    return this.file.workspaces.map((e) => ({ ...e }))
  }

  get(id: string): RegistryEntry | undefined {
    const entry = this.file.workspaces.find((e) => e.id === id)
    return entry && { ...entry }
  }

  /** The entry, or a 404. */
  require(id: string): RegistryEntry {
    const entry = this.get(id)
    if (!entry) throw notFound('Workspace')
    return entry
  }

  /** The folder of a workspace's database. */
  dataDir(id: string): string {
    return workspaceDir(this.home, id)
  }

  /** The name as it would be stored, or a 400/409 naming `name`. `exceptId`: the workspace being renamed. */
  checkName(name: unknown, exceptId?: string): string {
    const problem = workspaceNameProblem(name)
    if (problem) throw badRequest(problem)
    const normalized = normalizeWorkspaceName(name as string)
    const folded = normalized.toLowerCase()
    const clash = this.file.workspaces.find((e) => e.id !== exceptId && e.name.toLowerCase() === folded)
    if (clash) throw conflict(`name: a workspace named “${clash.name}” already exists`)
    return normalized
  }

  /** A new folder-safe id: the name's slug and a short random suffix, unused in the list and on disk. */
  newId(name: string): string {
    const slug = slugify(name) || 'workspace'
    for (;;) {
      const id = `${slug}-${randomSuffix()}`
      if (!this.get(id) && !existsSync(join(this.home, WORKSPACES_DIR, id))) return id
    }
  }

  /** Lists a workspace whose database already exists at `dataDir(id)`. */
  add(id: string, name: unknown): RegistryEntry {
    const entry: RegistryEntry = { id, name: this.checkName(name), createdAt: this.now().toISOString() }
    if (this.get(id)) throw conflict(`id: a workspace with id ${id} already exists`)
    this.write({ ...this.file, workspaces: [...this.file.workspaces, entry] })
    return { ...entry }
  }

  rename(id: string, name: unknown): RegistryEntry {
    this.require(id)
    const normalized = this.checkName(name, id)
    this.write({ ...this.file, workspaces: this.file.workspaces.map((e) => (e.id === id ? { ...e, name: normalized } : e)) })
    return this.require(id)
  }

  remove(id: string): void {
    this.require(id)
    if (id === this.file.active) throw conflict('The active workspace cannot be deleted: switch to another workspace first')
    this.write({ ...this.file, workspaces: this.file.workspaces.filter((e) => e.id !== id) })
  }

  setActive(id: string): void {
    this.require(id)
    if (id !== this.file.active) this.write({ ...this.file, active: id })
  }

  /** Atomic replace; the in-memory list changes only once the file did. */
  private write(next: RegistryFile): void {
    writeFileAtomic(join(this.home, REGISTRY_FILE), `${JSON.stringify(next, null, 2)}\n`)
    this.file = next
  }
}

/** Validates the registry's shape; any doubt is a broken file (kept aside by `open`, never overwritten). */
export function parseRegistry(text: string): { ok: true; file: RegistryFile } | { ok: false; reason: string } {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    return { ok: false, reason: `not JSON: ${error instanceof Error ? error.message : String(error)}` }
  }
  const fail = (reason: string) => ({ ok: false as const, reason })
  if (!data || typeof data !== 'object' || Array.isArray(data)) return fail('not an object')
  const { version, active, workspaces } = data as Record<string, unknown>
  if (version !== 1) return fail(`unknown version ${JSON.stringify(version)}`)
  if (!Array.isArray(workspaces) || workspaces.length === 0) return fail('workspaces: must be a non-empty array')
  const entries: RegistryEntry[] = []
  const ids = new Set<string>()
  const names = new Set<string>()
  for (const [i, raw] of workspaces.entries()) {
    const e = raw as Record<string, unknown> | null
    if (!e || typeof e !== 'object') return fail(`workspaces.${i}: must be an object`)
    if (typeof e.id !== 'string' || !WORKSPACE_ID_PATTERN.test(e.id))
      return fail(`workspaces.${i}.id: must match ${WORKSPACE_ID_PATTERN.source}`)
    if (workspaceNameProblem(e.name) || normalizeWorkspaceName(e.name as string) !== e.name) return fail(`workspaces.${i}.name: invalid`)
    if (typeof e.createdAt !== 'string' || Number.isNaN(Date.parse(e.createdAt))) return fail(`workspaces.${i}.createdAt: must be a date`)
    const name = (e.name as string).toLowerCase()
    if (ids.has(e.id) || names.has(name)) return fail(`workspaces.${i}: duplicate id or name`)
    ids.add(e.id)
    names.add(name)
    entries.push({ id: e.id, name: e.name as string, createdAt: e.createdAt })
  }
  if (typeof active !== 'string' || !ids.has(active)) return fail('active: must be the id of a listed workspace')
  return { ok: true, file: { version: 1, active, workspaces: entries } }
}

/** One entry per folder under `workspaces/` whose name is a valid id (names = ids), oldest first. */
/** The folder of workspace `id` in `home` (`home/workspaces/<id>`). */
export function workspaceDir(home: string, id: string): string {
  if (!WORKSPACE_ID_PATTERN.test(id)) throw new Error(`not a workspace id: ${id}`)
  return join(home, WORKSPACES_DIR, id)
}

/**
 * A home that holds a workspace file of its own (the folder a `--data` server kept; `npm start` served its
 * default folder that way before it kept several workspaces there) moves it to `workspaces/local`, where the
 * registry's first workspace lives. The database is checkpointed and closed first, so its write-ahead log is
 * folded in and removed: one rename then moves all of it. A log that stays means another process has the database
 * open, and nothing is moved.
 */
function adoptFlatWorkspace(home: string): void {
  const flat = workspaceFile(home)
  const target = workspaceDir(home, DEFAULT_WORKSPACE.id)
  if (!existsSync(flat) || existsSync(workspaceFile(target))) return
  const db = new Database(flat, { fileMustExist: true })
  try {
    db.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    db.close()
  }
  if (existsSync(`${flat}-wal`)) throw new Error(`${flat} is open in another process: stop it, then start again`)
  mkdirSync(target, { recursive: true })
  renameSync(flat, workspaceFile(target))
}

function folderEntries(home: string): RegistryEntry[] {
  const dir = join(home, WORKSPACES_DIR)
  let names: string[]
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && WORKSPACE_ID_PATTERN.test(d.name))
      .map((d) => d.name)
  } catch {
    return []
  }
  return names
    .map((id) => ({ id, name: id, createdAt: workspaceTime(home, id) ?? new Date().toISOString() }))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
}

/**
 * When a workspace's data began: its database file's creation time (a file moved in keeps it, so a workspace
 * adopted from an older layout is dated by its data, not by the move), else its folder's.
 */
function workspaceTime(home: string, id: string): string | undefined {
  const dir = workspaceDir(home, id)
  try {
    const born = statSync(workspaceFile(dir)).birthtimeMs
    if (born > 0) return new Date(born).toISOString()
  } catch {
    // No database yet: the folder's time.
  }
  try {
    const st = statSync(dir)
    return new Date(st.birthtimeMs > 0 ? st.birthtimeMs : st.mtimeMs).toISOString()
  } catch {
    return undefined
  }
}

/** `Product Handbook (EN)` → `product-handbook-en`: ASCII letters and digits, dashes between words, at most 40. */
export function slugify(name: string): string {
  return asciiSlug(name, 40)
}

/** 6 characters of [a-z0-9]. */
function randomSuffix(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'
  return [...randomBytes(6)].map((b) => alphabet[b % alphabet.length]).join('')
}
