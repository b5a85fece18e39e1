import { copyRevision, createInitialRevision } from '../../content/revisions'
import { syncSearchIndex } from '../../content/searchIndex'
import { spaceRepository, type SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'

export interface SpaceCreateInput {
  organizationId: string
  parentId: string | null
  title?: string
  emoji?: string
  editMode?: string
  /** true: no first page. */
  empty?: boolean
  defaultLevel?: string | null
  visibility?: string
  /** Start from a copy of this revision's content instead of a fresh one (space duplicate). */
  copyRevisionFrom?: string | null
}

/** Creates a space with its first revision; the creator gets a direct admin grant on it. */
export function createSpace(ctx: Ctx, input: SpaceCreateInput): SpaceRow {
  const spaces = ctx.repo(spaceRepository)
  const space = spaces.create({
    organization_id: input.organizationId,
    parent_id: input.parentId,
    title: input.title?.trim() || 'Untitled space',
    emoji: input.emoji ?? '',
    visibility: input.visibility ?? (input.parentId ? 'in-collection' : 'private'),
    edit_mode: input.editMode ?? 'live',
    default_level: input.defaultLevel ?? null,
    position: spaces.nextPosition(input.organizationId, input.parentId),
    created_by: ctx.actor.id,
    created_at: ctx.now,
    updated_at: ctx.now
  })
  const pages = input.empty ? [] : [{ title: 'Introduction', markdown: '' }]
  const revision = input.copyRevisionFrom
    ? copyRevision(ctx.db, input.copyRevisionFrom, space.id, ctx.actor.id, ctx.now)
    : createInitialRevision(ctx.db, space.id, pages, ctx.actor.id, ctx.now)
  spaces.update(space.id, { revision_id: revision })
  syncSearchIndex(ctx.db, space.id, revision)
  spaces.setGrant(space.id, 'user', ctx.actor.id, 'admin', ctx.now)
  return spaces.get(space.id)!
}
