import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifySchemaValidationError, SchemaErrorDataVar } from 'fastify/types/schema'
import { PATTERN_HINT } from '../../src-shared/schemas/common'

/** The request validator: unknown properties are ignored (not removed, not errors), defaults are applied. */
export function createAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
    // Errors carry their schema, so a pattern's error can say it in words (PATTERN_HINT).
    verbose: true,
    // Tagged unions (content changes by `operation`) report errors of the matching variant only.
    discriminator: true
  })
  ;(addFormats as unknown as (a: Ajv) => void)(ajv)
  return ajv
}

/**
 * Turns the first ajv error into the addendum's message: the field, then the rule
 * (`title: must be at most 50 characters`).
 */
export function formatValidationError(errors: FastifySchemaValidationError[], context: SchemaErrorDataVar | string): string {
  const error = errors[0]
  if (!error) return `${context}: invalid`
  const params = (error.params ?? {}) as Record<string, unknown>
  const path = (error.instancePath ?? '').split('/').filter(Boolean).join('.')
  let field = path
  if (error.keyword === 'required') field = [path, params.missingProperty].filter(Boolean).join('.')
  if (error.keyword === 'discriminator') field = [path, params.tag].filter(Boolean).join('.')
  if (!field) field = context === 'querystring' ? 'query' : String(context)
  const schema = (error as { parentSchema?: Record<string, unknown> }).parentSchema
  return `${field}: ${ruleText(error.keyword, params, error.message, schema)}`
}

function ruleText(
  keyword: string,
  params: Record<string, unknown>,
  fallback: string | undefined,
  schema?: Record<string, unknown>
): string {
  switch (keyword) {
    case 'required':
      return 'is required'
    case 'maxLength':
      return `must be at most ${params.limit} characters`
    case 'minLength':
      return `must be at least ${params.limit} characters`
    case 'maxItems':
      return `must have at most ${params.limit} items`
    case 'minItems':
      return `must have at least ${params.limit} items`
    case 'maximum':
      return `must be at most ${params.limit}`
    case 'minimum':
      return `must be at least ${params.limit}`
    case 'pattern':
      return typeof schema?.[PATTERN_HINT] === 'string' ? `must be ${schema[PATTERN_HINT]}` : `must match the pattern ${params.pattern}`
    case 'format':
      return `must be a valid ${params.format}`
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map((v) => (v === null ? 'null' : String(v))).join(', ')}`
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`
    case 'type':
      return `must be ${String(params.type).replace(',', ' or ')}`
    case 'additionalProperties':
      return `unknown property ${params.additionalProperty}`
    case 'discriminator':
      return params.tagValue === undefined ? 'is required' : `${JSON.stringify(params.tagValue)} is not a known value`
    case 'anyOf':
    case 'oneOf':
      return 'does not match any allowed form'
    default:
      return fallback ?? 'is invalid'
  }
}

/** preValidation for a route whose body fields are all optional: a request without a body means `{}`. */
export const emptyBodyIsObject = async (req: { body: unknown }) => {
  req.body ??= {}
}
