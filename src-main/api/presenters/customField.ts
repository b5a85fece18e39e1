import type { CustomField, CustomFieldType, SpaceCustomFieldValue } from '../../../src-shared/schemas/customFields'
import type { CustomFieldRow } from '../../storage/repositories/customFieldRepository'
import type { Ctx } from '../../workspace/context'
import { membership } from '../policies/access'
import { customFieldPermissions } from '../policies/customField'

export function presentCustomField(row: CustomFieldRow, ctx: Ctx): CustomField {
  const field: CustomField = {
    id: row.id,
    name: row.name,
    type: row.type as CustomFieldType,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: { location: ctx.url(`/v1/orgs/${row.organization_id}/custom-fields/${row.name}`) },
    permissions: customFieldPermissions(membership(ctx, row.organization_id))
  }
  if (row.title != null) field.title = row.title
  if (row.description != null) field.description = row.description
  if (row.placeholder != null) field.placeholder = row.placeholder
  if (row.options != null) field.options = JSON.parse(row.options) as string[]
  return field
}

export function presentCustomFieldValues(rows: (CustomFieldRow & { value: string })[], ctx: Ctx): SpaceCustomFieldValue[] {
  return rows.map((row) => ({ customField: presentCustomField(row, ctx), value: JSON.parse(row.value) }))
}
