import { NoContent } from '../../../../src-shared/schemas/common'
import {
  CustomFieldCreateSchema,
  CustomFieldList,
  CustomFieldListQuery,
  CustomFieldOrgParams,
  CustomFieldParams,
  CustomFieldSchema,
  CustomFieldUpdateSchema,
  OPTION_TYPES,
  type CustomFieldType
} from '../../../../src-shared/schemas/customFields'
import { customFieldRepository, type CustomFieldPatch, type CustomFieldRow } from '../../../storage/repositories/customFieldRepository'
import type { Api } from '../../app'
import { read, write, type Ctx } from '../../../workspace/context'
import { badRequest, conflict, notFound } from '../../../base/errors'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { requireOrgMember, requireOrgRole } from '../../policies/access'
import { presentCustomField } from '../../presenters/customField'
import spaceCustomFieldRoutes from './spaceValues'

const tags = ['Custom fields']

export default function customFieldRoutes(app: Api) {
  app.get(
    '/v1/orgs/:organizationId/custom-fields',
    {
      schema: {
        tags,
        summary: 'Custom fields of an organization',
        params: CustomFieldOrgParams,
        querystring: CustomFieldListQuery,
        response: { 200: CustomFieldList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const orgId = req.params.organizationId
        requireOrgMember(ctx, orgId)
        const fields = ctx.repo(customFieldRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const [after = 0] = decodeCursor(req.query.page, ['integer']) ?? []
        const rows = fields.listInOrg(orgId, after, limit + 1)
        const count = cachedCount(ctx, `custom-fields:${orgId}`, () => fields.countInOrg(orgId))
        return envelope(
          rows,
          limit,
          count,
          (r) => [r.seq],
          (page) => page.map((r) => presentCustomField(r, ctx))
        )
      })
  )

  app.post(
    '/v1/orgs/:organizationId/custom-fields',
    {
      schema: {
        tags,
        summary: 'Create a custom field (organization admins)',
        params: CustomFieldOrgParams,
        body: CustomFieldCreateSchema,
        response: { 201: CustomFieldSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const orgId = req.params.organizationId
        requireOrgRole(ctx, orgId, 'admin')
        const b = req.body
        checkOptions(b.type, b.options, true)
        const fields = ctx.repo(customFieldRepository)
        if (fields.getByName(orgId, b.name)) throw conflict(`name: a custom field named ${b.name} already exists in this organization`)
        const row = fields.create(
          {
            organization_id: orgId,
            name: b.name,
            type: b.type,
            title: b.title ?? null,
            description: b.description ?? null,
            placeholder: b.placeholder ?? null,
            options: b.options ? JSON.stringify(b.options) : null
          },
          ctx.now
        )
        return presentCustomField(row, ctx)
      })
      return reply.code(201).send(body)
    }
  )

  app.get(
    '/v1/orgs/:organizationId/custom-fields/:fieldName',
    { schema: { tags, summary: 'Get a custom field', params: CustomFieldParams, response: { 200: CustomFieldSchema } } },
    async (req) =>
      read(req, (ctx) => {
        requireOrgMember(ctx, req.params.organizationId)
        return presentCustomField(loadField(ctx, req.params.organizationId, req.params.fieldName), ctx)
      })
  )

  app.patch(
    '/v1/orgs/:organizationId/custom-fields/:fieldName',
    {
      schema: {
        tags,
        summary: 'Update a custom field (its name and type cannot change)',
        params: CustomFieldParams,
        body: CustomFieldUpdateSchema,
        response: { 200: CustomFieldSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const b = req.body
        if (b.type !== undefined) throw badRequest('type: cannot be changed')
        requireOrgRole(ctx, req.params.organizationId, 'admin')
        const field = loadField(ctx, req.params.organizationId, req.params.fieldName)
        const fields = ctx.repo(customFieldRepository)
        const patch: CustomFieldPatch = {}
        if (b.title !== undefined) patch.title = b.title
        if (b.description !== undefined) patch.description = b.description
        if (b.placeholder !== undefined) patch.placeholder = b.placeholder
        if (b.options !== undefined) {
          checkOptions(field.type as CustomFieldType, b.options, false)
          patch.options = JSON.stringify(b.options)
          dropRemovedOptions(ctx, field, new Set(b.options))
        }
        if (Object.keys(patch).length) fields.update(field.id, { ...patch, updated_at: ctx.now })
        return presentCustomField(fields.get(field.id)!, ctx)
      })
  )

  app.delete(
    '/v1/orgs/:organizationId/custom-fields/:fieldName',
    {
      schema: { tags, summary: 'Delete a custom field and its values on spaces', params: CustomFieldParams, response: { 204: NoContent } }
    },
    async (req, reply) => {
      write(req, (ctx) => {
        requireOrgRole(ctx, req.params.organizationId, 'admin')
        const field = loadField(ctx, req.params.organizationId, req.params.fieldName)
        ctx.repo(customFieldRepository).delete(field.id)
      })
      return reply.code(204).send()
    }
  )

  spaceCustomFieldRoutes(app)
}

function loadField(ctx: Ctx, orgId: string, name: string): CustomFieldRow {
  const field = ctx.repo(customFieldRepository).getByName(orgId, name)
  if (!field) throw notFound('Custom field')
  return field
}

/** Select types need their options (distinct); the other types take none. */
function checkOptions(type: CustomFieldType, options: string[] | undefined, creating: boolean): void {
  const takesOptions = OPTION_TYPES.includes(type)
  if (options === undefined) {
    if (creating && takesOptions) throw badRequest(`options: is required for ${type} fields`)
    return
  }
  if (!takesOptions) throw badRequest(`options: only select and multi-select fields take options, not ${type}`)
  const seen = new Set<string>()
  for (const [i, option] of options.entries()) {
    if (seen.has(option)) throw badRequest(`options.${i}: ${option} is repeated; options must be distinct`)
    seen.add(option)
  }
}

/**
 * When options are removed, values that used them go: a select value is removed, a multi-select value keeps
 * its remaining options (and is removed when none remain), so no space holds a value its field refuses.
 */
function dropRemovedOptions(ctx: Ctx, field: CustomFieldRow, allowed: Set<string>): void {
  const fields = ctx.repo(customFieldRepository)
  for (const { space_id, value } of fields.valuesOfField(field.id)) {
    const parsed = JSON.parse(value) as string | string[]
    if (Array.isArray(parsed)) {
      const kept = parsed.filter((o) => allowed.has(o))
      if (kept.length !== parsed.length) fields.setValue(space_id, field.id, kept.length ? kept : null)
    } else if (!allowed.has(parsed)) {
      fields.setValue(space_id, field.id, null)
    }
  }
}
