import { SpaceTeamParams, SpaceUserParams } from '../../../../src-shared/schemas/permissions'
import { SpaceParams } from '../../../../src-shared/schemas/spaces'
import type { Api } from '../../app'
import { spaceRoles } from '../../policies/access'
import { grantRoutes } from '../grantRoutes'
import { loadSpace } from './loaders'

/** Who holds a role on a space: invite, list, aggregate, change and remove (grantRoutes.ts). */
export default function spacePermissionRoutes(app: Api) {
  grantRoutes(app, {
    kind: 'space',
    base: '/v1/spaces',
    param: 'spaceId',
    tags: ['Spaces'],
    params: SpaceParams,
    userParams: SpaceUserParams,
    teamParams: SpaceTeamParams,
    load: (ctx, id, need) => loadSpace(ctx, id, need).space,
    roleOf: (ctx, space, userId) => spaceRoles(ctx, space.organization_id, [space], userId).get(space.id) ?? null
  })
}
