import { posix } from 'node:path'
import type { Validator } from '@seriousme/openapi-schema-validator'
import { isMap, isScalar, isSeq, LineCounter, parse as parseYaml, parseDocument as parseYamlDocument, YAMLError } from 'yaml'
import type { OpenAPIErrorCode } from '../../src-shared/schemas/openapi'
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
  /** The file's path in the version's filesystem (what error locations name). */
  key: string
  text: string
  doc: unknown
}

/** Phases the processor shows while a spec is processed. */
export type LoadPhase = 'parsing' | 'resolving' | 'validating'
export type OnProgress = (phase: LoadPhase, filesRead: number) => void

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

const CONTEXT_LINES = 2
const MAX_LINE_CHARS = 200

/** The lines around `line` (1-based), for an error to show what it is about. */
export function linesAround(text: string, line: number): { number: number; text: string }[] {
  const all = text.split(/\r?\n/)
  if (all.length > 1 && all.at(-1) === '') all.pop()
  const first = Math.max(1, line - CONTEXT_LINES)
  const last = Math.min(all.length, line + CONTEXT_LINES)
  const lines: { number: number; text: string }[] = []
  for (let n = first; n <= last; n++) lines.push({ number: n, text: all[n - 1]!.slice(0, MAX_LINE_CHARS) })
  return lines
}

const pointerOf = (path: (string | number)[]) => path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('')
const segmentsOf = (pointer: string) =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))

/** Where a JSON pointer's value starts in YAML or JSON text (the `yaml` package's node ranges), if it is there. */
function linePosOf(text: string, pointer: string): { line: number; col: number } | undefined {
  const counter = new LineCounter()
  const doc = parseYamlDocument(text, { lineCounter: counter, merge: true })
  if (doc.errors.length) return undefined
  let node: unknown = doc.contents
  let start: number | undefined = (node as { range?: [number] } | null)?.range?.[0]
  for (const segment of segmentsOf(pointer)) {
    if (isMap(node)) {
      const pair = node.items.find((item) => String(isScalar(item.key) ? item.key.value : item.key) === segment)
      if (!pair) return start === undefined ? undefined : counter.linePos(start)
      start = (pair.key as { range?: [number] } | null)?.range?.[0] ?? start
      node = pair.value
    } else if (isSeq(node)) {
      node = node.items[Number(segment)]
      start = (node as { range?: [number] } | null)?.range?.[0] ?? start
    } else break
  }
  return start === undefined ? undefined : counter.linePos(start)
}

/** An error at `pointer` of `file`, with its line and the lines around it when the text shows where it is. */
function errorAt(code: OpenAPIErrorCode, message: string, file: Pick<LoadedFile, 'key' | 'text'>, pointer: string): ProcessingError {
  const pos = linePosOf(file.text, pointer)
  if (!pos) return new ProcessingError(code, message, { file: file.key, pointer })
  return new ProcessingError(code, message, { file: file.key, pointer, line: pos.line, column: pos.col }, linesAround(file.text, pos.line))
}

/** YAML or JSON (JSON is YAML, but JSON.parse is much faster on large documents). `key` names the file in errors. */
export function parseDocument(text: string, where: string, key = where): unknown {
  const trimmed = text.trimStart()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text)
    } catch {
      // Flow-style YAML also starts with `{`: let the YAML parser decide (and say where a JSON error is).
    }
  }
  try {
    // `maxAliasCount` bounds alias expansion (a "billion laughs" document); `merge` allows the common `<<` keys.
    return parseYaml(text, { maxAliasCount: 1000, merge: true })
  } catch (error) {
    const message = `${where} is neither JSON nor YAML (${(error as Error).message.split('\n', 1)[0]!.replace(/:$/, '')})`
    if (error instanceof YAMLError && error.linePos) {
      const { line, col } = error.linePos[0]
      throw new ProcessingError('PARSE_ERROR', message, { file: key, line, column: col }, linesAround(text, line))
    }
    throw new ProcessingError('PARSE_ERROR', message, { file: key })
  }
}

/** Every `$ref` string in a document with its JSON pointer (an explicit stack: documents can be deep). */
function refsOf(root: unknown): { ref: string; pointer: string }[] {
  const refs: { ref: string; pointer: string }[] = []
  const stack: [unknown, (string | number)[]][] = [[root, []]]
  while (stack.length) {
    const [node, path] = stack.pop()!
    if (Array.isArray(node)) node.forEach((item, i) => stack.push([item, [...path, i]]))
    else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') refs.push({ ref: value, pointer: pointerOf([...path, key]) })
        else if (typeof value === 'object') stack.push([value, [...path, key]])
      }
    }
  }
  // Document order: the first broken one is the one a reader meets first.
  return refs.reverse()
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

/** Whether a `$ref` fragment (`/components/schemas/Pet`, URI-encoded) names a place in `doc`. */
function hasPlace(doc: unknown, fragment: string): boolean {
  let node = doc
  let segments: string[]
  try {
    segments = segmentsOf(decodeURIComponent(fragment))
  } catch {
    return false
  }
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)]
    else if (isObject(node) && Object.hasOwn(node, segment)) node = node[segment]
    else return false
  }
  return node !== undefined
}

/**
 * Parses the main document, reads every external `$ref` file it needs (recursively, relative to the file that
 * refers to it, at most MAX_EXTERNAL_FILES), checks that each `$ref` names a place that exists, and validates the
 * whole as Swagger 2.0 or OpenAPI 3.x. Errors say where they are (file, line and column, or JSON pointer).
 */
export async function loadSpec(source: SourceDocument, readFile: FileReader, onProgress: OnProgress = () => {}): Promise<LoadedSpec> {
  const mainUrl = source.url ? new URL(source.url) : undefined
  const mainKey = mainKeyFor(source)
  onProgress('parsing', 1)
  const main = parseDocument(source.text, 'The document', mainKey)
  if (!isObject(main) || Array.isArray(main))
    throw new ProcessingError('PARSE_ERROR', 'The document is not an object', { file: mainKey, pointer: '' })
  // `url` is where a file really is (after redirects; relative refs inside resolve against it), `requested` is
  // how the documents refer to it (its path in the filesystem).
  const files: LoadedFile[] = [{ url: source.url, requested: source.url, key: mainKey, text: source.text, doc: main }]
  const index = new Map<string, number>()
  if (source.url) index.set(resolveFile('', source.url), 0)
  for (let i = 0; i < files.length; i++) {
    const from = files[i]!
    for (const { ref, pointer } of refsOf(from.doc)) {
      if (ref.startsWith('#')) continue
      try {
        const url = resolveFile(ref, from.url)
        if (index.has(url)) continue
        if (files.length > MAX_EXTERNAL_FILES)
          throw new ProcessingError('PARSE_ERROR', `The document refers to more than ${MAX_EXTERNAL_FILES} files`)
        onProgress('resolving', files.length)
        const read = await readFile(url)
        index.set(url, files.length)
        if (!index.has(read.url)) index.set(read.url, files.length)
        const key = keyFor(url, mainUrl)
        files.push({ url: read.url, requested: url, key, text: read.text, doc: parseDocument(read.text, withoutCredentials(url), key) })
      } catch (error) {
        // A file that cannot be read or resolved is located at the `$ref` that names it.
        if (error instanceof ProcessingError && !error.location) throw errorAt(error.code, error.message, from, pointer)
        throw error
      }
    }
  }
  for (const file of files) {
    for (const { ref, pointer } of refsOf(file.doc)) {
      const hash = ref.indexOf('#')
      // Only JSON-pointer fragments are checked here; anything else is the validator's to judge.
      if (hash < 0 || !(ref.length === hash + 1 || ref[hash + 1] === '/')) continue
      const target = ref.startsWith('#') ? file : files[index.get(resolveFile(ref, file.url))!]!
      if (!hasPlace(target.doc, ref.slice(hash + 1))) {
        throw errorAt('PARSE_ERROR', `$ref ${ref} names no place in ${target.key}`, file, pointer)
      }
    }
  }
  onProgress('validating', files.length)
  await validate(files, index)

  const filesystem: Record<string, unknown> = { [mainKey]: main }
  for (const file of files.slice(1)) {
    filesystem[file.key in filesystem ? withoutCredentials(file.requested!) : file.key] = file.doc
  }
  return { filesystem, mainKey }
}

let validator: Validator | undefined
const EXTERNAL = 'x-quire-external'

/**
 * The validator checks internal references only, so it gets a copy where each external file sits under a
 * vendor extension of the main document and every `$ref` points inside it. One validator per process: it
 * compiles the OpenAPI meta-schemas once (most of a second each); it keeps no state between calls when every
 * reference is internal. The package is loaded with it (a start that processes no spec never loads it).
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
  validator ??= new (await import('@seriousme/openapi-schema-validator')).Validator()
  const result = await validator.validate(bundled)
  if (result.valid) return
  const first = Array.isArray(result.errors) ? result.errors[0] : undefined
  const detail = first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : String(result.errors ?? 'invalid')
  if (!first)
    throw new ProcessingError('PARSE_ERROR', `Not a valid Swagger 2.0 or OpenAPI 3.x document: ${detail}`, { file: files[0]!.key })
  // Values under the extension (the external files) are free-form to the validator: its errors are in the main file.
  throw errorAt('PARSE_ERROR', `Not a valid Swagger 2.0 or OpenAPI 3.x document: ${detail}`, files[0]!, first.instancePath)
}
