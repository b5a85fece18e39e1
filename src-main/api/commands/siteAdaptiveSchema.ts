import { Ajv } from 'ajv'
import type { DeclaredClaims } from '../../preview/conditions'
import { badRequest } from '../../base/errors'

export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#'

/** Claim names are read in conditions as `visitor.claims.<name>`, so they must be identifiers. */
const CLAIM_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/
const CLAIM_KEYS = new Set(['type', 'description'])
/** The one description the published schema allows on the unsigned claims. */
export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.'

export type JsonSchema = Record<string, unknown>

/** The schema of a site that has none yet: no claims. */
export function emptyAdaptiveSchema(): JsonSchema {
  return {
    $schema: DRAFT_07,
    type: 'object',
    properties: { unsigned: { type: 'object', description: UNSIGNED_DESCRIPTION, properties: {}, additionalProperties: false } },
    additionalProperties: false
  }
}

/**
 * A schema in the published subset of JSON Schema: boolean claims with a description each ("" when none was
 * given) and the unsigned claims with their fixed description, nothing else. Schemas stored by older versions
 * (with `$id`, claim titles or defaults, `required`) are answered in this form too.
 */
export function adaptiveSchemaSubset(schema: JsonSchema): JsonSchema {
  const claims = (properties: unknown) =>
    Object.fromEntries(
      Object.entries(isObject(properties) ? properties : {}).map(([name, claim]) => {
        const description = isObject(claim) && typeof claim.description === 'string' ? claim.description : ''
        return [name, { type: 'boolean', description }]
      })
    )
  const { unsigned, ...signed } = isObject(schema.properties) ? schema.properties : {}
  const properties: Record<string, unknown> = claims(signed)
  if (isObject(unsigned)) {
    properties.unsigned = {
      type: 'object',
      description: UNSIGNED_DESCRIPTION,
      properties: claims(unsigned.properties),
      additionalProperties: false
    }
  }
  return { $schema: DRAFT_07, type: 'object', properties, additionalProperties: false }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/**
 * Checks a submitted adaptive schema and returns it as stored: a valid JSON Schema draft-07 document (ajv, strict
 * about unknown keywords) of an object whose properties are boolean claims, plus an optional `unsigned` object
 * of boolean claims, with no other properties (adaptiveSchemaSubset). The server sets `$schema`; an `$id` sent
 * is not kept.
 */
export function normalizeAdaptiveSchema(input: JsonSchema): JsonSchema {
  const field = 'jsonSchema'
  if (input.$schema !== undefined && input.$schema !== DRAFT_07 && input.$schema !== DRAFT_07.replace(/#$/, '')) {
    throw badRequest(`${field}.$schema: must be ${DRAFT_07} (draft-07)`)
  }
  const { $id: _ignored, ...rest } = input
  const schema: JsonSchema = { ...rest, $schema: DRAFT_07 }
  // A fresh validator per call: ajv keeps compiled schemas by $id, and this runs only when a schema is put.
  const ajv = new Ajv({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false, allErrors: false })
  if (!ajv.validateSchema(schema)) {
    const error = ajv.errors?.[0]
    const path = (error?.instancePath ?? '').split('/').filter(Boolean).join('.')
    throw badRequest(`${field}${path ? `.${path}` : ''}: not a valid draft-07 JSON Schema (${error?.message ?? 'invalid'})`)
  }
  try {
    ajv.compile(schema)
  } catch (e) {
    throw badRequest(`${field}: not a valid draft-07 JSON Schema (${(e as Error).message})`)
  }
  if (schema.type !== 'object') throw badRequest(`${field}.type: must be "object"`)
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    throw badRequest(`${field}.additionalProperties: must be false`)
  }
  schema.additionalProperties = false
  const properties = schema.properties ?? {}
  if (!isObject(properties)) throw badRequest(`${field}.properties: must be an object`)
  for (const [name, claim] of Object.entries(properties)) {
    if (name === 'unsigned') {
      checkUnsigned(claim, `${field}.properties.unsigned`)
      continue
    }
    checkClaim(name, claim, `${field}.properties.${name}`)
  }
  schema.properties = properties
  for (const key of Object.keys(schema)) {
    if (!['$schema', 'type', 'properties', 'additionalProperties'].includes(key)) {
      throw badRequest(`${field}.${key}: not allowed in an adaptive schema (claims are listed in properties)`)
    }
  }
  return adaptiveSchemaSubset(schema)
}

function checkClaim(name: string, claim: unknown, path: string): void {
  if (!CLAIM_NAME.test(name)) throw badRequest(`${path}: claim names must be identifiers (letters, digits, _ and $)`)
  if (!isObject(claim) || claim.type !== 'boolean') throw badRequest(`${path}.type: must be "boolean" (claims are booleans)`)
  for (const key of Object.keys(claim)) if (!CLAIM_KEYS.has(key)) throw badRequest(`${path}.${key}: not allowed on a claim`)
}

function checkUnsigned(value: unknown, path: string): void {
  if (!isObject(value) || value.type !== 'object') throw badRequest(`${path}.type: must be "object"`)
  if (value.additionalProperties !== undefined && value.additionalProperties !== false)
    throw badRequest(`${path}.additionalProperties: must be false`)
  value.additionalProperties = false
  const properties = value.properties ?? {}
  if (!isObject(properties)) throw badRequest(`${path}.properties: must be an object`)
  for (const [name, claim] of Object.entries(properties)) checkClaim(name, claim, `${path}.properties.${name}`)
  value.properties = properties
  for (const key of Object.keys(value)) {
    if (!['type', 'properties', 'additionalProperties', 'description'].includes(key)) {
      throw badRequest(`${path}.${key}: not allowed in the unsigned claims`)
    }
  }
}

/** The claim names a stored schema declares. */
export function declaredClaims(schema: JsonSchema): DeclaredClaims {
  const properties = (schema.properties ?? {}) as Record<string, { properties?: Record<string, unknown> }>
  const signed = new Set(Object.keys(properties).filter((k) => k !== 'unsigned'))
  const unsigned = new Set(Object.keys(properties.unsigned?.properties ?? {}))
  return { signed, unsigned }
}
