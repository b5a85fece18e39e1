import { spaceRepository, type SpaceRow } from '../../storage/repositories/spaceRepository'
import type { Ctx } from '../../workspace/context'
import { createSpace } from './spaceCreator'

/** A copy of a space beside it: settings, the current content (documents shared by hash) and custom field values. */
export function duplicateSpace(ctx: Ctx, source: SpaceRow): SpaceRow {
  const spaces = ctx.repo(spaceRepository)
  const copy = createSpace(ctx, {
    organizationId: source.organization_id,
    parentId: source.parent_id,
    title: `${source.title} (copy)`.slice(0, 50),
    emoji: source.emoji,
    editMode: source.edit_mode,
    defaultLevel: source.default_level,
    visibility: source.visibility,
    empty: true,
    copyRevisionFrom: source.revision_id
  })
  spaces.copyCustomFieldValues(source.id, copy.id)
  return spaces.get(copy.id)!
}
