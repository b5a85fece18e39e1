import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { ValidateFunction } from 'ajv'
import type { FastifySchema, FastifySchemaCompiler } from 'fastify'
import { createAjv } from './validation'

// Compiled request validators (ajv) and response serializers (fast-json-stringify), shared by every API instance
// of the process. Fastify compiles each route's schemas when an instance starts: about 0.8 s for Quire's routes,
// paid again by every workspace the host opens and by every test server. A compiled function depends only on its
// schema (and the shared schemas, which are fixed), and route modules build equal schemas as new objects, so the
// functions are kept by the schema's JSON text. Both kinds are pure; ajv's `errors` are read right after the call.

let ajvs: { coercing: ReturnType<typeof createAjv>; strict: ReturnType<typeof createAjv> } | undefined
const validators = new Map<string, ValidateFunction>()

/**
 * Fastify's validator compiler: query strings and path parameters arrive as text, so their validator coerces
 * ("limit=5" is 5); a JSON body is validated as sent (a number is not a title).
 */
export const compileValidator: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  const body = httpPart === 'body'
  const key = `${body ? 'body' : 'text'}:${JSON.stringify(schema)}`
  let validate = validators.get(key)
  if (!validate) {
    ajvs ??= { coercing: createAjv(true), strict: createAjv(false) }
    validate = (body ? ajvs.strict : ajvs.coercing).compile(schema as object)
    validators.set(key, validate)
  }
  return validate
}

type SerializerFactory = ReturnType<typeof SerializerSelector>
const serializers = new Map<string, ReturnType<ReturnType<SerializerFactory>>>()

/** Fastify's serializer factory (schemaController.compilersFactory.buildSerializer), fast-json-stringify's, kept. */
export const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options)
  const prefix = JSON.stringify([externalSchemas, options ?? null])
  return (route) => {
    const key = `${prefix}:${JSON.stringify(route.schema)}`
    let serialize = serializers.get(key)
    if (!serialize) serializers.set(key, (serialize = build(route)))
    return serialize
  }
}
