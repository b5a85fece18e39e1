import type Type from 'typebox'
import {
  CollectionMoveSchema,
  CollectionParams,
  CollectionSchema,
  CollectionTransferSchema
} from '../../../../src-shared/schemas/collections'
import { collectionRepository, type CollectionRow } from '../../../storage/repositories/collectionRepository'
import { spaceRepository } from '../../../storage/repositories/spaceRepository'
import type { Api } from '../../app'
import { transferCollection } from '../../commands/collectionTransferrer'
import { anchorOf, positionAmong } from '../../commands/positioning'
import { write, type Ctx } from '../../../workspace/context'
import { badRequest, forbidden } from '../../../base/errors'
import { requireOrgRole } from '../../policies/access'
import { canCreateIn } from '../../policies/collection'
import { presentCollection } from '../../presenters/collection'
import { loadCollection, parentCollection } from './load'

const tags = ['Collections']

type MoveBody = Type.Static<typeof CollectionMoveSchema>

export default function collectionStructureRoutes(app: Api) {
  app.post(
    '/v1/collections/:collectionId/move',
    {
      schema: {
        tags,
        summary: 'Move a collection under another parent or among its siblings',
        params: CollectionParams,
        body: CollectionMoveSchema,
        response: { 200: CollectionSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { row } = loadCollection(ctx, req.params.collectionId, 'admin')
        const collections = ctx.repo(collectionRepository)
        const parentId = targetParent(ctx, row, req.body.parent)
        const position = placeAmongSiblings(ctx, row, parentId, req.body.position)
        collections.update(row.id, { parent_id: parentId, position, updated_at: ctx.now })
        ctx.memo.clear()
        const moved = collections.get(row.id)!
        return presentCollection(moved, ctx)
      })
  )

  app.post(
    '/v1/collections/:collectionId/transfer',
    {
      schema: {
        tags,
        summary: 'Transfer a collection, with its nested collections and spaces, to another organization',
        params: CollectionParams,
        body: CollectionTransferSchema,
        response: { 200: CollectionSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const { row } = loadCollection(ctx, req.params.collectionId, 'admin')
        const target = req.body.organization
        if (target === row.organization_id) throw badRequest('organization: the collection is already in this organization')
        requireOrgRole(ctx, target, 'create')
        transferCollection(ctx, { collection: row, organizationId: target })
        ctx.memo.clear()
        const moved = ctx.repo(collectionRepository).get(row.id)!
        return presentCollection(moved, ctx)
      })
  )
}

/** The parent after the move: unchanged when `parent` is absent; otherwise checked (same org, no cycle, may create there). */
function targetParent(ctx: Ctx, row: CollectionRow, parent: string | null | undefined): string | null {
  if (parent === undefined || parent === row.parent_id) return row.parent_id
  let target: CollectionRow | null = null
  if (parent !== null) {
    target = parentCollection(ctx, row.organization_id, parent)
    if (ctx.repo(collectionRepository).subtree(row.id).includes(target.id)) {
      throw badRequest('parent: a collection cannot move into itself or one of its nested collections')
    }
  }
  if (!canCreateIn(ctx, row.organization_id, target)) {
    throw forbidden('Moving a collection there needs the create role in the organization or on the target collection')
  }
  return parent
}

/**
 * Position of the collection among the spaces and collections of its (new) parent: beside the anchor, or after
 * the last sibling when no anchor is given.
 */
function placeAmongSiblings(ctx: Ctx, row: CollectionRow, parentId: string | null, position: MoveBody['position']): number {
  const spaces = ctx.repo(spaceRepository)
  const anchor = anchorOf(position, (ref) =>
    ref.type === 'space' ? { kind: 'space', id: String(ref.space) } : { kind: 'collection', id: String(ref.collection) }
  )
  if (anchor?.kind === 'collection' && anchor.id === row.id) throw badRequest(`position.${anchor.side}: cannot be the collection itself`)
  const siblings = spaces.siblings(row.organization_id, parentId).filter((s) => !(s.kind === 'collection' && s.id === row.id))
  return positionAmong(siblings, anchor, (spaced) => spaced.forEach((s) => spaces.setPosition(s.kind, s.id, s.position)))
}
