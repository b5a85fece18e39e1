// An integration's configuration schema (one per target: account, space, site) and the values an installation
// holds for it. The server validates with `configurationErrors`; the renderer builds its form with `formFields`
// and turns the form's text back into values with `valuesFromForm`, so both read the schema the same way.

export type ConfigurationPropertyType = 'string' | 'number' | 'boolean' | 'button'

export interface ConfigurationProperty {
  type: ConfigurationPropertyType
  title?: string
  description?: string
  default?: unknown
  enum?: (string | number)[]
  button_text?: string
}

export interface ConfigurationSchema {
  properties: Record<string, ConfigurationProperty>
  required?: string[]
}

export type ConfigurationValues = Record<string, unknown>

export interface ConfigurationError {
  /** The property's name (the wire path is `configuration.<name>`). */
  name: string
  message: string
}

const isUnset = (value: unknown) => value === undefined || value === null || value === ''

/**
 * What is wrong with `values` for `schema`, in the schema's property order. Values of names the schema does not
 * declare are kept as they are (an integration may store state of its own there). With `complete`, every
 * required property must have a value; without it, missing ones only leave the installation pending.
 */
export function configurationErrors(
  schema: ConfigurationSchema | undefined,
  values: ConfigurationValues,
  complete: boolean
): ConfigurationError[] {
  const errors: ConfigurationError[] = []
  const required = new Set(schema?.required ?? [])
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    const value = values[name]
    if (isUnset(value)) {
      if (complete && required.has(name)) errors.push({ name, message: 'is required' })
      continue
    }
    const message = typeError(property, value)
    if (message) errors.push({ name, message })
  }
  return errors
}

function typeError(property: ConfigurationProperty, value: unknown): string | undefined {
  switch (property.type) {
    case 'string':
      if (typeof value !== 'string') return 'must be string'
      break
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be number'
      break
    case 'boolean':
      if (typeof value !== 'boolean') return 'must be boolean'
      return undefined
    case 'button':
      // A button starts an action of the integration: it holds no value.
      return 'is a button and holds no value'
  }
  if (property.enum && !property.enum.includes(value as string | number)) {
    return `must be one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`
  }
  return undefined
}

/** Whether every required property has a value (an installation is `active` then, else `pending`). */
export function isComplete(schema: ConfigurationSchema | undefined, values: ConfigurationValues): boolean {
  return (schema?.required ?? []).every((name) => !isUnset(values[name]))
}

// --- the form -----------------------------------------------------------------------------------------------

export type FieldKind = 'text' | 'number' | 'checkbox' | 'select'

export interface FormField {
  name: string
  kind: FieldKind
  label: string
  description?: string
  required: boolean
  /** For `select`: the enum's values as the select shows them (text), with the value each stands for. */
  options?: { label: string; value: string }[]
}

/** The form's fields, one per property that holds a value (buttons hold none), in the schema's order. */
export function formFields(schema: ConfigurationSchema | undefined): FormField[] {
  const required = new Set(schema?.required ?? [])
  const fields: FormField[] = []
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.type === 'button') continue
    const kind: FieldKind =
      property.type === 'boolean' ? 'checkbox' : property.enum?.length ? 'select' : property.type === 'number' ? 'number' : 'text'
    const field: FormField = { name, kind, label: property.title || name, required: required.has(name) }
    if (property.description) field.description = property.description
    if (kind === 'select') field.options = property.enum!.map((v) => ({ label: String(v), value: String(v) }))
    fields.push(field)
  }
  return fields
}

/** What a form holds: text for text, number and select fields, a flag for checkboxes. */
export type FormState = Record<string, string | boolean>

/** The form's starting state: the installation's values, else the schema's defaults, else empty. */
export function formState(schema: ConfigurationSchema | undefined, values: ConfigurationValues | undefined): FormState {
  const state: FormState = {}
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.type === 'button') continue
    const value = values && !isUnset(values[name]) ? values[name] : property.default
    state[name] = property.type === 'boolean' ? value === true : isUnset(value) ? '' : String(value)
  }
  return state
}

/**
 * The configuration a form stands for: the stored values it does not show are kept, empty fields are left out,
 * numbers are parsed (text that is no number is kept as text, for the server to refuse on its field), and a
 * select's text becomes the enum value it names (a number enum stays a number).
 */
export function valuesFromForm(
  schema: ConfigurationSchema | undefined,
  state: FormState,
  previous: ConfigurationValues = {}
): ConfigurationValues {
  const values: ConfigurationValues = {}
  for (const [name, value] of Object.entries(previous)) if (!(name in (schema?.properties ?? {}))) values[name] = value
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.type === 'button') continue
    const raw = state[name]
    if (property.type === 'boolean') {
      values[name] = raw === true
      continue
    }
    const text = typeof raw === 'string' ? raw.trim() : ''
    if (text === '') continue
    if (property.enum?.length) {
      values[name] = property.enum.find((v) => String(v) === text) ?? text
    } else if (property.type === 'number') {
      const n = Number(text)
      values[name] = Number.isFinite(n) ? n : text
    } else {
      values[name] = typeof raw === 'string' ? raw : ''
    }
  }
  return values
}
