import type { FastifyRequest } from 'fastify'
import { NoContent } from '../../../../src-shared/schemas/common'
import {
  GitConnectionInputSchema,
  GitConnectionSchema,
  GitExportSchema,
  GitImportSchema,
  GitInfoSchema,
  type GitConnectionInput,
  type GitExport,
  type GitImport
} from '../../../../src-shared/schemas/git'
import { SpaceParams } from '../../../../src-shared/schemas/spaces'
import { cleanFolder, LayoutError } from '../../../git/layout'
import { gitJobs } from '../../../git/queue'
import { displayUrl, isBranchRef, parseRemote, RemoteUrlError, type Remote } from '../../../git/remote'
import { dropCacheRoot } from '../../../git/repoAccess'
import { enqueueGitJob, recordRequest, type GitJob } from '../../../git/sync'
import { auditEventIdOf } from '../../../workspace/audit'
import { gitSyncRepository } from '../../../storage/repositories/gitSyncRepository'
import { repository } from '../../../storage/repositories/memo'
import type { Api } from '../../app'
import { read, write, type Ctx } from '../../../workspace/context'
import { openSecret, sealSecret, type SealedSecret } from '../../../workspace/tokenSeal'
import { gitConnectionRepository, type GitConnectionRow } from '../../../storage/repositories/gitConnectionRepository'
import { badRequest, conflict, notFound } from '../../../base/errors'
import { emptyBodyIsObject } from '../../validation'
import { presentGitConnection, presentGitInfo } from '../../presenters/gitInfo'
import { assertEditable } from '../change-requests/loaders'
import { loadSpace } from '../spaces/loaders'

const tags = ['Git']

/** The remote a request names; 400 `url: …` that never repeats the URL (it may hold credentials). */
function remoteOf(url: string): Remote {
  try {
    return parseRemote(url)
  } catch (error) {
    if (error instanceof RemoteUrlError) throw badRequest(`url: ${error.message}`)
    throw error
  }
}

function checkRef(ref: string): void {
  if (!isBranchRef(ref)) throw badRequest('ref: must be refs/heads/<branch> with a valid branch name')
}

function projectOf(folder: string | undefined): string {
  try {
    return cleanFolder(folder, 'repoProjectDirectory')
  } catch (error) {
    if (error instanceof LayoutError) throw badRequest(error.message)
    throw error
  }
}

type JobTarget = Pick<GitJob, 'remote' | 'ref' | 'project' | 'cacheId' | 'commitUrlPrefix' | 'providerHint'>

/** The repository a request with `url` names: checks what the schema cannot (URL kind, ref name rules, project folder). */
function targetOf(body: GitImport | GitExport, operation: GitJob['operation']): JobTarget {
  const remote = remoteOf(body.url!)
  if (body.ref === undefined) throw badRequest('ref: is required')
  checkRef(body.ref)
  const project = projectOf(body.repoProjectDirectory)
  if (operation === 'export' && !(body as GitExport).commitMessage) throw badRequest('commitMessage: is required')
  return {
    remote,
    ref: body.ref,
    project,
    cacheId: body.repoCacheID,
    commitUrlPrefix: body.repoCommitURL,
    providerHint: body.gitInfo?.provider
  }
}

interface StoredCredentials {
  username: string
  password: string
}

/** The repository of the space's connection, with its credentials opened; 400 without a connection. */
function connectionTarget(ctx: Ctx, spaceId: string): JobTarget {
  const row = ctx.repo(gitConnectionRepository).get(spaceId)
  if (!row) throw badRequest('url: the space has no Git connection: connect it, or give url and ref')
  const remote = parseRemote(row.url)
  if (row.credentials && remote.kind === 'http') {
    const opened = openSecret(ctx.services, JSON.parse(row.credentials) as SealedSecret)
    if (opened === undefined)
      throw conflict('credentials: the stored Git credentials cannot be opened here: enter them again in the connection')
    remote.auth = JSON.parse(opened) as StoredCredentials
  }
  return { remote, ref: row.ref, project: row.project, commitUrlPrefix: row.commit_url ?? undefined }
}

/**
 * Records the request in the request's transaction (after the permission checks), then queues the work. A body
 * without `url` uses the space's connection.
 */
function start(req: FastifyRequest, spaceId: string, body: GitImport | GitExport, operation: GitJob['operation']) {
  // A repository named in part (a ref without a url) is a mistake, not a request for the connection.
  if (body.url === undefined && (body.ref ?? body.repoProjectDirectory ?? body.repoCommitURL ?? body.repoCacheID) !== undefined) {
    throw badRequest('url: is required')
  }
  const given = body.url !== undefined ? targetOf(body, operation) : undefined
  const job = write(req, (ctx): GitJob => {
    const { space } = loadSpace(ctx, spaceId, 'triggerGitSync')
    assertEditable(space)
    const target = given ?? connectionTarget(ctx, space.id)
    const job: GitJob = {
      ...target,
      operation,
      spaceId: space.id,
      force: body.force ?? false,
      standalone: operation === 'import' ? ((body as GitImport).standalone ?? false) : false,
      commitMessage: operation === 'export' ? ((body as GitExport).commitMessage ?? 'Update from Quire') : undefined,
      timestamp: body.timestamp ? new Date(body.timestamp).toISOString() : ctx.now,
      actor: { id: ctx.actor.id, name: ctx.actor.display_name, email: ctx.actor.email },
      causedBy: auditEventIdOf(ctx)
    }
    recordRequest(ctx.db, job, ctx.now)
    return job
  })
  enqueueGitJob(req.server.services, job)
}

/** The stored form of a connection's credentials: from the URL, or username and token, or kept; sealed, never plain. */
function credentialsOf(ctx: Ctx, body: GitConnectionInput, remote: Remote, previous: GitConnectionRow | undefined): string | null {
  const inUrl = remote.kind === 'http' ? remote.auth : undefined
  if (inUrl && (body.token !== undefined || body.username !== undefined)) {
    throw badRequest('token: give the credentials in the URL or as username and token, not both')
  }
  if (body.username !== undefined && typeof body.token !== 'string') throw badRequest('username: needs a token')
  if (remote.kind === 'local' && typeof body.token === 'string') throw badRequest('token: only an http(s) repository takes credentials')
  const seal = (credentials: StoredCredentials) => JSON.stringify(sealSecret(ctx.services, JSON.stringify(credentials)))
  if (inUrl) return seal(inUrl)
  if (typeof body.token === 'string') return seal({ username: body.username ?? 'git', password: body.token })
  if (body.token === null) return null
  // Kept only for the same repository: another server never receives them.
  return previous && previous.url === displayUrl(remote) ? previous.credentials : null
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
      },
      preValidation: emptyBodyIsObject
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
      },
      preValidation: emptyBodyIsObject
    },
    async (req, reply) => {
      start(req, req.params.spaceId, req.body, 'export')
      return reply.code(204).send()
    }
  )

  app.get(
    '/v1/spaces/:spaceId/git/info',
    {
      schema: {
        tags,
        summary: "The space's Git sync: repository, provider, URL and the latest operation's state",
        params: SpaceParams,
        response: { 200: GitInfoSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'view')
        const row = ctx.repo(gitSyncRepository).get(space.id)
        if (!row) throw notFound('Git sync')
        return presentGitInfo(row, !!ctx.repo(gitConnectionRepository).get(space.id), gitJobs(ctx.services).progress(space.id))
      })
  )

  // The space's Git connection (Quire's addition): what an import or export without `url` uses. Admins only.
  app.get(
    '/v1/spaces/:spaceId/git/connection',
    {
      schema: {
        tags,
        summary: "The space's Git connection: repository, branch, folder, whether credentials are stored",
        params: SpaceParams,
        response: { 200: GitConnectionSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        const row = ctx.repo(gitConnectionRepository).get(space.id)
        if (!row) throw notFound('Git connection')
        return presentGitConnection(row)
      })
  )

  app.put(
    '/v1/spaces/:spaceId/git/connection',
    {
      schema: {
        tags,
        summary: 'Connect the space to a Git repository (credentials are stored sealed and never answered)',
        params: SpaceParams,
        body: GitConnectionInputSchema,
        response: { 200: GitConnectionSchema }
      }
    },
    async (req) => {
      const body = req.body
      const remote = remoteOf(body.url)
      checkRef(body.ref)
      const project = projectOf(body.repoProjectDirectory)
      return write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        const connections = ctx.repo(gitConnectionRepository)
        const credentials = credentialsOf(ctx, body, remote, connections.get(space.id))
        const row = connections.put(
          space.id,
          { url: displayUrl(remote), ref: body.ref, project, commit_url: body.repoCommitURL ?? null, credentials },
          ctx.actor.id,
          ctx.now
        )
        return presentGitConnection(row)
      })
    }
  )

  app.delete(
    '/v1/spaces/:spaceId/git/connection',
    {
      schema: {
        tags,
        summary: 'Disconnect the space from its Git repository (its stored credentials go)',
        params: SpaceParams,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        if (!ctx.repo(gitConnectionRepository).remove(space.id)) throw notFound('Git connection')
      })
      return reply.code(204).send()
    }
  )
}
