// The custom field values form of a space: drafts per field type, the API's rules checked before sending, the
// body of `PATCH /v1/spaces/{id}/custom-fields` (changed fields only) and where an API 400 belongs. Pure.
import type { CustomField } from '../../api/types.ts'
import { fieldError } from '../../api/apiError.ts'

/** The API's limit for a `text` value (TEXT_VALUE_MAX in the shared schema; not imported, to keep TypeBox out). */
export const TEXT_MAX = 256

/** What a field's input holds: text and number as typed, a yes / no as `''` (no value), `'true'` or `'false'`. */
export type Draft = string | string[] | null
export type Drafts = Record<string, Draft>
export type StoredValue = string | number | boolean | string[]

/** Each field's input, from the values the space has (a field without one starts empty). */
export function initialDrafts(fields: CustomField[], values: { customField: { name: string }; value: StoredValue }[]): Drafts {
  const byName = new Map(values.map((v) => [v.customField.name, v.value]))
  return Object.fromEntries(fields.map((f) => [f.name, toDraft(f, byName.get(f.name))]))
}

function toDraft(field: CustomField, value: StoredValue | undefined): Draft {
  switch (field.type) {
    case 'multi-select':
      return Array.isArray(value) ? [...value] : []
    case 'select':
      return typeof value === 'string' ? value : null
    case 'boolean':
      return typeof value === 'boolean' ? String(value) : ''
    case 'number':
      return typeof value === 'number' ? String(value) : ''
    default:
      return typeof value === 'string' ? value : ''
  }
}

/**
 * The value a draft stands for (null: no value, which removes it), or the rule it breaks, in the API's words
 * (`src-main/api/routes/custom-fields/values.ts`).
 */
export function draftValue(field: CustomField, draft: Draft): { ok: true; value: StoredValue | null } | { ok: false; rule: string } {
  const options = field.options ?? []
  switch (field.type) {
    case 'text': {
      const text = typeof draft === 'string' ? draft : ''
      if (text === '') return { ok: true, value: null }
      return [...text].length <= TEXT_MAX
        ? { ok: true, value: text }
        : { ok: false, rule: `must be a string of at most ${TEXT_MAX} characters` }
    }
    case 'number': {
      const text = typeof draft === 'string' ? draft.trim() : ''
      if (text === '') return { ok: true, value: null }
      const n = Number(text)
      return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, rule: 'must be a number' }
    }
    case 'boolean':
      return { ok: true, value: draft === 'true' ? true : draft === 'false' ? false : null }
    case 'select':
      if (draft === null || draft === '') return { ok: true, value: null }
      return typeof draft === 'string' && options.includes(draft)
        ? { ok: true, value: draft }
        : { ok: false, rule: `must be one of: ${options.join(', ')}` }
    case 'multi-select': {
      const list = Array.isArray(draft) ? draft : []
      if (!list.every((v) => options.includes(v)) || new Set(list).size !== list.length) {
        return { ok: false, rule: `must be an array of distinct values from: ${options.join(', ')}` }
      }
      return { ok: true, value: list.length ? list : null }
    }
  }
}

const same = (a: StoredValue | null, b: StoredValue | null) => JSON.stringify(a) === JSON.stringify(b)

/**
 * The PATCH body for what changed (`{values: {name: {value}}}`, null removing a value), or the fields whose drafts
 * break a rule (`errors`: field name → message for the form). `initial` is what `initialDrafts` gave.
 */
export function valuesUpdate(
  fields: CustomField[],
  initial: Drafts,
  drafts: Drafts
): { ok: true; body: { values: Record<string, { value: StoredValue | null }> } } | { ok: false; errors: Record<string, string> } {
  const values: Record<string, { value: StoredValue | null }> = {}
  const errors: Record<string, string> = {}
  for (const field of fields) {
    const now = draftValue(field, drafts[field.name] ?? null)
    if (!now.ok) {
      errors[field.name] = sentence(now.rule)
      continue
    }
    const before = draftValue(field, initial[field.name] ?? null)
    if (!before.ok || !same(before.value, now.value)) values[field.name] = { value: now.value }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, body: { values } }
}

/** The field an API answer blames (`values.owner.value: must be a number`) and its rule as a sentence; null if none. */
export function valueErrorOf(error: unknown): { name: string; message: string } | null {
  const blamed = fieldError(error)
  if (!blamed || blamed.field !== 'values') return null
  const name = /^values\.([^.]+)/.exec(blamed.path)?.[1]
  return name ? { name, message: sentence(blamed.rule) } : null
}

const sentence = (rule: string) => rule.charAt(0).toUpperCase() + rule.slice(1)
