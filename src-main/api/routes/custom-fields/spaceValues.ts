import { NoContent } from '../../../../src-shared/schemas/common'
import { SpaceCustomFieldParams, SpaceCustomFieldsUpdateSchema, SpaceCustomFieldValues } from '../../../../src-shared/schemas/customFields'
import { customFieldRepository } from '../../../storage/repositories/customFieldRepository'
import { spaceRepository } from '../../../storage/repositories/spaceRepository'
import type { Api } from '../../app'
import { read, write } from '../../../workspace/context'
import { badRequest, forbidden } from '../../../base/errors'
import { spacePermissions } from '../../policies/space'
import { presentCustomFieldValues } from '../../presenters/customField'
import { loadSpace } from '../spaces/loaders'
import { checkValue } from './values'

const tags = ['Custom fields']

export default function spaceCustomFieldRoutes(app: Api) {
  app.get(
    '/v1/spaces/:spaceId/custom-fields',
    {
      schema: {
        tags,
        summary: 'Custom field values of a space (only the fields that have a value)',
        params: SpaceCustomFieldParams,
        response: { 200: SpaceCustomFieldValues }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const { space } = loadSpace(ctx, req.params.spaceId, 'view')
        return presentCustomFieldValues(ctx.repo(customFieldRepository).valuesOfSpace(space.id, space.organization_id), ctx)
      })
  )

  app.patch(
    '/v1/spaces/:spaceId/custom-fields',
    {
      schema: {
        tags,
        summary: 'Set or remove custom field values of a space (all or nothing)',
        params: SpaceCustomFieldParams,
        body: SpaceCustomFieldsUpdateSchema,
        response: { 204: NoContent }
      }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        const { space, role } = loadSpace(ctx, req.params.spaceId, 'view')
        // The same rule as the space's `permissions.edit` (a locked space refuses edits).
        if (!spacePermissions(role, space.edit_mode).edit) {
          throw forbidden(
            space.edit_mode === 'locked' ? 'The space is locked: its edits are refused' : 'This operation needs the edit role on this space'
          )
        }
        const fields = ctx.repo(customFieldRepository)
        const names = Object.keys(req.body.values)
        const byName = fields.getManyByNames(space.organization_id, names)
        // Check every value before writing any: one bad value changes nothing.
        const writes = names.map((name) => {
          const field = byName.get(name)
          if (!field) throw badRequest(`values.${name}: no custom field named ${name} in this organization`)
          const checked = checkValue(field, req.body.values[name]!.value)
          if (!checked.ok) throw badRequest(`values.${name}.value: ${checked.rule}`)
          return { fieldId: field.id, value: checked.value }
        })
        for (const w of writes) fields.setValue(space.id, w.fieldId, w.value)
        if (writes.length) ctx.repo(spaceRepository).update(space.id, { updated_at: ctx.now })
      })
      return reply.code(204).send()
    }
  )
}
