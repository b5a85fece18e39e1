// What a connected workspace says when its server is out of reach, or when a change request still has changes the
// server does not have. Which requests the copy answers or keeps is not decided here: each route declares it
// (`config.offline`, api/offline.ts).
import type { RouteMatch } from '../workspace/offline'
import { REUSABLE_CONTENT_OPERATIONS } from '../../src-shared/schemas/changeRequests'

export const needsServer = (host: string) =>
  `${host} is out of reach, and this change needs it. Change requests and their pages can be edited meanwhile: those edits are kept on this computer and sent when it answers`

export const filesNeedServer = (host: string) =>
  `${host} is out of reach: files can be added once it answers again (text edits are kept meanwhile)`

export const reusableNeedsServer = (host: string) =>
  `${host} is out of reach: reusable contents can be changed once it answers again (text edits of pages are kept meanwhile)`

export const notKeptOffline = (host: string) =>
  `Not available offline: ${host} is out of reach, and this computer keeps only organizations, spaces, their pages, change requests and their reviews`

export const reviewsNeedServer = (host: string) =>
  `${host} is out of reach: reviews and review requests go straight to it once it answers again (a review is of the change request as the server has it). Edits to change requests are kept meanwhile`

export const reviewsNotCopied = (host: string) =>
  `Reviews not found on this computer: this change request was not opened before ${host} went out of reach`

/** A route about a change request's reviews, requested reviewers or merge status. */
export const isReviewRoute = (route: RouteMatch | undefined): boolean =>
  !!route && /\/change-requests\/:changeRequestId\/(reviews|requested-reviewers|merge-rules)(\/|$)/.test(route.pattern)

/** Content batch operations the outbox does not keep: files (the copy keeps no bytes) and reusable contents. */
const SERVER_ONLY: Record<string, 'files' | 'reusable'> = {
  insert_files: 'files',
  ...Object.fromEntries(REUSABLE_CONTENT_OPERATIONS.map((op) => [op, 'reusable' as const]))
}

/** What in a content batch only the server can take now: `files`, `reusable` (contents), or undefined. */
export function serverOnlyChange(body: string | undefined): 'files' | 'reusable' | undefined {
  if (!body) return undefined
  try {
    const changes = (JSON.parse(body) as { changes?: unknown }).changes
    if (!Array.isArray(changes)) return undefined
    for (const c of changes) {
      const kind = SERVER_ONLY[String((c as { operation?: unknown } | null)?.operation)]
      if (kind) return kind
    }
  } catch {
    // not JSON: the route answers
  }
  return undefined
}

/** Why a write to a change request with unsent changes waits for them (it needs the server's version of it). */
export function heldWriteProblem(route: RouteMatch, files: boolean, host: string): string {
  const what = route.pattern.endsWith('/merge')
    ? 'it can be merged'
    : route.pattern.endsWith('/update')
      ? 'it can be updated'
      : files
        ? 'files can be added to it'
        : 'this change can be made'
  return `This change request has changes ${host} does not have yet: send them, or discard them (Unsent changes), before ${what}`
}
