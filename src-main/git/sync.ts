import type { Services } from '../workspace/context'
import { PageTree } from '../content/pageTree'
import { readBlob as readStoredBlob } from '../content/files'
import { loadFiles, loadPages, loadReusableContents } from '../content/revisions'
import { readDocuments } from '../content/documents'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import { gitSyncRepository, type GitOperation } from '../storage/repositories/gitSyncRepository'
import { spaceRepository, type SpaceRow } from '../storage/repositories/spaceRepository'
import { applyImport, type ImportedAsset } from './applyImport'
import { exportTree, type SpaceSnapshot } from './exportTree'
import {
  CONFIG_FILE,
  filesUnder,
  isMarkdown,
  LayoutError,
  type ImportedNode,
  pagesOf,
  readLayout,
  referencedAssets,
  reusableContentsOf,
  type RepoFiles
} from './layout'
import { listFiles, readBlob, readCommit, TreeTooLargeError, writeCommit, writeTreeFromPaths, type TreeFile } from './objects'
import { gitJobs } from './queue'
import { displayUrl, providerOf, repoNameOf, type Remote } from './remote'
import { publish, safeMessage, SyncError, withRepository, type Workdir } from './repoAccess'
import { recordSystemEvent } from '../workspace/audit'

/** Limits of one import: markdown read into pages, and referenced files stored in the revision. */
export const LIMITS = {
  markdownFiles: 5000,
  markdownBytes: 2 * 1024 * 1024,
  assets: 200,
  assetBytes: 10 * 1024 * 1024,
  totalAssetBytes: 100 * 1024 * 1024
}

export interface GitJob {
  operation: GitOperation
  spaceId: string
  remote: Remote
  ref: string
  /** The project folder (repoProjectDirectory), cleaned. */
  project: string
  /** Event time; an event older than the last applied one is skipped. */
  timestamp: string
  force: boolean
  standalone: boolean
  cacheId?: string
  commitUrlPrefix?: string
  commitMessage?: string
  providerHint?: string
  /** Who asked: the export commit's author. */
  actor: { id: string; name: string; email: string }
  /** The audit event of the request: the cause of the events the job records. */
  causedBy?: string
}

const decoder = new TextDecoder()
const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)

function tx<T>(services: Services, fn: (db: Db) => T): T {
  const result = services.db.transaction(() => fn(services.db)).immediate()
  services.writes++
  return result
}

const nowOf = (services: Services) => services.clock.now().toISOString()

/** Records the request (status pending) and queues the job. Call inside the request's write transaction. */
export function recordRequest(db: Db, job: GitJob, now: string): void {
  repository(db, gitSyncRepository).request(
    job.spaceId,
    {
      operation: job.operation,
      url: displayUrl(job.remote),
      ref: job.ref,
      repoName: repoNameOf(job.remote),
      provider: providerOf(job.remote, job.providerHint),
      integration: null,
      commitUrl: job.commitUrlPrefix
    },
    now
  )
}

/** Queues a recorded request; it runs after the space's earlier jobs. */
export function enqueueGitJob(services: Services, job: GitJob): void {
  const jobs = gitJobs(services)
  jobs.enqueue(job.spaceId, {
    run: () => runJob(services, job),
    drop: () => {
      try {
        tx(services, (db) =>
          repository(db, gitSyncRepository).setStatus(
            job.spaceId,
            'failed',
            'interrupted: the app closed before the sync ran',
            nowOf(services)
          )
        )
      } catch {
        // the database may already be closed
      }
    }
  })
}

async function runJob(services: Services, job: GitJob): Promise<void> {
  const states = (db: Db) => repository(db, gitSyncRepository)
  const stale = tx(services, (db) => {
    const state = states(db).get(job.spaceId)
    if (!state) return true // the space went (cascade) since the request
    if (state.last_timestamp && job.timestamp < state.last_timestamp) {
      states(db).setStatus(job.spaceId, finalStatus(services, job, 'skipped'), null, nowOf(services))
      return true
    }
    states(db).setStatus(job.spaceId, 'running', null, nowOf(services))
    return false
  })
  if (stale) return
  try {
    const done: { commit: string | null; revision: string | null; pushed?: boolean } =
      job.operation === 'import' ? await runImport(services, job) : await runExport(services, job)
    tx(services, (db) => {
      const now = nowOf(services)
      const space = repository(db, spaceRepository).get(job.spaceId)
      // A commit written to the repository is recorded with the state that says so (an import's event is its write's).
      if (done.pushed && space) {
        recordSystemEvent(services, {
          organizationId: space.organization_id,
          action: 'space.git_export_pushed',
          actor: 'gitSync',
          occurredAt: now,
          target: { id: space.id, label: space.title },
          after: { commit: done.commit, url: displayUrl(job.remote), ref: job.ref },
          causedBy: job.causedBy
        })
      }
      states(db).synced(
        job.spaceId,
        {
          status: finalStatus(services, job, 'succeeded'),
          commit: done.commit,
          url: displayUrl(job.remote),
          ref: job.ref,
          revisionId: done.revision,
          timestamp: job.timestamp
        },
        now
      )
      if (space) {
        states(db).setSpaceGitSync(job.spaceId, {
          repoName: repoNameOf(job.remote),
          installationProvider: providerOf(job.remote, job.providerHint),
          url: displayUrl(job.remote),
          updatedAt: now
        })
      }
    })
  } catch (error) {
    const message = safeMessage(error, job.remote)
    tx(services, (db) => states(db).setStatus(job.spaceId, finalStatus(services, job, 'failed'), message, nowOf(services)))
  }
}

/** While more jobs of the space wait, the state stays `pending`: a poller sees the sync idle only at the end. */
function finalStatus<S extends 'succeeded' | 'failed' | 'skipped'>(services: Services, job: GitJob, status: S): S | 'pending' {
  return gitJobs(services).waiting(job.spaceId) ? 'pending' : status
}

/** The live space a job works on: not deleted, and for an import not locked since the request. */
function liveSpace(db: Db, spaceId: string, writing: boolean): SpaceRow {
  const space = repository(db, spaceRepository).get(spaceId)
  if (!space || space.deleted_at) throw new SyncError('the space no longer exists')
  if (writing && space.edit_mode === 'locked') throw new SyncError('the space is locked')
  return space
}

const report = (services: Services, job: GitJob, change: Parameters<ReturnType<typeof gitJobs>['report']>[1]) =>
  gitJobs(services).report(job.spaceId, change)

async function readRepo(workdir: Workdir, commit: string, project: string, onRead: () => void = () => {}) {
  let all: Map<string, TreeFile>
  try {
    all = await listFiles(workdir.gitdir, commit)
  } catch (error) {
    if (error instanceof TreeTooLargeError) throw new SyncError(error.message)
    throw error
  }
  const configFile = all.get(project ? `${project}/${CONFIG_FILE}` : CONFIG_FILE)
  let layout
  try {
    layout = readLayout(project, configFile ? stripBom(decoder.decode(await readBlob(workdir.gitdir, configFile.oid))) : undefined)
  } catch (error) {
    if (error instanceof LayoutError) throw new SyncError(error.message)
    throw error
  }
  const files = filesUnder(all, layout.root)
  const texts = new Map<string, string>()
  for (const [path, file] of files) {
    if (!isMarkdown(path)) continue
    if (texts.size >= LIMITS.markdownFiles) throw new SyncError(`more than ${LIMITS.markdownFiles} markdown files`)
    const bytes = await readBlob(workdir.gitdir, file.oid)
    onRead()
    if (bytes.byteLength > LIMITS.markdownBytes) throw new SyncError(`${path} is larger than ${LIMITS.markdownBytes} bytes`)
    texts.set(path, stripBom(decoder.decode(bytes)))
  }
  const repo: RepoFiles = { files, texts }
  return { all, layout, repo }
}

/** Counts the read files of the running job. */
function counter(services: Services, job: GitJob): () => void {
  let read = 0
  return () => report(services, job, { filesRead: ++read })
}

async function runImport(services: Services, job: GitJob): Promise<{ commit: string; revision: string }> {
  report(services, job, { phase: 'fetching' })
  return withRepository(services, gitJobs(services), job.remote, job.ref, job.cacheId, async (workdir) => {
    if (!workdir.head) throw new SyncError(`ref: the branch ${job.ref} does not exist in the repository`)
    const commit = workdir.head
    report(services, job, { phase: 'reading' })
    const onRead = counter(services, job)
    const { repo, layout } = await readRepo(workdir, commit, job.project, onRead)
    const nodes = pagesOf(layout, repo)
    const reusables = reusableContentsOf(repo)
    const assets: ImportedAsset[] = []
    let total = 0
    for (const path of referencedAssets(nodes, repo, reusables)) {
      if (assets.length >= LIMITS.assets) break
      const oid = repo.files.get(path)!.oid
      const bytes = await readBlob(workdir.gitdir, oid)
      onRead()
      if (bytes.byteLength > LIMITS.assetBytes || total + bytes.byteLength > LIMITS.totalAssetBytes) continue
      total += bytes.byteLength
      assets.push({ path, oid, bytes })
    }
    const { message } = await readCommit(workdir.gitdir, commit)
    report(services, job, { phase: 'applying' })
    const revision = tx(services, (db) => {
      const space = liveSpace(db, job.spaceId, true)
      const state = repository(db, gitSyncRepository).get(job.spaceId)
      if (state?.last_timestamp && job.timestamp < state.last_timestamp) throw new SyncError('a newer sync ran meanwhile')
      const now = nowOf(services)
      const revision = applyImport(db, {
        space,
        actorId: job.actor.id,
        now,
        nodes,
        reusables,
        assets,
        standalone: job.standalone,
        git: {
          oid: commit,
          message: message.trim(),
          ref: job.ref,
          ...(job.commitUrlPrefix ? { url: `${job.commitUrlPrefix}${commit}` } : {})
        }
      })
      recordSystemEvent(services, {
        organizationId: space.organization_id,
        action: 'space.git_import_applied',
        actor: 'gitSync',
        occurredAt: now,
        target: { id: space.id, label: space.title },
        after: { revision, commit, url: displayUrl(job.remote), ref: job.ref, standalone: job.standalone },
        causedBy: job.causedBy
      })
      return revision
    })
    report(services, job, { pagesApplied: countNodes(nodes) })
    return { commit, revision }
  })
}

/** The space's primary pages, documents and files, read in one transaction. */
function snapshot(
  services: Services,
  spaceId: string
): { snapshot: SpaceSnapshot; base: { commit: string | null; url: string | null; ref: string | null } } {
  return services.db
    .transaction(() => {
      const db = services.db
      const space = liveSpace(db, spaceId, false)
      const pages = loadPages(db, space.revision_id!)
      const documents = readDocuments(
        db,
        pages.map((p) => p.documentHash)
      )
      const files = loadFiles(db, space.revision_id!).map((f) => ({ ...f, bytes: readStoredBlob(db, f.blobHash) ?? new Uint8Array() }))
      const reusable = loadReusableContents(db, space.revision_id!)
      const reusableTexts = readDocuments(
        db,
        reusable.map((r) => r.documentHash)
      )
      const reusableContents = reusable.map((r) => ({ ...r, markdown: reusableTexts.get(r.documentHash) ?? '' }))
      const state = repository(db, gitSyncRepository).get(spaceId)
      return {
        snapshot: { tree: new PageTree(pages), documents, files, reusableContents },
        base: { commit: state?.commit_oid ?? null, url: state?.synced_url ?? null, ref: state?.synced_ref ?? null }
      }
    })
    .deferred()
}

const countNodes = (nodes: readonly ImportedNode[]): number => nodes.reduce((sum, node) => sum + 1 + countNodes(node.children), 0)

async function runExport(services: Services, job: GitJob): Promise<{ commit: string | null; revision: null; pushed: boolean }> {
  const { snapshot: space, base } = snapshot(services, job.spaceId)
  report(services, job, { phase: 'fetching', pagesApplied: space.tree.pages.size })
  return withRepository(services, gitJobs(services), job.remote, job.ref, job.cacheId, async (workdir) => {
    const head = workdir.head
    const syncedHere = base.url === displayUrl(job.remote) && base.ref === job.ref
    // The branch moved past the commit this space was last in step with: exporting would drop those commits'
    // changes. Refused unless `force` (then the space's content is committed on top of the branch).
    if (head && syncedHere && base.commit && head !== base.commit && !job.force) {
      throw new SyncError('non-fast-forward: the branch has commits this space has not imported; import them first or export with force')
    }
    let current = new Map<string, TreeFile>()
    let texts = new Map<string, string>()
    let layout = readLayout(job.project, undefined)
    report(services, job, { phase: 'reading' })
    if (head)
      ({
        all: current,
        layout,
        repo: { texts }
      } = await readRepo(workdir, head, job.project, counter(services, job)))
    report(services, job, { phase: 'writing' })
    const files = await exportTree(workdir.gitdir, current, layout, texts, space)
    let written = 0
    for (const [path, file] of files) if (current.get(path)?.oid !== file.oid) written++
    report(services, job, { filesWritten: written })
    const tree = await writeTreeFromPaths(workdir.gitdir, files)
    if (head && (await readCommit(workdir.gitdir, head)).tree === tree) return { commit: head, revision: null, pushed: false }
    const commit = await writeCommit(workdir.gitdir, {
      tree,
      parents: head ? [head] : [],
      message: job.commitMessage ?? 'Update from Quire',
      author: { name: job.actor.name, email: job.actor.email, timestamp: Math.floor(services.clock.now().getTime() / 1000) }
    })
    report(services, job, { phase: 'pushing' })
    await publish(workdir, job.ref, commit, head, job.force)
    return { commit, revision: null, pushed: true }
  })
}
