import Type from 'typebox'
import { DateTime, patterned, StringEnum } from './common'

export const GIT_PROVIDERS = ['github', 'gitlab', 'git'] as const
export const GIT_SYNC_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'skipped'] as const
export const GIT_OPERATIONS = ['import', 'export'] as const

/** `refs/heads/<branch>`; the full Git ref-name rules are checked by the route (400 `ref: ...`). */
const Ref = Type.String({
  minLength: 12,
  maxLength: 255,
  ...patterned('^refs/heads/.+', 'a branch, as refs/heads/<branch>'),
  description: 'The branch, as refs/heads/<branch>'
})
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'An http(s) URL (may hold basic-auth credentials: user:password@host, never stored), a file:// URL or an absolute local path'
})

const common = {
  url: Type.Optional(Url),
  ref: Type.Optional(Ref),
  repoCacheID: Type.Optional(Type.String({ maxLength: 100, description: 'Names the clone cache (a hash of the URL when absent)' })),
  repoTreeURL: Type.Optional(
    Type.String({ maxLength: 2048, description: 'Prefix for external file references (kept for compatibility; not used)' })
  ),
  repoCommitURL: Type.Optional(
    Type.String({ maxLength: 2048, description: 'Prefix of commit URLs: the revision git.url is this plus the commit id' })
  ),
  repoProjectDirectory: Type.Optional(Type.String({ maxLength: 1024, description: 'The project folder inside the repository' })),
  timestamp: Type.Optional(
    Type.String({ format: 'date-time', description: 'Time of the triggering event; an event older than the last applied one is skipped' })
  ),
  force: Type.Optional(Type.Boolean()),
  gitInfo: Type.Optional(
    Type.Object({ provider: Type.Optional(Type.String({ maxLength: 50 })), url: Type.Optional(Type.String({ maxLength: 2048 })) })
  )
}

/* Without `url`, an import or export uses the space's Git connection (repository, branch, folder, credentials). */
export const GitImportSchema = Type.Object({
  ...common,
  standalone: Type.Optional(Type.Boolean({ description: 'true: a revision that does not become the primary content' }))
})
export type GitImport = Type.Static<typeof GitImportSchema>

export const GitExportSchema = Type.Object({
  ...common,
  commitMessage: Type.Optional(
    Type.String({ minLength: 1, maxLength: 10_000, description: 'Required with url; default with the connection: Update from Quire' })
  )
})
export type GitExport = Type.Static<typeof GitExportSchema>

export const GIT_PHASES = ['fetching', 'reading', 'applying', 'writing', 'pushing'] as const

/** What the running operation is doing (Quire's addition): the screen polls it. */
export const GitProgressSchema = Type.Object({
  phase: StringEnum(GIT_PHASES),
  filesRead: Type.Integer({ minimum: 0, description: 'Repository files read' }),
  filesWritten: Type.Integer({ minimum: 0, description: 'Files written to the repository (export)' }),
  pagesApplied: Type.Integer({ minimum: 0, description: 'Pages written to the space (import) or read from it (export)' })
})
export type GitProgress = Type.Static<typeof GitProgressSchema>

/**
 * Git info (api-v1.md) plus the state of the latest operation: Quire runs imports and exports in the
 * background, so `status` (and `error` on failure) is how a caller learns how it went.
 */
export const GitInfoSchema = Type.Object({
  repoName: Type.String(),
  installationProvider: StringEnum(GIT_PROVIDERS),
  integration: Type.Optional(Type.String()),
  url: Type.String({ description: 'The repository URL, never with credentials' }),
  updatedAt: DateTime,
  ref: Type.String(),
  /** The space's Git connection is the installation: named by the space's id. */
  installationId: Type.String(),
  /** `active` when the space has a Git connection; `pending` without one (each operation names its repository). */
  installationStatus: StringEnum(['active', 'pending'] as const),
  /** The latest operation requested, in the published shape (`status` below tells queued from running). */
  operation: Type.Object({
    state: StringEnum(['running', 'failure', 'success'] as const),
    direction: StringEnum(GIT_OPERATIONS),
    /** When it started; for one still queued, when it was requested. */
    startedAt: DateTime,
    endedAt: Type.Optional(DateTime),
    error: Type.Optional(Type.String())
  }),
  status: StringEnum(GIT_SYNC_STATUSES, { description: 'pending while queued (or while more operations wait), then the outcome' }),
  error: Type.Optional(Type.String({ description: 'Why the latest operation failed (no credentials)' })),
  commit: Type.Optional(Type.String({ description: 'The commit the space was last in step with' })),
  revision: Type.Optional(Type.String({ description: 'The revision the latest import wrote (standalone or primary)' })),
  startedAt: Type.Optional(DateTime),
  finishedAt: Type.Optional(DateTime),
  commitURL: Type.Optional(
    Type.String({ description: 'A web page of `commit`, when the repository has one (repoCommitURL, or a known host)' })
  ),
  progress: Type.Optional(GitProgressSchema)
})
export type GitInfo = Type.Static<typeof GitInfoSchema>

/** A space's Git connection as answered (Quire's addition): never the credentials, only whether there are some. */
export const GitConnectionSchema = Type.Object({
  url: Type.String({ description: 'The repository, never with credentials' }),
  ref: Type.String(),
  repoProjectDirectory: Type.String({ description: 'The project folder inside the repository ("" for its root)' }),
  repoCommitURL: Type.Optional(Type.String()),
  credentials: Type.Boolean({ description: 'true when credentials are stored (sealed) for the repository' }),
  createdAt: DateTime,
  updatedAt: DateTime
})
export type GitConnection = Type.Static<typeof GitConnectionSchema>

export const GitConnectionInputSchema = Type.Object({
  url: Url,
  ref: Ref,
  repoProjectDirectory: Type.Optional(Type.String({ maxLength: 1024 })),
  repoCommitURL: Type.Optional(Type.String({ maxLength: 2048, ...patterned('^https?://', 'an http(s) URL') })),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'With token; default git' })),
  token: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 4096 }), Type.Null()], {
      description:
        'The password or access token, stored sealed. null removes the stored credentials; absent keeps them while the URL stays the same'
    })
  )
})
export type GitConnectionInput = Type.Static<typeof GitConnectionInputSchema>
