import { NoContent } from '../../../../src-shared/schemas/common'
import { checkMergeRules } from '../../policies/mergeRules'
import { OrgParams } from '../../../../src-shared/schemas/orgs'
import {
  SpaceCreateSchema,
  SpaceGetQuery,
  SpaceList,
  SpaceListQuery,
  SpaceParams,
  SpaceSchema,
  SpaceUpdateSchema
} from '../../../../src-shared/schemas/spaces'
import { siteShareLinkRepository } from '../../../storage/repositories/siteShareLinkRepository'
import { siteSpaceRepository } from '../../../storage/repositories/siteSpaceRepository'
import { spaceRepository, type SpacePatch } from '../../../storage/repositories/spaceRepository'
import type { Api } from '../../app'
import { createSpace } from '../../commands/spaceCreator'
import { read, write, type Ctx } from '../../../workspace/context'
import { badRequest, conflict } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { authorize, collectionRole, requireOrg, requireOrgRole, spaceListScope } from '../../policies/access'
import { presentSpace, presentSpaces } from '../../presenters/space'
import { placeUrl } from '../../presenters/siteSpace'
import { collectionInOrg, loadSpace } from './loaders'
import { SPACE_RESTORE_WINDOW_MS } from '../../../workspace/workspace'
import { auditChange } from '../../../workspace/audit'

/** The space's fields whose changes its audit event shows (wire name, column). */
const SPACE_AUDITED = [
  ['title', 'title'],
  ['emoji', 'emoji'],
  ['visibility', 'visibility'],
  ['editMode', 'edit_mode'],
  ['defaultLevel', 'default_level']
] as const

const tags = ['Spaces']

export default function spaceRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/spaces',
    {
      config: { offline: 'copy' },
      schema: {
        tags,
        summary: 'Spaces of an organization (not deleted)',
        params: OrgParams,
        querystring: SpaceListQuery,
        response: { 200: SpaceList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const orgId = req.params.organizationId
        requireOrg(ctx, orgId)
        const spaces = ctx.repo(spaceRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        if (req.query.deleted) {
          // The trash is for those who can restore: organization admins.
          requireOrgRole(ctx, orgId, 'admin')
          const since = new Date(Date.parse(ctx.now) - SPACE_RESTORE_WINDOW_MS).toISOString()
          const rows = spaces.listDeletedInOrg(orgId, since, after, limit + 1)
          const count = cachedCount(ctx, `trash:${orgId}:${since}`, () => spaces.countDeletedInOrg(orgId, since))
          return envelope(
            rows,
            limit,
            count,
            (r) => [r.seq],
            (page) => presentSpaces(page, ctx)
          )
        }
        const scope = spaceListScope(ctx, orgId)
        const rows = scope.all
          ? spaces.listLiveInOrg(orgId, after, limit + 1)
          : spaces.listLiveInOrgScoped(orgId, after, scope.principals, scope.collectionIds, limit + 1)
        const count = scope.all
          ? cachedCount(ctx, `spaces:${orgId}`, () => spaces.countLiveInOrg(orgId))
          : cachedCount(ctx, `spaces:${orgId}:${scope.principals}:${scope.collectionIds}`, () =>
              spaces.countLiveInOrgScoped(orgId, scope.principals, scope.collectionIds)
            )
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentSpaces(page, ctx)
        )
      })
  )

  app.post(
    '/v1/orgs/:organizationId/spaces',
    {
      schema: {
        tags,
        summary: 'Create a space (with one page unless `empty`)',
        params: OrgParams,
        body: SpaceCreateSchema,
        response: { 201: SpaceSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const orgId = req.params.organizationId
        const b = req.body
        if (b.parent) {
          requireOrg(ctx, orgId)
          const parent = collectionInOrg(ctx, b.parent, orgId, 'parent')
          authorize(collectionRole(ctx, parent), 'create', 'Collection')
        } else {
          requireOrgRole(ctx, orgId, 'create')
        }
        const space = createSpace(ctx, {
          organizationId: orgId,
          parentId: b.parent ?? null,
          title: b.title,
          emoji: b.emoji,
          editMode: b.editMode,
          empty: b.empty
        })
        return presentSpace(space, ctx)
      })
      return reply.code(201).send(body)
    }
  )

  app.get(
    '/v1/spaces/:spaceId',
    {
      config: { offline: 'copy' },
      schema: { tags, summary: 'Get a space', params: SpaceParams, querystring: SpaceGetQuery, response: { 200: SpaceSchema } }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'view', { includeDeleted: true })
        const { shareKey } = req.query
        const presented = presentSpace(space, ctx)
        if (shareKey !== undefined) presented.urls.published = sharedPublishedUrl(ctx, space.id, shareKey)
        return presented
      })
  )

  app.patch(
    '/v1/spaces/:spaceId',
    { schema: { tags, summary: 'Update a space', params: SpaceParams, body: SpaceUpdateSchema, response: { 200: SpaceSchema } } },
    async (req) =>
      write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        const b = req.body
        const patch: SpacePatch = {}
        if (b.title !== undefined) patch.title = b.title
        if (b.emoji !== undefined) patch.emoji = b.emoji
        if (b.editMode !== undefined) patch.edit_mode = b.editMode
        if (b.defaultLevel !== undefined) patch.default_level = b.defaultLevel
        if (b.mergeRules !== undefined) {
          checkMergeRules(ctx, space.organization_id, b.mergeRules)
          patch.merge_rules = b.mergeRules.type === 'inherit' ? null : JSON.stringify(b.mergeRules)
        }
        if (b.visibility !== undefined) {
          // The same rule as a move to the root: `in-collection` only exists inside a collection.
          if (b.visibility === 'in-collection' && !space.parent_id)
            throw badRequest('visibility: in-collection is only for a space in a collection')
          patch.visibility = b.visibility
        }
        if (Object.keys(patch).length) patch.updated_at = ctx.now
        const spaces = ctx.repo(spaceRepository)
        spaces.update(space.id, patch)
        for (const [field, column] of SPACE_AUDITED) auditChange(ctx, field, space[column], patch[column])
        return presentSpace(spaces.get(space.id)!, ctx)
      })
  )

  app.delete(
    '/v1/spaces/:spaceId',
    { schema: { tags, summary: 'Delete a space (restorable for 7 days)', params: SpaceParams, response: { 205: NoContent } } },
    async (req, reply) => {
      write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        ctx.repo(spaceRepository).update(space.id, { deleted_at: ctx.now, updated_at: ctx.now })
      })
      return reply.code(205).send()
    }
  )

  app.post(
    '/v1/spaces/:spaceId/restore',
    { schema: { tags, summary: 'Restore a space deleted in the last 7 days', params: SpaceParams, response: { 200: SpaceSchema } } },
    async (req) =>
      write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin', { includeDeleted: true })
        if (!space.deleted_at) throw conflict('The space is not deleted')
        const spaces = ctx.repo(spaceRepository)
        // A deleted parent collection set parent_id to null (foreign key): the space comes back at the root.
        spaces.update(space.id, {
          deleted_at: null,
          updated_at: ctx.now,
          position: spaces.nextPosition(space.organization_id, space.parent_id)
        })
        return presentSpace(spaces.get(space.id)!, ctx)
      })
  )
}

/**
 * `urls.published` of a space asked for with a share key: where the link's site shows it, carrying the key. 400
 * unless the key opens an active share link of a published site showing the space.
 */
function sharedPublishedUrl(ctx: Ctx, spaceId: string, shareKey: string): string {
  const link = ctx.repo(siteShareLinkRepository).activeByKey(shareKey)
  const place = link && ctx.repo(siteSpaceRepository).publishedPlaceOn(link.site_id, spaceId)
  if (!place) throw badRequest('shareKey: not the key of an active share link of a published site showing this space')
  return placeUrl(ctx, place, shareKey)
}
