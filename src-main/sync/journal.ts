// Writes made in a connected workspace's local copy go to its outbox in the same transaction that applies them
// (`Services.journal`), so the copy never holds a change the outbox does not have: a crash loses both or
// neither. A write is kept as the outbox command its route declares (`config.offline.queue`, api/offline.ts);
// any other write is undone.
import type { FastifyRequest } from 'fastify'
import type { ChangeRequest } from '../../src-shared/schemas/changeRequests'
import type { Ctx } from '../workspace/context'
import { ApiError } from '../base/errors'
import { getRevision } from '../content/revisions'
import { outbox, type OutboxKind } from './outbox'
import { REUSABLE_CONTENT_OPERATIONS } from '../../src-shared/schemas/changeRequests'

/** Appends the write `req` just made (answered with `result`) to the outbox, inside its transaction. */
export function journalWrite(req: FastifyRequest, ctx: Ctx, result: unknown): void {
  const offline = req.routeOptions.config.offline
  const kind: OutboxKind | undefined = typeof offline === 'object' ? offline.queue : undefined
  // Refused inside the transaction: the write is undone rather than kept where no replay would send it.
  if (!kind) throw new ApiError(503, `${req.method} ${req.url.split('?')[0]} cannot be made while the server is out of reach`)
  const operations = kind === 'content' ? ((req.body as { changes?: { operation?: string }[] }).changes ?? []).map((c) => c.operation) : []
  if (operations.includes('insert_files'))
    throw new ApiError(503, 'Files can be added once the server answers again (text edits are kept meanwhile)')
  if (operations.some((op) => (REUSABLE_CONTENT_OPERATIONS as readonly (string | undefined)[]).includes(op))) {
    throw new ApiError(503, 'Reusable contents can be changed once the server answers again (text edits of pages are kept meanwhile)')
  }
  // A content batch sent with `compat=false` answered the change request inside its ContentUpdate.
  const cr = ((result as { changeRequest?: ChangeRequest }).changeRequest ?? result) as ChangeRequest
  const spaceId = (req.params as { spaceId: string }).spaceId
  let base: string | null = null
  if (kind === 'create-change-request') base = cr.revisionInitial
  if (kind === 'content') {
    // The revision the batch was applied to is the one the new revision was made from.
    const parents = JSON.parse(getRevision(ctx.db, cr.revision)?.parents ?? '[]') as string[]
    base = parents[0] ?? null
  }
  outbox(ctx.db).append({
    method: req.method,
    path: kind === 'content' ? withoutCompat(req.url) : req.url,
    body: req.body === undefined ? null : JSON.stringify(req.body),
    kind,
    space_id: spaceId,
    change_request_id: cr.id,
    base_revision: base,
    result_revision: kind === 'update-change-request' ? null : cr.revision,
    created_at: ctx.now
  })
}

/** The replay reads the change request a batch answers: `compat=false` (a ContentUpdate answer) is the local caller's. */
function withoutCompat(url: string): string {
  const at = url.indexOf('?')
  if (at < 0) return url
  const query = new URLSearchParams(url.slice(at + 1))
  query.delete('compat')
  const rest = query.toString()
  return url.slice(0, at) + (rest ? `?${rest}` : '')
}
