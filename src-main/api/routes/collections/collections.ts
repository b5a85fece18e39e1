import { NoContent } from '../../../../src-shared/schemas/common'
import {
  CollectionCreateSchema,
  CollectionList,
  CollectionListQuery,
  CollectionOrgParams,
  CollectionParams,
  CollectionSchema,
  CollectionSpacesQuery,
  CollectionUpdateSchema
} from '../../../../src-shared/schemas/collections'
import { SpaceList } from '../../../../src-shared/schemas/spaces'
import { collectionRepository, type CollectionPatch, type CollectionRow } from '../../../storage/repositories/collectionRepository'
import { spaceRepository } from '../../../storage/repositories/spaceRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { forbidden } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { collectionRole, requireOrg } from '../../policies/access'
import { canCreateIn } from '../../policies/collection'
import { presentCollection, presentCollections } from '../../presenters/collection'
import { presentSpaces } from '../../presenters/space'
import { loadCollection, parentCollection } from './load'
import collectionStructureRoutes from './structure'
import collectionPermissionRoutes from './permissions'
import { auditChange } from '../../../workspace/audit'

const tags = ['Collections']
const DEFAULT_TITLE = 'Untitled collection'

export default function collectionRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/collections',
    {
      config: { offline: 'copy' },
      schema: {
        tags,
        summary: 'Collections of an organization that the caller can see',
        params: CollectionOrgParams,
        querystring: CollectionListQuery,
        response: { 200: CollectionList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const orgId = req.params.organizationId
        const { member } = requireOrg(ctx, orgId)
        const collections = ctx.repo(collectionRepository)
        const rootsOnly = req.query.nested === false
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        let rows: CollectionRow[]
        let count: number
        if (member.role !== null) {
          // Non-guest members see every collection of the organization.
          rows = collections.listInOrg(orgId, rootsOnly, after, limit + 1)
          count = cachedCount(ctx, `collections:${orgId}:${rootsOnly ? 'roots' : 'all'}`, () => collections.countInOrg(orgId, rootsOnly))
        } else {
          // Guests see the collections they hold a grant on (directly, through a team or an ancestor).
          const visible = collections
            .skeleton(orgId)
            .filter((c) => (!rootsOnly || c.parent_id === null) && collectionRole(ctx, c) !== null)
            .map((c) => c.id)
          rows = collections.listByIds(visible, after, limit + 1)
          count = visible.length
        }
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentCollections(page, ctx)
        )
      })
  )

  app.post(
    '/v1/orgs/:organizationId/collections',
    {
      schema: {
        tags,
        summary: 'Create a collection (the creator becomes its admin)',
        params: CollectionOrgParams,
        body: CollectionCreateSchema,
        response: { 201: CollectionSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const orgId = req.params.organizationId
        requireOrg(ctx, orgId)
        const parent = req.body.parent !== undefined ? parentCollection(ctx, orgId, req.body.parent) : null
        if (!canCreateIn(ctx, orgId, parent)) {
          throw forbidden('Creating a collection needs the create role in the organization or on the parent collection')
        }
        const collections = ctx.repo(collectionRepository)
        const parentId = parent?.id ?? null
        const row = collections.create(
          {
            organization_id: orgId,
            parent_id: parentId,
            title: req.body.title ?? DEFAULT_TITLE,
            position: ctx.repo(spaceRepository).nextPosition(orgId, parentId)
          },
          ctx.now
        )
        // A direct admin grant, so a member with the create role manages what they made.
        collections.setGrant(row.id, 'user', ctx.actor.id, 'admin', ctx.now)
        ctx.memo.clear()
        return presentCollection(row, ctx)
      })
      return reply.code(201).send(body)
    }
  )

  app.get(
    '/v1/collections/:collectionId',
    {
      config: { offline: 'copy' },
      schema: { tags, summary: 'Get a collection', params: CollectionParams, response: { 200: CollectionSchema } }
    },
    async (req) =>
      read(req, (ctx) => {
        const { row } = loadCollection(ctx, req.params.collectionId, 'view')
        return presentCollection(row, ctx)
      })
  )

  app.patch(
    '/v1/collections/:collectionId',
    {
      schema: {
        tags,
        summary: 'Update a collection',
        params: CollectionParams,
        body: CollectionUpdateSchema,
        response: { 200: CollectionSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { row } = loadCollection(ctx, req.params.collectionId, 'admin')
        const collections = ctx.repo(collectionRepository)
        const b = req.body
        const patch: CollectionPatch = {}
        if (b.title !== undefined) patch.title = b.title
        if (b.description !== undefined) patch.description = b.description || null
        if (b.defaultLevel !== undefined) patch.default_level = b.defaultLevel
        if (Object.keys(patch).length) collections.update(row.id, { ...patch, updated_at: ctx.now })
        auditChange(ctx, 'title', row.title, patch.title)
        auditChange(ctx, 'description', row.description, patch.description)
        auditChange(ctx, 'defaultLevel', row.default_level, patch.default_level)
        ctx.memo.clear()
        const updated = collections.get(row.id)!
        return presentCollection(updated, ctx)
      })
  )

  app.delete(
    '/v1/collections/:collectionId',
    {
      schema: {
        tags,
        summary: 'Delete a collection, its nested collections, and (soft) the spaces in them',
        params: CollectionParams,
        response: { 205: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { row } = loadCollection(ctx, req.params.collectionId, 'admin')
        const collections = ctx.repo(collectionRepository)
        collections.deleteWithSpaces(collections.subtree(row.id), ctx.now)
      })
      return reply.code(205).send()
    }
  )

  app.get(
    '/v1/collections/:collectionId/spaces',
    {
      config: { offline: 'copy' },
      schema: {
        tags,
        summary: 'Spaces directly in a collection (not deleted)',
        params: CollectionParams,
        querystring: CollectionSpacesQuery,
        response: { 200: SpaceList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        // Whoever sees the collection sees its spaces: a space's role is at least the one inherited from it.
        const { row } = loadCollection(ctx, req.params.collectionId, 'view')
        const spaces = ctx.repo(spaceRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = spaces.listLiveInCollection(row.id, after, limit + 1)
        const count = cachedCount(ctx, `collection-spaces:${row.id}`, () => spaces.countLiveInCollection(row.id))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => presentSpaces(page, ctx)
        )
      })
  )

  collectionStructureRoutes(app)
  collectionPermissionRoutes(app)
}
