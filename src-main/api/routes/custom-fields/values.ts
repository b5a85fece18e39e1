import { TEXT_VALUE_MAX, type CustomFieldType } from '../../../../src-shared/schemas/customFields'
import type { CustomFieldRow } from '../../../storage/repositories/customFieldRepository'

/**
 * Checks a value against its field. Returns the value to store (null: remove it) or the rule it breaks, in the
 * words of the validation messages.
 */
export function checkValue(field: CustomFieldRow, value: unknown): { ok: true; value: unknown } | { ok: false; rule: string } {
  if (value === null) return { ok: true, value: null }
  const options = field.options ? (JSON.parse(field.options) as string[]) : []
  switch (field.type as CustomFieldType) {
    case 'text':
      // Counted in characters (code points), as the schema limits are.
      return typeof value === 'string' && [...value].length <= TEXT_VALUE_MAX
        ? { ok: true, value }
        : { ok: false, rule: `must be a string of at most ${TEXT_VALUE_MAX} characters` }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { ok: true, value } : { ok: false, rule: 'must be a number' }
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, rule: 'must be a boolean' }
    case 'select':
      return typeof value === 'string' && options.includes(value)
        ? { ok: true, value }
        : { ok: false, rule: `must be one of: ${options.join(', ')}` }
    case 'multi-select': {
      const valid =
        Array.isArray(value) && value.every((v) => typeof v === 'string' && options.includes(v)) && new Set(value).size === value.length
      if (!valid) return { ok: false, rule: `must be an array of distinct values from: ${options.join(', ')}` }
      // No option selected is no value, so the field is not listed on the space.
      return { ok: true, value: value.length ? value : null }
    }
    default:
      return { ok: false, rule: `cannot be set on a field of type ${field.type}` }
  }
}
