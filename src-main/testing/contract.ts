// Test-only: the wire contract. Every answer the HTTP tests receive (harness.ts, httpClient) is checked against
// the published API document's schema for its operation and status (the document the service's official client
// ships, `@gitbook/api/spec/openapi.json`), so a drift in any presenter fails the test that received it.
import { appendFileSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { CONTRACT_AMENDMENTS, CONTRACT_EXCEPTIONS, CONTRACT_SCHEMA_FIXES } from './contractExceptions'

interface Operation {
  method: string
  template: string
  pattern: RegExp
  /** Literal segments: a path matching two templates is the one with more of them (`…/revisions/latest`). */
  literals: number
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>
}

interface Published {
  document: { components?: { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> } }
  ajv: Ajv2020
  operations: Operation[]
  validators: Map<string, ValidateFunction | null>
}

const DOCUMENT_ID = 'published:openapi.json'
const METHODS = ['get', 'put', 'post', 'patch', 'delete']
let published: Published | undefined

function load(): Published {
  if (published) return published
  const require = createRequire(import.meta.url)
  const document = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8'))
  for (const { schema, fix } of CONTRACT_SCHEMA_FIXES) fix(document.components.schemas[schema])
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateFormats: true })
  addFormats.default(ajv)
  ajv.addSchema(document, DOCUMENT_ID)
  const operations: Operation[] = []
  for (const [template, item] of Object.entries<Record<string, any>>(document.paths)) {
    const segments = template.split('/').filter(Boolean)
    const pattern = new RegExp(`^/${segments.map((s) => (s.startsWith('{') ? '[^/]+' : escape(s))).join('/')}$`)
    for (const method of METHODS) {
      if (!item[method]) continue
      operations.push({
        method: method.toUpperCase(),
        template,
        pattern,
        literals: segments.filter((s) => !s.startsWith('{')).length,
        responses: item[method].responses ?? {}
      })
    }
  }
  operations.sort((a, b) => b.literals - a.literals)
  return (published = { document, ajv, operations, validators: new Map() })
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const pointer = (...segments: string[]) => segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')

/** The published operation a request is, by method and path (without the `/v1` prefix); undefined for Quire's own. */
export function publishedOperation(method: string, path: string): { method: string; template: string } | undefined {
  const bare = path.replace(/^\/v1(?=\/)/, '')
  const operation = load().operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(bare))
  return operation && { method: operation.method, template: operation.template }
}

/**
 * What is wrong with an answer by the published schema of its operation and status: undefined when it validates,
 * or when the operation, the status or a JSON body is not in the document (Quire's own operations and answers).
 */
export function contractViolation(method: string, path: string, status: number, body: unknown): string | undefined {
  const { document, ajv, operations, validators } = load()
  const bare = path.replace(/^\/v1(?=\/)/, '')
  const operation = operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(bare))
  if (!operation || body === undefined || typeof body === 'string') return undefined
  const declared = operation.responses[String(status)] ? String(status) : undefined
  // A response is declared in place or named in components.responses; an error the operation does not declare is
  // held to the document's one error envelope (its UnexpectedError answer).
  const named = declared
    ? (operation.responses[declared] as { $ref?: string }).$ref?.replace('#/components/responses/', '')
    : status >= 400
      ? 'UnexpectedError'
      : undefined
  const response = named ? document.components?.responses?.[named] : declared && operation.responses[declared]
  if (!response || !response.content?.['application/json']?.schema) return undefined
  const key = `${operation.method} ${operation.template} ${declared ?? status}`
  let validate = validators.get(key)
  if (validate === undefined) {
    const at = named
      ? pointer('components', 'responses', named, 'content', 'application/json', 'schema')
      : pointer(
          'paths',
          operation.template,
          operation.method.toLowerCase(),
          'responses',
          declared!,
          'content',
          'application/json',
          'schema'
        )
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${at}` })
    validators.set(key, validate)
  }
  const operationName = `${operation.method} ${operation.template}`
  for (const amendment of CONTRACT_AMENDMENTS) if (amendment.operation.test(operationName)) body = amendment.amend(body)
  if (!validate || validate(body)) return undefined
  const errors = (validate.errors ?? []).filter(
    (e) =>
      !CONTRACT_EXCEPTIONS.some(
        (x) => x.operation.test(operationName) && x.instancePath.test(e.instancePath) && x.message.test(e.message ?? '')
      )
  )
  if (!errors.length) return undefined
  const described = errors
    .slice(0, 8)
    .map(
      (e) =>
        `${e.instancePath || '/'} ${e.message}${e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : ''}`
    )
  return `${key}: the answer does not match the published schema:\n  ${described.join('\n  ')}`
}

/**
 * What is wrong with a value by one of the published document's schemas (`JSONDocument`), as `pointer message`
 * lines; empty when it validates. For tests of parts of an answer whose operation is still pending.
 */
export function schemaViolations(schema: string, value: unknown): string[] {
  const { ajv, validators } = load()
  const key = `schema ${schema}`
  let validate = validators.get(key)
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer('components', 'schemas', schema)}` })
    validators.set(key, validate)
  }
  if (validate(value)) return []
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`)
}

/**
 * Operations whose answers do not yet match the published document: their violations are recorded, not thrown.
 * Each entry is `METHOD /published/template`; the list only shrinks (issue 23 works it down to the argued
 * exceptions in docs/api-behaviour.md).
 */
export const PENDING = new Set<string>(JSON.parse(readFileSync(new URL('./contractPending.json', import.meta.url), 'utf8')) as string[])

/** Per record file, the operations this process already wrote there. */
const seenHere = new Map<string, Set<string>>()

/**
 * Records that an HTTP test received a successful answer (JSON or not) of the published operation a request is
 * (the harness calls it for 2xx answers only: an operation only ever refused is not covered), in the file
 * named by QUIRE_CONTRACT_SEEN (one `METHOD /template` line, once per test process): `npm test` then checks that
 * every operation Quire shares with the published document was exercised (contractCoverage.check.ts).
 */
export function recordExercised(method: string, path: string): void {
  const file = process.env.QUIRE_CONTRACT_SEEN
  if (!file) return
  const operation = publishedOperation(method, path)
  if (!operation) return
  const name = `${operation.method} ${operation.template}`
  let written = seenHere.get(file)
  if (!written) seenHere.set(file, (written = new Set()))
  if (written.has(name)) return
  written.add(name)
  appendFileSync(file, name + '\n')
}

/** A path template with its parameters unnamed (`/orgs/{}/spaces`): templates match when these are equal. */
const shapeOf = (template: string) => template.replace(/\{[^}/]+\}/g, '{}')

/**
 * The published operations Quire serves: the operations of Quire's own OpenAPI document (`/v1/openapi.json`,
 * its paths under `/v1`) whose method and path template (parameter names aside) the published document has,
 * named `METHOD /published/template`.
 */
export function sharedOperations(quireDocument: { paths: Record<string, Record<string, unknown>> }): string[] {
  const published = new Map(load().operations.map((o) => [`${o.method} ${shapeOf(o.template)}`, `${o.method} ${o.template}`]))
  const shared = new Set<string>()
  for (const [path, item] of Object.entries(quireDocument.paths)) {
    if (!path.startsWith('/v1/')) continue
    for (const method of METHODS) {
      if (!item[method]) continue
      const name = published.get(`${method.toUpperCase()} ${shapeOf(path.slice(3))}`)
      if (name) shared.add(name)
    }
  }
  return [...shared].sort()
}

/**
 * The harness's check of an answer: throws on a violation (the test fails with it), except for operations still
 * pending, whose violations go to the file named by QUIRE_CONTRACT_LOG when it is set (one JSON line each).
 */
export function checkAnswer(method: string, path: string, status: number, body: unknown): void {
  const violation = contractViolation(method, path, status, body)
  if (!violation) return
  const operation = publishedOperation(method, path)!
  const name = `${operation.method} ${operation.template}`
  if (process.env.QUIRE_CONTRACT_LOG)
    appendFileSync(process.env.QUIRE_CONTRACT_LOG, JSON.stringify({ operation: name, status, violation }) + '\n')
  if (PENDING.has(name) || process.env.QUIRE_CONTRACT_LOG) return
  throw new Error(violation)
}
