import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { HttpClient } from 'isomorphic-git'
import type { Services } from '../workspace/context'
import { loadGit, loadGitHttp } from './isomorphicGit'
import { resolveRef } from './objects'
import type { GitJobs } from './queue'
import { redact, type Remote } from './remote'

/** A socket idle this long fails the request (a Git server that stops answering does not hold the queue). */
export const GIT_HTTP_TIMEOUT_MS = 60_000

/** A failure whose message is safe to store and show (no credentials, no stack). */
export class SyncError extends Error {}

const http: HttpClient = {
  request: async (req) =>
    (await loadGitHttp()).request({
      ...req,
      fetchOptions: { ...(req as { fetchOptions?: object }).fetchOptions, timeout: GIT_HTTP_TIMEOUT_MS }
    } as typeof req)
}

const cacheRoots = new WeakMap<Services, string>()

/**
 * Folder of the clone caches: `git-cache/` beside the workspace database, or a temporary folder for an
 * in-memory workspace (removed by `dropCacheRoot`).
 */
export function cacheRoot(services: Services): string {
  let root = cacheRoots.get(services)
  if (!root) {
    const file = services.db.name
    root = file && file !== ':memory:' ? join(dirname(file), 'git-cache') : mkdtempSync(join(tmpdir(), 'quire-git-cache-'))
    fs.mkdirSync(root, { recursive: true })
    cacheRoots.set(services, root)
  }
  return root
}

export function dropCacheRoot(services: Services): void {
  const root = cacheRoots.get(services)
  if (root && services.db.name === ':memory:') rmSync(root, { recursive: true, force: true })
  cacheRoots.delete(services)
}

/** A repository to read and write objects in: a local one directly, or the cache clone of an http remote. */
export interface Workdir {
  gitdir: string
  /** The branch's commit on the remote when the sync started (undefined: the branch does not exist). */
  head: string | undefined
  remote: Remote
  /** For a non-bare local repository: the branch its working tree has checked out. */
  checkedOut?: string
}

async function localGitdir(path: string): Promise<{ gitdir: string; bare: boolean }> {
  const dotGit = join(path, '.git')
  const stat = fs.statSync(dotGit, { throwIfNoEntry: false })
  if (stat?.isDirectory()) return { gitdir: dotGit, bare: false }
  if (stat?.isFile()) {
    const match = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'))
    if (match) return { gitdir: join(path, match[1]!.trim()), bare: false }
  }
  if (fs.existsSync(join(path, 'HEAD')) && fs.existsSync(join(path, 'objects'))) return { gitdir: path, bare: true }
  throw new SyncError('url: no Git repository at that path')
}

/** Cache folder of an http remote: `repoCacheID` when given (cleaned), else a hash of the credential-free URL. */
function cacheDirOf(services: Services, remote: Remote & { kind: 'http' }, cacheId?: string): string {
  const clean = cacheId
    ?.replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 100)
  const key = clean || createHash('sha256').update(remote.url).digest('hex').slice(0, 32)
  return join(cacheRoot(services), key)
}

const authOf = (remote: Remote & { kind: 'http' }) => ({
  onAuth: () => (remote.auth ? { username: remote.auth.username, password: remote.auth.password } : { cancel: true }),
  onAuthFailure: () => ({ cancel: true })
})

/** Fetches `ref` of an http remote into the cache; returns its commit (undefined when the branch is missing). */
async function fetchRef(gitdir: string, remote: Remote & { kind: 'http' }, ref: string): Promise<string | undefined> {
  const git = await loadGit()
  const branch = ref.slice('refs/heads/'.length)
  const options = { fs, http, gitdir, url: remote.url, ref: branch, remoteRef: ref, singleBranch: true, tags: false, ...authOf(remote) }
  try {
    try {
      return (await git.fetch({ ...options, depth: 1 })).fetchHead ?? undefined
    } catch (error) {
      // Servers without shallow support get a full fetch.
      if ((error as { code?: string }).code !== 'RemoteCapabilityError') throw error
      return (await git.fetch(options)).fetchHead ?? undefined
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFoundError') return undefined
    throw error
  }
}

/**
 * Opens the repository a sync works on and runs `fn` with it. An http remote is fetched into its cache
 * folder, which stays locked for the whole of `fn` (two syncs of one repository take turns).
 */
export async function withRepository<T>(
  services: Services,
  jobs: GitJobs,
  remote: Remote,
  ref: string,
  cacheId: string | undefined,
  fn: (workdir: Workdir) => Promise<T>
): Promise<T> {
  const git = await loadGit()
  if (remote.kind === 'local') {
    const { gitdir, bare } = await localGitdir(remote.path)
    const checkedOut = bare ? undefined : ((await git.currentBranch({ fs, gitdir, fullname: true }).catch(() => undefined)) ?? undefined)
    return fn({ gitdir, head: await resolveRef(gitdir, ref), remote, checkedOut })
  }
  const gitdir = cacheDirOf(services, remote, cacheId)
  return jobs.withLock(gitdir, async () => {
    if (!fs.existsSync(join(gitdir, 'HEAD'))) {
      await git.init({ fs, gitdir, bare: true })
      // The remote is named per fetch (the URL is never written to the cache's config).
      await git.setConfig({ fs, gitdir, path: 'remote.origin.fetch', value: '+refs/heads/*:refs/remotes/origin/*' })
    }
    return fn({ gitdir, head: await fetchRef(gitdir, remote, ref), remote })
  })
}

/**
 * Moves `ref` of the remote from `expected` to `oid`. A local repository is written directly (refusing the
 * branch a working tree has checked out, as git does); an http remote gets a push. Without `force` the ref
 * must still be where the sync found it.
 */
export async function publish(workdir: Workdir, ref: string, oid: string, expected: string | undefined, force: boolean): Promise<void> {
  const git = await loadGit()
  const { remote, gitdir } = workdir
  if (remote.kind === 'local') {
    if (workdir.checkedOut === ref) {
      throw new SyncError("the branch is checked out in the repository's working tree; export to a bare repository or another branch")
    }
    const now = await resolveRef(gitdir, ref)
    if (now !== expected && !force) throw new SyncError('non-fast-forward: the branch moved while exporting; export again')
    await git.writeRef({ fs, gitdir, ref, value: oid, force: true })
    return
  }
  await git.writeRef({ fs, gitdir, ref, value: oid, force: true })
  try {
    await git.push({ fs, http, gitdir, url: remote.url, ref, remoteRef: ref, force, ...authOf(remote) })
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'PushRejectedError' || code === 'GitPushError') {
      throw new SyncError('non-fast-forward: the Git server refused the push; import first or export with force')
    }
    throw error
  }
}

/** A failure as it may be stored and shown: known Git errors in plain words, everything through `redact`. */
export function safeMessage(error: unknown, remote?: Remote): string {
  if (error instanceof SyncError) return redact(error.message, remote)
  const e = error as { code?: string; message?: string; data?: { statusCode?: number; statusMessage?: string } }
  switch (e.code) {
    case 'HttpError':
      if (e.data?.statusCode === 401 || e.data?.statusCode === 403) return `the Git server refused access (${e.data.statusCode})`
      return `the Git server answered ${e.data?.statusCode ?? 'an error'}`
    case 'UserCanceledError':
      return 'the Git server requires credentials (401)'
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'ECONNRESET':
    case 'ETIMEDOUT':
    case 'EAI_AGAIN':
      return `could not reach the Git server (${e.code})`
    case 'SmartHttpError':
    case 'ParseError':
    case 'EmptyServerResponseError':
      return 'the server did not answer as a Git smart-HTTP server'
  }
  if (e.message === 'Request timed out') return 'the Git server did not answer in time'
  return redact(e.message || 'the Git sync failed', remote).slice(0, 500)
}
