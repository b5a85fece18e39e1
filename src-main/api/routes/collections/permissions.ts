import { CollectionParams } from '../../../../src-shared/schemas/collections'
import { CollectionTeamParams, CollectionUserParams } from '../../../../src-shared/schemas/permissions'
import type { Api } from '../../app'
import { collectionRole } from '../../policies/access'
import { grantRoutes } from '../grantRoutes'
import { loadCollection } from './load'

/** Who holds a role on a collection: invite, list, aggregate, change and remove (grantRoutes.ts). */
export default function collectionPermissionRoutes(app: Api) {
  grantRoutes(app, {
    kind: 'collection',
    base: '/v1/collections',
    param: 'collectionId',
    tags: ['Collections'],
    params: CollectionParams,
    userParams: CollectionUserParams,
    teamParams: CollectionTeamParams,
    load: (ctx, id, need) => loadCollection(ctx, id, need).row,
    roleOf: (ctx, collection, userId) => collectionRole(ctx, collection, userId)
  })
}
