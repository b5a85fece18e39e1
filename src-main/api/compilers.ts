import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { ValidateFunction } from 'ajv'
import type { FastifySchema, FastifySchemaCompiler } from 'fastify'
import { createAjv } from './validation'

// Compiled request validators (ajv) and response serializers (fast-json-stringify), shared by every API instance
// of the process. Fastify asks for each route's functions when an instance starts: compiling them all took about
// 0.8 s for Quire's routes (most of a cold start), though a start answers a few routes only. So a route gets a
// function that compiles on its first call, and the compiled function is kept per process by the schema's JSON
// text (route modules build equal schemas as new objects): a workspace opened later, or a test server, compiles
// nothing a route of another instance already did. Both kinds are pure; ajv's `errors` are read right after the call.

let ajvs: { coercing: ReturnType<typeof createAjv>; strict: ReturnType<typeof createAjv> } | undefined
const validators = new Map<string, ValidateFunction>()

function validatorOf(body: boolean, schema: unknown): ValidateFunction {
  const key = `${body ? 'body' : 'text'}:${JSON.stringify(schema)}`
  let validate = validators.get(key)
  if (!validate) {
    ajvs ??= { coercing: createAjv(true), strict: createAjv(false) }
    validate = (body ? ajvs.strict : ajvs.coercing).compile(schema as object)
    validators.set(key, validate)
  }
  return validate
}

/**
 * Fastify's validator compiler: query strings and path parameters arrive as text, so their validator coerces
 * ("limit=5" is 5); a JSON body is validated as sent (a number is not a title). Compiled on the route's first call.
 */
export const compileValidator: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  const body = httpPart === 'body'
  let validate: ValidateFunction | undefined
  const lazy = ((...args: Parameters<ValidateFunction>) => {
    validate ??= validatorOf(body, schema)
    const valid = validate(...args)
    lazy.errors = validate.errors
    return valid
  }) as ValidateFunction
  return lazy
}

type SerializerFactory = ReturnType<typeof SerializerSelector>
type Serializer = ReturnType<ReturnType<SerializerFactory>>
const serializers = new Map<string, Serializer>()

/**
 * Fastify's serializer factory (schemaController.compilersFactory.buildSerializer), fast-json-stringify's, kept;
 * a route's serializer is built when it first answers with that status.
 */
export const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  let build: ReturnType<SerializerFactory> | undefined
  let prefix: string | undefined
  return (route) => {
    let serialize: Serializer | undefined
    return ((data: unknown) => {
      if (!serialize) {
        prefix ??= JSON.stringify([externalSchemas, options ?? null])
        const key = `${prefix}:${JSON.stringify(route.schema)}`
        serialize = serializers.get(key)
        if (!serialize) {
          build ??= SerializerSelector()(externalSchemas, options)
          serializers.set(key, (serialize = build(route)))
        }
      }
      return serialize(data)
    }) as Serializer
  }
}
