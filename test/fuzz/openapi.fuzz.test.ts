// Walks every operation of /v1/openapi.json with invalid inputs (wrong types, missing and over-long fields, bad
// enum values, malformed and non-object bodies, forged cursors, odd path parameters) and a valid-looking call
// with real ids, as the owner, a `read` member and no one. Nothing may answer 5xx, and every 4xx is the
// error envelope. Seeded (mulberry32), so a failure names an input that fails again.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer, type TestUser } from '../../src-main/testing/harness'
import { manifest, PNG } from '../../src-main/api/routes/integrations/fixtures'
import { PETSTORE, untilComplete } from '../../src-main/api/routes/openapi/fixtures'
import { prng } from '../../src-main/testing/prng'

const SEED = 0x9e3779b9
/** Variants per operation besides the valid-looking calls. */
const VARIANTS = 20

type Schema = Record<string, any>

interface Operation {
  method: string
  path: string
  pathParams: string[]
  query: { name: string; required: boolean; schema: Schema }[]
  body?: Schema
}

interface Call {
  caller: 'owner' | 'read' | 'anonymous'
  what: string
  params?: Record<string, string>
  query?: [string, string][]
  /** JSON-encoded unless `raw`. */
  body?: unknown
  raw?: { text: string; type?: string }
  headers?: Record<string, string>
}

let t: TestServer
let reader: TestUser
let doc: { paths: Record<string, Record<string, Schema>>; components?: { schemas?: Record<string, Schema> } }
/** Real ids for every path parameter of the document. */
const ids: Record<string, string> = {}
/** Valid-looking values by field name where a schema alone cannot make one (patterns, ids, URLs that stay local). */
let known: Record<string, unknown> = {}

beforeAll(async () => {
  t = await startTestServer()
  reader = await t.user({ role: 'read', email: 'reader@example.com' })
  await seed()
  doc = (await t.anonymous.get('/v1/openapi.json')).body
}, 60_000)
afterAll(() => t?.close())

async function ok<T = any>(res: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const answer = await res
  if (answer.status >= 300) throw new Error(`seeding ${what}: ${answer.status} ${JSON.stringify(answer.body)}`)
  return answer.body
}

/** A small world through the API, so most path parameters have a real id. */
async function seed(): Promise<void> {
  const api = t.owner.api
  const org = t.orgId
  ids.organizationId = org
  ids.emailDomain = 'example.com'
  ids.userId = reader.user.id
  ids.collectionId = (await ok(api.post(`/v1/orgs/${org}/collections`, { title: 'Handbook' }), 'collection')).id
  const space = await ok(api.post(`/v1/orgs/${org}/spaces`, { title: 'Docs', parent: ids.collectionId }), 'space')
  ids.spaceId = space.id
  const s = `/v1/spaces/${space.id}`

  // Pages, a file and links through a merged change request; a second one stays open.
  const merged = await ok(api.post(`${s}/change-requests`, { subject: 'Seed' }), 'change request')
  await ok(
    api.post(`${s}/change-requests/${merged.id}/content`, {
      changes: [
        { operation: 'insert_files', files: [{ name: 'logo.png', base64: PNG, ref: 'logo' }] },
        {
          operation: 'insert_page',
          ref: 'guide',
          title: 'Guide',
          document: { markdown: '# Guide\n\n![Logo](/files/logo)\n\nSee [the intro](../introduction) and [out](https://example.com).\n' }
        },
        {
          operation: 'insert_page',
          title: 'Install',
          into: 'guide',
          document: { markdown: 'Steps, {% hint style="info" %}tip{% endhint %}' }
        }
      ]
    }),
    'content'
  )
  await ok(api.post(`${s}/change-requests/${merged.id}/merge`), 'merge')
  ids.changeRequestId = (await ok(api.post(`${s}/change-requests`, { subject: 'Open one' }), 'change request')).id
  ids.reviewId = (await ok(api.post(`${s}/change-requests/${ids.changeRequestId}/reviews`, { status: 'changes-requested' }), 'review')).id
  const pages = (await ok(api.get(`${s}/content/pages`), 'pages')).pages
  ids.pageId = pages.find((p: { title: string }) => p.title === 'Guide').id
  ids.fileId = (await ok(api.get(`${s}/content/files`), 'files')).items[0].id
  ids.revisionId = (await ok(api.get(`${s}/revisions`), 'revisions')).items[1].id
  ids.pagePath = 'guide%2Finstall'

  const comment = await ok(api.post(`${s}/comments`, { body: { markdown: 'A remark' }, page: ids.pageId }), 'comment')
  ids.commentId = comment.id
  ids.commentReplyId = (await ok(api.post(`${s}/comments/${comment.id}/replies`, { body: { markdown: 'A reply' } }), 'reply')).id

  ids.fieldName = (
    await ok(api.post(`/v1/orgs/${org}/custom-fields`, { name: 'audience', type: 'select', options: ['dev', 'ops'] }), 'custom field')
  ).name
  const certificate = readFileSync(resolve(import.meta.dirname, '../../src-main/api/routes/sso/fixtures/idp-cert.pem'), 'utf8')
  ids.samlProviderId = (
    await ok(api.post(`/v1/orgs/${org}/saml`, { label: 'Okta', certificate, ssoURL: 'https://idp.example.com/sso' }), 'saml')
  ).id
  ids.inviteId = (await ok(api.post(`/v1/orgs/${org}/link-invites`, { role: 'read' }), 'link invite')).id
  ids.teamId = (await ok(api.put(`/v1/orgs/${org}/teams`, { title: 'Writers', members: [reader.user.id] }), 'team')).id

  const site = await ok(api.post(`/v1/orgs/${org}/sites`, { title: 'Public docs', spaces: [space.id] }), 'site')
  ids.siteId = site.id
  const sitePath = `/v1/orgs/${org}/sites/${site.id}`
  ids.siteSpaceId = (await ok(api.get(`${sitePath}/site-spaces`), 'site spaces')).items[0].id
  ids.siteSectionId = (await ok(api.post(`${sitePath}/sections`, { spaceId: null, title: 'Guides' }), 'section')).id
  await ok(api.post(`${sitePath}/sections`, { spaceId: null, title: 'Reference' }), 'section')
  ids.siteSectionGroupId = (await ok(api.post(`${sitePath}/section-groups`, { title: 'All', sections: [ids.siteSectionId] }), 'group')).id
  ids.shareLinkId = (await ok(api.post(`${sitePath}/share-links`, { name: 'Review' }), 'share link')).id
  ids.siteRedirectId = (
    await ok(
      api.post(`${sitePath}/redirects`, { source: '/old', destination: { kind: 'site-section', siteSectionId: ids.siteSectionId } }),
      'redirect'
    )
  ).id

  ids.specSlug = (await ok(api.post(`/v1/orgs/${org}/openapi`, { slug: 'petstore', source: { text: PETSTORE } }), 'spec')).slug
  await untilComplete(api, `/v1/orgs/${org}/openapi/petstore`)
  ids.versionId = (await ok(api.get(`/v1/orgs/${org}/openapi/petstore/versions`), 'versions')).items[0].id

  // A job that exists: an import that fails at once (nothing listens on port 9) still leaves its job to read.
  await api.request(
    'POST',
    `/v1/spaces/${space.id}/content/import`,
    { url: 'http://127.0.0.1:9/fuzz.md', source: 'markdown' },
    { job: 'fuzz-job-1' }
  )
  ids.jobId = 'fuzz-job-1'

  ids.integrationName = 'fuzz-notes'
  await ok(api.post(`/v1/integrations/${ids.integrationName}`, manifest(org)), 'integration')
  ids.installationId = (
    await ok(api.post(`/v1/integrations/${ids.integrationName}/installations`, { organization: org }), 'installation')
  ).id
  // The writes above recorded audit events.
  ids.auditEventId = (await ok(api.get(`/v1/orgs/${org}/audit-events`, { limit: 1 }), 'audit events')).items[0].id

  known = {
    // Anything fetched goes nowhere but a closed port of this machine.
    url: 'http://127.0.0.1:9/fuzz',
    ssoURL: 'http://127.0.0.1:9/sso',
    logo: 'http://127.0.0.1:9/logo.png',
    organization: org,
    spaceId: space.id,
    space: space.id,
    parent: ids.collectionId,
    sectionId: ids.siteSectionId,
    page: ids.pageId,
    changeRequest: ids.changeRequestId,
    ref: 'refs/heads/main',
    slug: 'fuzz-api',
    hostname: 'docs.fuzz.example.com',
    proxy: 'example.com/docs',
    emailDomains: ['fuzz.example.com'],
    certificate,
    markdown: 'Some *text*',
    source: { text: PETSTORE },
    emails: ['someone@example.com'],
    users: [reader.user.id],
    name: 'fuzz'
  }
}

function deref(schema: Schema | undefined): Schema {
  let s = schema ?? {}
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    const name = s.$ref.split('/').pop()!
    s = doc.components?.schemas?.[name] ?? {}
  }
  return s
}

const typeOf = (schema: Schema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : schema.type

/** The schema a value takes: the first variant that is not null. */
function concrete(schema: Schema | undefined): Schema {
  const s = deref(schema)
  const variants = s.anyOf ?? s.oneOf
  if (variants) return concrete(variants.find((v: Schema) => deref(v).type !== 'null') ?? variants[0])
  return s
}

function fits(value: unknown, schema: Schema): boolean {
  const type = typeOf(schema)
  if (type === 'array') return Array.isArray(value)
  if (type === 'object') return !!value && typeof value === 'object' && !Array.isArray(value)
  return type === undefined || typeof value === (type === 'integer' ? 'number' : type)
}

/** A valid-looking value: what the schema requires, with `known` values by field name. */
function sample(schema: Schema | undefined, key = '', depth = 0, all = false): unknown {
  const s = concrete(schema)
  if (key in known && depth > 0 && fits(known[key], s)) return known[key]
  if ('const' in s) return s.const
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null) ?? null
  if (s.allOf) return Object.assign({}, ...s.allOf.map((part: Schema) => sample(part, key, depth, all)))
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {}
      const names = all && depth === 0 ? Object.keys(s.properties ?? {}) : (s.required ?? [])
      for (const name of names) if (depth < 6) out[name] = sample(s.properties?.[name], name, depth + 1)
      return out
    }
    case 'array':
      return Array.from({ length: s.minItems ?? (all ? 1 : 0) }, () => sample(s.items, key, depth + 1))
    case 'string':
      if (s.format === 'date-time') return '2026-03-01T10:00:00.000Z'
      if (s.format === 'email') return 'someone@example.com'
      if (s.format === 'uri' || /url$/i.test(key)) return 'http://127.0.0.1:9/fuzz'
      return 'fuzz'.padEnd(s.minLength ?? 0, 'z')
    case 'integer':
    case 'number':
      return s.minimum ?? 1
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return 'fuzz'
  }
}

/** Every field a body may hold, to a depth of 3, with the path to it (array items as index 0). */
function fields(
  schema: Schema | undefined,
  path: (string | number)[] = [],
  out: { path: (string | number)[]; schema: Schema; required: boolean }[] = []
) {
  const s = concrete(schema)
  if (path.length >= 3) return out
  if (typeOf(s) === 'object') {
    for (const [name, child] of Object.entries<Schema>(s.properties ?? {})) {
      out.push({ path: [...path, name], schema: concrete(child), required: (s.required ?? []).includes(name) })
      fields(child, [...path, name], out)
    }
  } else if (typeOf(s) === 'array' && s.items) {
    out.push({ path: [...path, 0], schema: concrete(s.items), required: false })
    fields(s.items, [...path, 0], out)
  }
  return out
}

/** The unions (anyOf/oneOf of several non-null forms) of a body, to a depth of 3, with their forms. */
function unions(schema: Schema | undefined, path: (string | number)[] = [], out: { path: (string | number)[]; variants: Schema[] }[] = []) {
  const s = deref(schema)
  const variants = ((s.anyOf ?? s.oneOf ?? []) as Schema[]).filter((v) => deref(v).type !== 'null')
  if (variants.length > 1) out.push({ path, variants })
  if (path.length >= 3) return out
  const c = concrete(s)
  if (typeOf(c) === 'object') for (const [name, child] of Object.entries<Schema>(c.properties ?? {})) unions(child, [...path, name], out)
  else if (typeOf(c) === 'array' && c.items) unions(c.items, [...path, 0], out)
  return out
}

/** Values the field must refuse (or take): other types, null, past its limits, outside its enum. */
function badValues(schema: Schema, random: () => number): unknown[] {
  const values: unknown[] = [null, { nested: { deeper: [1, 'two'] } }, [], 'ſtrange ✓ 𝄞 \u0000 \ud800']
  switch (typeOf(schema)) {
    case 'string':
      values.push(12345, true, -0.5)
      values.push('x'.repeat(typeof schema.maxLength === 'number' ? schema.maxLength + 1 : 70_000))
      if (schema.minLength) values.push('')
      if (schema.enum) values.push('not-one-of-them')
      if (schema.format || schema.pattern) values.push('%%% not that format %%%', '../../etc/passwd')
      break
    case 'integer':
    case 'number':
      values.push('12', true, 1.5, -1, 0, 1e300, -1e300, Number.MAX_SAFE_INTEGER + 2)
      break
    case 'boolean':
      values.push('true', 0, 1)
      break
    case 'array':
      values.push(
        {},
        'x',
        Array.from({ length: (schema.maxItems ?? 1000) + 1 }, (_, i) => `item-${i}`),
        [null, 3, {}]
      )
      break
    case 'object':
      values.push('x', 7, [{}])
      break
  }
  if (Array.isArray(schema.enum)) values.push('BOGUS', schema.enum.length)
  return shuffle(values, random)
}

function shuffle<T>(list: T[], random: () => number): T[] {
  const out = [...list]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

function setAt(target: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  const root = structuredClone(target ?? {}) as any
  let node = root
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!
    if (node[key] === null || typeof node[key] !== 'object') node[key] = typeof path[i + 1] === 'number' ? [] : {}
    node = node[key]
  }
  const last = path[path.length - 1]!
  if (remove) delete node[last]
  else node[last] = value
  return root
}

const b64 = (value: string) => Buffer.from(value).toString('base64url')

/** Page identifiers no list gave out: empty, not base64, not JSON, arrays of the wrong arity and types. */
function forgedCursors(random: () => number): string[] {
  // 2^53 + 1 on purpose: a cursor number JSON cannot hold exactly.
  // eslint-disable-next-line no-loss-of-precision
  const atoms = [{}, [], true, false, null, 'x', '', 1.5, -1, 0, 1e308, 'a'.repeat(300), 9007199254740993, { a: 1 }]
  const arrays = Array.from({ length: 4 }, () =>
    Array.from({ length: Math.floor(random() * 5) }, () => atoms[Math.floor(random() * atoms.length)])
  )
  return ['', '!!!', '%%', b64('not json'), b64('{"a":1}'), b64('"x"'), b64('[1,2'), ...arrays.map((a) => b64(JSON.stringify(a)))]
}

/** Path parameter values no route gave out (as they appear in the URL, already escaped where needed). */
const ODD_PATH_VALUES = [
  '',
  'a'.repeat(101),
  'a'.repeat(3000),
  encodeURIComponent('ſtrange ✓ 𝄞'),
  '..',
  '.',
  '%00',
  '%2F',
  'a%2Fb',
  '%2e%2e',
  '%5C',
  '%20',
  'null',
  '0',
  '-1',
  '1e999',
  encodeURIComponent('<script>'),
  encodeURIComponent('" OR 1=1 --'),
  '%E0%A4%A',
  '%zz'
]

function operations(): Operation[] {
  const list: Operation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const params = (op.parameters ?? []) as { in: string; name: string; required?: boolean; schema: Schema }[]
      list.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: !!p.required, schema: deref(p.schema) })),
        body: op.requestBody?.content?.['application/json']?.schema
      })
    }
  }
  // What removes things goes last, so the rest still finds the world in place; the deepest paths (children) first.
  const rank = (op: Operation) => (op.method === 'DELETE' ? 2 : /\/(merge|transfer|move)$/.test(op.path) ? 1 : 0)
  const depth = (op: Operation) => op.path.split('/').length
  return list.sort((a, b) => rank(a) - rank(b) || (rank(a) === 2 ? depth(b) - depth(a) : 0))
}

const hasBody = (op: Operation) => op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH'

/** The calls made for one operation: valid-looking ones as each caller, then up to VARIANTS invalid ones. */
function callsFor(op: Operation, random: () => number): Call[] {
  const query = op.query.filter((q) => q.required).map((q): [string, string] => [q.name, String(sample(q.schema, q.name))])
  const body = op.body ? sample(op.body) : hasBody(op) ? {} : undefined
  const valid = (caller: Call['caller']): Call => ({ caller, what: 'valid-looking', query, body })
  const calls: Call[] = [valid('owner'), valid('read'), valid('anonymous')]
  if (op.body) calls.push({ caller: 'owner', what: 'every field', query, body: sample(op.body, '', 0, true) })

  const pathCalls: Call[] = op.pathParams.flatMap((name) =>
    shuffle(ODD_PATH_VALUES, random)
      .slice(0, 4)
      .map((value) => ({ caller: 'owner' as const, what: `path ${name}=${value.slice(0, 40)}`, params: { [name]: value }, query, body }))
  )

  const others = (name: string) => query.filter(([key]) => key !== name)
  const cursorCalls: Call[] = !op.query.some((q) => q.name === 'page')
    ? []
    : forgedCursors(random).map((page): Call => ({
        caller: 'owner',
        what: `query page=${page.slice(0, 60)}`,
        query: [...query, ['page', page]]
      }))

  const queryCalls: Call[] = op.query
    .filter((q) => q.name !== 'page')
    .flatMap((q) => {
      const values: string[] = []
      const s = q.schema
      const type = typeOf(s)
      if (type === 'integer' || type === 'number') values.push('abc', '1.5', '-5', '0', '99999999999999999999', '1e400', '')
      if (type === 'boolean') values.push('maybe', '2', '')
      if (s.enum) values.push('BOGUS', '')
      if (typeof s.maxLength === 'number') values.push('q'.repeat(s.maxLength + 1))
      if (type === 'string' || type === 'array') values.push(encodeURIComponent('ſtrange ✓ 𝄞'), '%00', '[object Object]')
      values.push('%zz', '%')
      const repeated: Call = {
        caller: 'owner',
        what: `query ${q.name} repeated`,
        query: [...others(q.name), ...Array.from({ length: 120 }, (): [string, string] => [q.name, 'x'])],
        body
      }
      return [
        ...(q.required ? [{ caller: 'owner' as const, what: `query ${q.name} missing`, query: others(q.name), body }] : []),
        repeated,
        ...shuffle(values, random)
          .slice(0, 4)
          .map((value): Call => ({
            caller: 'owner',
            what: `query ${q.name}=${value.slice(0, 60)}`,
            query: [...others(q.name), [q.name, value]],
            body
          }))
      ]
    })

  // Each form a union allows (content changes by `operation`…), valid-looking and with one field of it wrong.
  const formCalls: Call[] = !op.body
    ? []
    : unions(op.body).flatMap(({ path, variants }) =>
        variants.flatMap((variant, i): Call[] => {
          const form = sample(variant, '', 0, true)
          const base = path.length ? setAt(body, path, form) : form
          const where = `body ${path.join('.') || '(root)'} as form ${i}`
          const wrong = shuffle(fields(variant), random)
            .slice(0, 2)
            .map((field): Call => {
              const value = badValues(field.schema, random)[0]
              return {
                caller: 'owner',
                what: `${where}, ${field.path.join('.')}=${JSON.stringify(value)?.slice(0, 60)}`,
                query,
                body: setAt(base, [...path, ...field.path], value)
              }
            })
          return [{ caller: 'owner', what: where, query, body: base }, ...wrong]
        })
      )

  const bodyCalls: Call[] = !op.body
    ? []
    : fields(op.body).flatMap((field) => {
        const name = field.path.join('.')
        const removed: Call[] = field.required
          ? [{ caller: 'owner', what: `body ${name} missing`, query, body: setAt(body, field.path, undefined, true) }]
          : []
        return [
          ...removed,
          ...badValues(field.schema, random)
            .slice(0, 3)
            .map((value): Call => ({
              caller: 'owner',
              what: `body ${name}=${JSON.stringify(value)?.slice(0, 60)}`,
              query,
              body: setAt(body, field.path, value)
            }))
        ]
      })

  // A number JSON can say and JavaScript cannot hold, in each numeric field.
  const hugeNumbers: Call[] = !op.body
    ? []
    : fields(op.body)
        .filter((f) => typeOf(f.schema) === 'number' || typeOf(f.schema) === 'integer')
        .map((field): Call => ({
          caller: 'owner',
          what: `body ${field.path.join('.')}=1e400`,
          query,
          raw: { text: JSON.stringify(setAt(body, field.path, 0.123456789)).replace('0.123456789', '1e400') }
        }))
  const headerCalls: Call[] = [
    ...['"garbage"', '*', 'W/"1"', `"${'r'.repeat(5000)}"`, '"a", "b"'].map((value): Call => ({
      caller: 'owner',
      what: `If-Match ${value.slice(0, 20)}`,
      query,
      body,
      headers: { 'if-match': value }
    })),
    { caller: 'owner', what: 'If-None-Match', query, body, headers: { 'if-none-match': '"x"' } },
    { caller: 'owner', what: 'quire-workspace', query, body, headers: { 'quire-workspace': 'other' } },
    ...(hasBody(op)
      ? [
          'application/json; charset=utf-16',
          'application/json; charset=latin1',
          'application/merge-patch+json',
          'multipart/form-data; boundary=x'
        ].map((type): Call => ({
          caller: 'owner',
          what: `body as ${type}`,
          query,
          raw: { text: JSON.stringify(body ?? {}), type }
        }))
      : [])
  ]

  const nested = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000)
  const rawCalls: Call[] = !hasBody(op)
    ? []
    : [
        ...[
          '{"title":',
          '[]',
          '[{}]',
          '1',
          'null',
          '"text"',
          'true',
          '',
          '{}{}',
          nested,
          '{"__proto__":{"x":1}}',
          '{"constructor":{"prototype":{"x":1}}}',
          '{"a":1,"a":2}'
        ].map((text): Call => ({ caller: 'owner', what: `body ${text.slice(0, 20)}`, query, raw: { text } })),
        { caller: 'owner', what: 'body as text/plain', query, raw: { text: JSON.stringify(body ?? {}), type: 'text/plain' } },
        { caller: 'owner', what: 'body as a form', query, raw: { text: 'title=x', type: 'application/x-www-form-urlencoded' } },
        {
          caller: 'owner',
          what: 'body with a content type of JSON and garbage bytes',
          query,
          raw: { text: '\u0000\u0001\ud800', type: 'application/json; charset=utf-8' }
        }
      ]

  // A fair share of each kind, then whatever is left, to VARIANTS in all.
  const kinds = [cursorCalls, pathCalls, queryCalls, formCalls, [...bodyCalls, ...hugeNumbers], rawCalls, headerCalls].map((list) =>
    shuffle(list, random)
  )
  const chosen: Call[] = []
  while (chosen.length < VARIANTS && kinds.some((kind) => kind.length)) {
    for (const kind of kinds) if (kind.length && chosen.length < VARIANTS) chosen.push(kind.shift()!)
  }
  // A quarter of the invalid calls as the `read` member: their refusals take other paths (403 before or after validation).
  return [...calls, ...chosen.map((call, i): Call => (i % 4 === 3 ? { ...call, caller: 'read' } : call))]
}

interface Failure {
  call: string
  status: number
  answer: string
}

async function run(op: Operation, call: Call): Promise<Failure | undefined> {
  const values = { ...ids, ...call.params }
  let path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? 'unknown')
  // Query values are URL text as they stand (escaped where a test meant it); the URL parser escapes the rest.
  if (call.query?.length) path += `?${call.query.map(([k, v]) => `${k}=${v}`).join('&')}`
  const headers: Record<string, string> = {}
  const token = call.caller === 'owner' ? t.owner.token : call.caller === 'read' ? reader.token : undefined
  if (token) headers.authorization = `Bearer ${token}`
  Object.assign(headers, call.headers)
  let payload: string | undefined
  if (call.raw) {
    payload = call.raw.text
    headers['content-type'] = call.raw.type ?? 'application/json'
  } else if (call.body !== undefined) {
    payload = JSON.stringify(call.body)
    headers['content-type'] = 'application/json'
  }
  const res = await fetch(`${t.url}${path}`, { method: op.method, headers, body: payload })
  const text = await res.text()
  const describe = () => ({
    call: `${call.caller} ${op.method} ${path.slice(0, 300)} (${call.what})${payload === undefined ? '' : `\n    body: ${payload.slice(0, 300)}`}`,
    status: res.status,
    answer: `${res.headers.get('content-type')} ${text.slice(0, 300)}`
  })
  if (res.status >= 500) return describe()
  if (res.status >= 400) {
    let body: any
    try {
      body = JSON.parse(text)
    } catch {
      return describe()
    }
    const envelope =
      body?.error && body.error.code === res.status && typeof body.error.message === 'string' && body.error.message.length > 0
    if (!envelope || !res.headers.get('content-type')?.startsWith('application/json')) return describe()
  }
  return undefined
}

describe('/v1/openapi.json, fuzzed', () => {
  it('answers every operation without a 5xx, and every 4xx in the envelope', async () => {
    const random = prng(SEED)
    const ops = operations()
    expect(ops.length).toBeGreaterThan(140)
    // A new path parameter needs a real id in `seed`.
    expect([...new Set(ops.flatMap((op) => op.pathParams))].filter((name) => !(name in ids))).toEqual([])
    const failures: Failure[] = []
    let calls = 0
    for (const op of ops) {
      const list = callsFor(op, random)
      calls += list.length
      // One at a time: the world the calls share then changes in the same order on every run.
      for (const call of list) {
        const failure = await run(op, call)
        if (failure) failures.push(failure)
      }
    }
    const report = failures.map((f) => `${f.status} ← ${f.call}\n    answer: ${f.answer}`).join('\n')
    expect(failures.length, `${failures.length} of ${calls} calls failed:\n${report}`).toBe(0)
  }, 120_000)
})
