import { posix } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { parse as parseYaml } from 'yaml'
import { isHttpUrl, ProcessingError, withoutCredentials } from './fetcher'

/** At most this many external `$ref` files besides the main document. */
export const MAX_EXTERNAL_FILES = 50

export interface SourceDocument {
  /** Where the text was read from (relative `$ref`s resolve against it); undefined for an inline `{text}` source. */
  url: string | undefined
  text: string
}

export interface LoadedSpec {
  /** Path -> parsed document: the main document first, then every external `$ref` file. */
  filesystem: Record<string, unknown>
  mainKey: string
}

/** Reads one more file for `$ref` resolution; throws ProcessingError (FETCH_*) when it cannot. */
export type FileReader = (url: string) => Promise<SourceDocument & { url: string }>

interface LoadedFile {
  url: string | undefined
  requested: string | undefined
  doc: unknown
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/** YAML or JSON (JSON is YAML, but JSON.parse is much faster on large documents). */
export function parseDocument(text: string, where: string): unknown {
  const trimmed = text.trimStart()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text)
    } catch {
      // Flow-style YAML also starts with `{`: let the YAML parser decide.
    }
  }
  try {
    // `maxAliasCount` bounds alias expansion (a "billion laughs" document); `merge` allows the common `<<` keys.
    return parseYaml(text, { maxAliasCount: 1000, merge: true })
  } catch (error) {
    throw new ProcessingError('PARSE_ERROR', `${where} is neither JSON nor YAML (${(error as Error).message.split('\n', 1)[0]})`)
  }
}

/** Every `$ref` string in a document (an explicit stack: documents can be deep). */
function refsOf(root: unknown): string[] {
  const refs: string[] = []
  const stack = [root]
  while (stack.length) {
    const node = stack.pop()
    if (Array.isArray(node)) stack.push(...node)
    else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') refs.push(value)
        else if (typeof value === 'object') stack.push(value)
      }
    }
  }
  return refs
}

function resolveFile(ref: string, base: string | undefined): string {
  const file = ref.slice(0, ref.indexOf('#') < 0 ? ref.length : ref.indexOf('#'))
  let url: URL
  try {
    url = new URL(file, base)
  } catch {
    throw new ProcessingError('PARSE_ERROR', `$ref ${ref} cannot be resolved${base ? '' : ' (an inline document has no base URL)'}`)
  }
  if (!isHttpUrl(url)) throw new ProcessingError('PARSE_ERROR', `$ref ${ref} is not an http or https URL`)
  url.hash = ''
  return url.href
}

/** A file's path in the version's filesystem: relative to the main document, or its URL on another origin. */
function keyFor(url: string, main: URL | undefined): string {
  const file = new URL(url)
  if (!main || file.origin !== main.origin) return withoutCredentials(file.href)
  return posix.relative(posix.dirname(main.pathname), file.pathname) + file.search
}

function mainKeyFor(source: SourceDocument): string {
  const name = source.url ? posix.basename(new URL(source.url).pathname) : ''
  if (name) return name
  return source.text.trimStart().startsWith('{') ? 'openapi.json' : 'openapi.yaml'
}

/**
 * Parses the main document, reads every external `$ref` file it needs (recursively, relative to the file that
 * refers to it, at most MAX_EXTERNAL_FILES), and validates the whole as Swagger 2.0 or OpenAPI 3.x.
 */
export async function loadSpec(source: SourceDocument, readFile: FileReader): Promise<LoadedSpec> {
  const main = parseDocument(source.text, 'The document')
  if (!isObject(main) || Array.isArray(main)) throw new ProcessingError('PARSE_ERROR', 'The document is not an object')
  // `url` is where a file really is (after redirects; relative refs inside resolve against it), `requested` is
  // how the documents refer to it (its path in the filesystem).
  const files: LoadedFile[] = [{ url: source.url, requested: source.url, doc: main }]
  const index = new Map<string, number>()
  if (source.url) index.set(resolveFile('', source.url), 0)
  for (let i = 0; i < files.length; i++) {
    for (const ref of refsOf(files[i]!.doc)) {
      if (ref.startsWith('#')) continue
      const url = resolveFile(ref, files[i]!.url)
      if (index.has(url)) continue
      if (files.length > MAX_EXTERNAL_FILES) throw new ProcessingError('PARSE_ERROR', `The document refers to more than ${MAX_EXTERNAL_FILES} files`)
      const read = await readFile(url)
      index.set(url, files.length)
      if (!index.has(read.url)) index.set(read.url, files.length)
      files.push({ url: read.url, requested: url, doc: parseDocument(read.text, withoutCredentials(url)) })
    }
  }
  await validate(files, index)

  const mainUrl = source.url ? new URL(source.url) : undefined
  const mainKey = mainKeyFor(source)
  const filesystem: Record<string, unknown> = { [mainKey]: main }
  for (const file of files.slice(1)) {
    const key = keyFor(file.requested!, mainUrl)
    filesystem[key in filesystem ? withoutCredentials(file.requested!) : key] = file.doc
  }
  return { filesystem, mainKey }
}

let validator: Validator | undefined
const EXTERNAL = 'x-quire-external'

/**
 * The validator checks internal references only, so it gets a copy where each external file sits under a
 * vendor extension of the main document and every `$ref` points inside it. One validator per process: it
 * compiles the OpenAPI meta-schemas once (most of a second each); it keeps no state between calls when every
 * reference is internal.
 */
async function validate(files: LoadedFile[], index: Map<string, number>): Promise<void> {
  const prefix = (j: number) => (j === 0 ? '#' : `#/${EXTERNAL}/${j - 1}`)
  const rewrite = (node: unknown, i: number): unknown => {
    if (Array.isArray(node)) return node.map((item) => rewrite(item, i))
    if (!isObject(node)) return node
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const hash = value.indexOf('#')
        const fragment = hash < 0 ? '' : value.slice(hash + 1)
        out[key] = prefix(value.startsWith('#') ? i : index.get(resolveFile(value, files[i]!.url))!) + fragment
      } else out[key] = rewrite(value, i)
    }
    return out
  }
  const bundled = rewrite(files[0]!.doc, 0) as Record<string, unknown>
  if (files.length > 1) bundled[EXTERNAL] = files.slice(1).map((f, k) => rewrite(f.doc, k + 1))
  validator ??= new Validator()
  const result = await validator.validate(bundled)
  if (result.valid) return
  const first = Array.isArray(result.errors) ? result.errors[0] : undefined
  const detail = first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : String(result.errors ?? 'invalid')
  throw new ProcessingError('PARSE_ERROR', `Not a valid Swagger 2.0 or OpenAPI 3.x document: ${detail}`)
}
