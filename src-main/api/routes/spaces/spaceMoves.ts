import { SpaceMoveSchema, SpaceParams, SpaceSchema, SpaceTransferSchema } from '../../../../src-shared/schemas/spaces'
import { spaceRepository } from '../../../storage/repositories/spaceRepository'
import type { Api } from '../../app'
import { anchorOf, positionAmong } from '../../commands/positioning'
import { duplicateSpace } from '../../commands/spaceDuplicator'
import { write } from '../../../workspace/context'
import { badRequest } from '../../../base/errors'
import { authorize, collectionRole, requireOrg, requireOrgRole } from '../../policies/access'
import { presentSpace } from '../../presenters/space'
import { collectionInOrg, loadSpace } from './loaders'

const tags = ['Spaces']

export default function spaceMoveRoutes(app: Api) {
  app.post(
    '/v1/spaces/:spaceId/duplicate',
    { schema: { tags, summary: 'Duplicate a space beside it', params: SpaceParams, response: { 201: SpaceSchema } } },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'view')
        if (space.parent_id)
          authorize(collectionRole(ctx, { id: space.parent_id, organization_id: space.organization_id }), 'create', 'Collection')
        else requireOrgRole(ctx, space.organization_id, 'create')
        return presentSpace(duplicateSpace(ctx, space), ctx)
      })
      return reply.code(201).send(body)
    }
  )

  app.post(
    '/v1/spaces/:spaceId/move',
    {
      schema: {
        tags,
        summary: 'Move a space to another collection or position',
        params: SpaceParams,
        body: SpaceMoveSchema,
        response: { 200: SpaceSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        const spaces = ctx.repo(spaceRepository)
        const orgId = space.organization_id
        let parentId = space.parent_id
        if (req.body.parent !== undefined && req.body.parent !== space.parent_id) {
          parentId = req.body.parent
          if (parentId) authorize(collectionRole(ctx, collectionInOrg(ctx, parentId, orgId, 'parent')), 'create', 'Collection')
          else requireOrgRole(ctx, orgId, 'create')
        }
        const anchor = anchorOf(req.body.position, (ref) =>
          ref.type === 'space' ? { kind: 'space', id: String(ref.space) } : { kind: 'collection', id: String(ref.collection) }
        )
        const siblings = spaces.siblings(orgId, parentId).filter((s) => !(s.kind === 'space' && s.id === space.id))
        const position = positionAmong(siblings, anchor, (spaced) => spaced.forEach((s) => spaces.setPosition(s.kind, s.id, s.position)))
        // `in-collection` visibility only exists inside a collection.
        const visibility = !parentId && space.visibility === 'in-collection' ? 'private' : space.visibility
        spaces.update(space.id, { parent_id: parentId, position, visibility, updated_at: ctx.now })
        return presentSpace(spaces.get(space.id)!, ctx)
      })
  )

  app.post(
    '/v1/spaces/:spaceId/transfer',
    {
      schema: {
        tags,
        summary: 'Transfer a space to another organization',
        params: SpaceParams,
        body: SpaceTransferSchema,
        response: { 200: SpaceSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        const target = req.body.organization
        const spaces = ctx.repo(spaceRepository)
        requireOrg(ctx, target)
        const parentId = req.body.parent ?? null
        if (parentId) authorize(collectionRole(ctx, collectionInOrg(ctx, parentId, target, 'parent')), 'create', 'Collection')
        else requireOrgRole(ctx, target, 'create')
        if (target === space.organization_id && parentId === space.parent_id) {
          throw badRequest('organization: the space is already there')
        }
        spaces.update(space.id, {
          organization_id: target,
          parent_id: parentId,
          position: spaces.nextPosition(target, parentId),
          visibility: parentId ? space.visibility : space.visibility === 'in-collection' ? 'private' : space.visibility,
          updated_at: ctx.now
        })
        if (target !== space.organization_id) {
          // Custom fields and people belong to the old organization; the transferring admin keeps admin.
          spaces.dropCustomFieldValues(space.id)
          spaces.dropGrantsOutside(space.id, target)
          spaces.setGrant(space.id, 'user', ctx.actor.id, 'admin', ctx.now)
        }
        ctx.memo.clear()
        return presentSpace(spaces.get(space.id)!, ctx)
      })
  )
}
