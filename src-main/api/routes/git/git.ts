import type { FastifyRequest } from 'fastify'
import { NoContent } from '../../../../src-shared/schemas/common'
import { GitExportSchema, GitImportSchema, GitInfoSchema, type GitExport, type GitImport } from '../../../../src-shared/schemas/git'
import { SpaceParams } from '../../../../src-shared/schemas/spaces'
import { cleanFolder, LayoutError } from '../../../git/layout'
import { gitJobs } from '../../../git/queue'
import { isBranchRef, parseRemote, RemoteUrlError } from '../../../git/remote'
import { dropCacheRoot } from '../../../git/repoAccess'
import { enqueueGitJob, recordRequest, type GitJob } from '../../../git/sync'
import { gitSyncRepository } from '../../../storage/repositories/gitSyncRepository'
import { repository } from '../../../storage/repositories/memo'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { badRequest, notFound } from '../../../base/errors'
import { presentGitInfo } from '../../presenters/gitInfo'
import { assertEditable } from '../change-requests/loaders'
import { loadSpace } from '../spaces/loaders'

const tags = ['Git']

/** Checks what the schema cannot (URL kind, ref name rules, project folder) and builds the job, minus who and when. */
function jobOf(body: GitImport | GitExport, operation: GitJob['operation']): Omit<GitJob, 'spaceId' | 'actor' | 'timestamp'> {
  let remote
  try {
    remote = parseRemote(body.url)
  } catch (error) {
    // The message never repeats the URL: it may hold credentials.
    if (error instanceof RemoteUrlError) throw badRequest(`url: ${error.message}`)
    throw error
  }
  if (!isBranchRef(body.ref)) throw badRequest('ref: must be refs/heads/<branch> with a valid branch name')
  let project: string
  try {
    project = cleanFolder(body.repoProjectDirectory, 'repoProjectDirectory')
  } catch (error) {
    if (error instanceof LayoutError) throw badRequest(error.message)
    throw error
  }
  return {
    operation, remote, ref: body.ref, project, force: body.force ?? false,
    standalone: operation === 'import' ? ((body as GitImport).standalone ?? false) : false,
    cacheId: body.repoCacheID, commitUrlPrefix: body.repoCommitURL, providerHint: body.gitInfo?.provider,
    commitMessage: operation === 'export' ? (body as GitExport).commitMessage : undefined
  }
}

/** Records the request in the request's transaction (after the permission checks), then queues the work. */
function start(req: FastifyRequest, spaceId: string, body: GitImport | GitExport, operation: GitJob['operation']) {
  const partial = jobOf(body, operation)
  const job = write(req, (ctx): GitJob => {
    const { space } = loadSpace(ctx, spaceId, 'triggerGitSync')
    assertEditable(space)
    const job: GitJob = {
      ...partial, spaceId: space.id, timestamp: body.timestamp ? new Date(body.timestamp).toISOString() : ctx.now,
      actor: { id: ctx.actor.id, name: ctx.actor.display_name, email: ctx.actor.email }
    }
    recordRequest(ctx.db, job, ctx.now)
    return job
  })
  enqueueGitJob(req.server.services, job)
}

export default function gitRoutes(app: Api) {
  // Jobs live in memory: what a previous run left pending never finishes, so it is failed at start.
  app.addHook('onReady', async () => {
    const { services } = app
    const states = repository(services.db, gitSyncRepository)
    const changed = services.db
      .transaction(() => states.interruptAll('interrupted: the app stopped before the sync finished', services.clock.now().toISOString()))
      .immediate()
    if (changed) services.writes++
  })
  // Shutdown (and every test's close) waits for the running jobs; queued ones are dropped and marked failed.
  app.addHook('onClose', async () => {
    await gitJobs(app.services).close()
    dropCacheRoot(app.services)
  })

  app.post(
    '/v1/spaces/:spaceId/git/import',
    {
      schema: {
        tags,
        summary: 'Import the space content from a Git repository (runs in the background)',
        params: SpaceParams,
        body: GitImportSchema,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      start(req, req.params.spaceId, req.body, 'import')
      return reply.code(204).send()
    }
  )

  app.post(
    '/v1/spaces/:spaceId/git/export',
    {
      schema: {
        tags,
        summary: 'Export the space content to a Git repository as one commit (runs in the background)',
        params: SpaceParams,
        body: GitExportSchema,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      start(req, req.params.spaceId, req.body, 'export')
      return reply.code(204).send()
    }
  )

  app.get(
    '/v1/spaces/:spaceId/git/info',
    { schema: { tags, summary: "The space's Git sync: repository, provider, URL and the latest operation's state", params: SpaceParams, response: { 200: GitInfoSchema } } },
    async (req) =>
      read(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'view')
        const row = ctx.repo(gitSyncRepository).get(space.id)
        if (!row) throw notFound('Git sync')
        return presentGitInfo(row)
      })
  )
}
