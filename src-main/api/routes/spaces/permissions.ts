import { NoContent } from '../../../../src-shared/schemas/common'
import { SpaceParams, SpacePermissionsSchema } from '../../../../src-shared/schemas/spaces'
import { organizationRepository } from '../../../storage/repositories/organizationRepository'
import { spaceRepository } from '../../../storage/repositories/spaceRepository'
import { userRepository } from '../../../storage/repositories/userRepository'
import type { Api } from '../../app'
import { write } from '../../../workspace/context'
import { badRequest } from '../../../base/errors'
import { loadSpace } from './loaders'

export default function spacePermissionRoutes(app: Api) {
  app.post(
    '/v1/spaces/:spaceId/permissions',
    {
      schema: {
        tags: ['Spaces'],
        summary: 'Grant a role on a space to users and teams (role null removes their grant)',
        params: SpaceParams,
        body: SpacePermissionsSchema,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'admin')
        const { role, users = [], teams = [] } = req.body
        if (!users.length && !teams.length) throw badRequest('users: give at least one user or team')
        const userRepo = ctx.repo(userRepository)
        const orgs = ctx.repo(organizationRepository)
        const spaces = ctx.repo(spaceRepository)
        users.forEach((ref, i) => {
          const user = ref.includes('@') ? userRepo.getByEmail(ref) : userRepo.get(ref)
          if (!user || !orgs.member(space.organization_id, user.id)) {
            throw badRequest(`users.${i}: ${ref} is not a member of the space's organization`)
          }
          spaces.setGrant(space.id, 'user', user.id, role, ctx.now)
        })
        teams.forEach((teamId, i) => {
          if (spaces.teamOrganization(teamId) !== space.organization_id) throw badRequest(`teams.${i}: no team ${teamId} in the space's organization`)
          spaces.setGrant(space.id, 'team', teamId, role, ctx.now)
        })
      })
      return reply.code(204).send()
    }
  )
}
