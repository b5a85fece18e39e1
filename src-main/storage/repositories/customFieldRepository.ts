import type { Db } from '../database'
import { newId } from '../ids'
import { updateById } from './patch'

export interface CustomFieldRow {
  seq: number
  id: string
  organization_id: string
  name: string
  type: string
  title: string | null
  description: string | null
  placeholder: string | null
  /** JSON array of strings, or NULL. */
  options: string | null
  created_at: string
  updated_at: string
}

export interface FieldValueRow {
  field_id: string
  /** JSON. */
  value: string
}

export type CustomFieldPatch = Partial<Pick<CustomFieldRow, 'title' | 'description' | 'placeholder' | 'options' | 'updated_at'>>

export function customFieldRepository(db: Db) {
  const byName = db.prepare<[string, string], CustomFieldRow>('SELECT * FROM custom_fields WHERE organization_id = ? AND name = ?')
  const byId = db.prepare<[string], CustomFieldRow>('SELECT * FROM custom_fields WHERE id = ?')
  const byNames = db.prepare<[string, string], CustomFieldRow>(
    'SELECT * FROM custom_fields WHERE organization_id = ? AND name IN (SELECT value FROM json_each(?))'
  )
  const inOrg = db.prepare<[string, number, number], CustomFieldRow>(
    'SELECT * FROM custom_fields WHERE organization_id = ? AND seq > ? ORDER BY seq LIMIT ?'
  )
  const countInOrg = db.prepare<[string], number>('SELECT count(*) FROM custom_fields WHERE organization_id = ?').pluck()
  const insert = db.prepare(
    `INSERT INTO custom_fields (id, organization_id, name, type, title, description, placeholder, options, created_at, updated_at)
     VALUES (@id, @organization_id, @name, @type, @title, @description, @placeholder, @options, @created_at, @updated_at)`
  )
  const remove = db.prepare('DELETE FROM custom_fields WHERE id = ?')
  const valuesOfSpace = db.prepare<[string, string], CustomFieldRow & { value: string }>(
    `SELECT f.*, v.value FROM space_custom_field_values v JOIN custom_fields f ON f.id = v.field_id
     WHERE v.space_id = ? AND f.organization_id = ? ORDER BY f.seq`
  )
  const valuesOfField = db.prepare<[string], { space_id: string; value: string }>(
    'SELECT space_id, value FROM space_custom_field_values WHERE field_id = ?'
  )
  const upsertValue = db.prepare(
    `INSERT INTO space_custom_field_values (space_id, field_id, value) VALUES (?, ?, ?)
     ON CONFLICT (space_id, field_id) DO UPDATE SET value = excluded.value`
  )
  const deleteValue = db.prepare('DELETE FROM space_custom_field_values WHERE space_id = ? AND field_id = ?')
  // Values of fields that belong to another organization than the space's (after a transfer).
  const dropForeign = db.prepare(
    `DELETE FROM space_custom_field_values WHERE space_id IN (SELECT value FROM json_each(?))
     AND field_id NOT IN (SELECT id FROM custom_fields WHERE organization_id = ?)`
  )

  return {
    get: (id: string) => byId.get(id),
    getByName: (orgId: string, name: string) => byName.get(orgId, name),
    /** Fields of the organization by name, in one query. */
    getManyByNames(orgId: string, names: string[]): Map<string, CustomFieldRow> {
      return new Map(names.length ? byNames.all(orgId, JSON.stringify(names)).map((f) => [f.name, f]) : [])
    },
    listInOrg: (orgId: string, afterSeq: number, limit: number) => inOrg.all(orgId, afterSeq, limit),
    countInOrg: (orgId: string) => countInOrg.get(orgId)!,
    create(
      input: Pick<CustomFieldRow, 'organization_id' | 'name' | 'type' | 'title' | 'description' | 'placeholder' | 'options'>,
      now: string
    ): CustomFieldRow {
      const id = newId()
      insert.run({ ...input, id, created_at: now, updated_at: now })
      return byId.get(id)!
    },
    update(id: string, patch: CustomFieldPatch): void {
      updateById(db, 'custom_fields', id, patch)
    },
    /** Removes the field; its values on spaces go with it (ON DELETE CASCADE). */
    delete: (id: string) => void remove.run(id),
    /** The space's values with their fields (those of the space's organization), in the fields' creation order. */
    valuesOfSpace: (spaceId: string, orgId: string) => valuesOfSpace.all(spaceId, orgId),
    valuesOfField: (fieldId: string) => valuesOfField.all(fieldId),
    setValue(spaceId: string, fieldId: string, value: unknown): void {
      if (value === null) deleteValue.run(spaceId, fieldId)
      else upsertValue.run(spaceId, fieldId, JSON.stringify(value))
    },
    dropValuesOfOtherOrgs(spaceIds: string[], orgId: string): void {
      if (spaceIds.length) dropForeign.run(JSON.stringify(spaceIds), orgId)
    }
  }
}
