import type { FastifyBaseLogger } from 'fastify'
import type { OpenAPIProcessingPhase } from '../../src-shared/schemas/openapi'
import type { Services } from '../workspace/context'
import { newId } from '../storage/ids'
import { repository } from '../storage/repositories/memo'
import { openapiSpecRepository, type OpenAPISpecRow } from '../storage/repositories/openapiSpecRepository'
import { loadSpec, type SourceDocument } from './document'
import { recordSystemEvent } from '../workspace/audit'
import { fetchDocument, ProcessingCancelled, ProcessingError, withoutCredentials } from './fetcher'

export const DEFAULT_FETCH_TIMEOUT_MS = 10_000
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024
/** The main document and its `$ref` files together. */
const MAX_TOTAL_BYTES = 20 * 1024 * 1024
/** Specs processed at the same time (each spec has at most one job at a time). */
const MAX_CONCURRENT_JOBS = 4

export interface OpenAPIProcessor {
  /** Processes the spec's current source soon (after the caller's transaction has committed and answered). */
  enqueue(specId: string): void
  /** Stops taking jobs, cancels the running ones (they record nothing) and waits for them to end. */
  close(): Promise<void>
}

/** Where an inline `{text}` version can be read back (stored as a path: the server's port changes). */
export const inlineVersionUrl = (spec: Pick<OpenAPISpecRow, 'organization_id' | 'slug'>, versionId: string) =>
  `/v1/orgs/${spec.organization_id}/openapi/${spec.slug}/versions/${versionId}/content`

/**
 * The in-process queue that turns a spec's source into a version, off the request path. A job reads the
 * spec, marks it `progress`, fetches and validates outside any transaction, and records the outcome in one short
 * write: a version and `complete`, or `complete` with `lastProcessErrorCode`. Each job is bound to the source
 * generation it started with, so a source replaced meanwhile (or a spec deleted) makes it record nothing; the
 * replacement has queued its own job, which runs once this one ends.
 */
export function createOpenAPIProcessor(services: Services, log: FastifyBaseLogger): OpenAPIProcessor {
  const waiting: string[] = []
  const running = new Map<string, Promise<void>>()
  const stop = new AbortController()
  let scheduled = false

  const pump = () => {
    scheduled = false
    for (let i = 0; i < waiting.length && running.size < MAX_CONCURRENT_JOBS;) {
      const id = waiting[i]!
      if (running.has(id)) {
        i++
        continue
      }
      waiting.splice(i, 1)
      const job = processSpec(services, id, stop.signal, log)
        .catch((err) => log.error({ err }, 'OpenAPI processing failed'))
        .finally(() => {
          running.delete(id)
          schedule()
        })
      running.set(id, job)
    }
  }
  const schedule = () => {
    if (scheduled || stop.signal.aborted) return
    scheduled = true
    setImmediate(pump)
  }

  return {
    enqueue(specId) {
      if (stop.signal.aborted) return
      // One waiting job per spec is enough: it reads the newest source when it starts.
      if (!waiting.includes(specId)) waiting.push(specId)
      schedule()
    },
    async close() {
      waiting.length = 0
      stop.abort()
      await Promise.allSettled(running.values())
    }
  }
}

async function processSpec(services: Services, specId: string, signal: AbortSignal, log: FastifyBaseLogger): Promise<void> {
  const { db, clock } = services
  const specs = repository(db, openapiSpecRepository)
  const commit = <T>(fn: () => T): T => {
    const result = db.transaction(fn).immediate()
    services.writes++
    return result
  }
  const spec = specs.get(specId)
  if (!spec || spec.processing_state === 'complete') return
  const generation = spec.source_generation
  if (!commit(() => specs.markProgress(specId, generation))) return

  const timeoutMs = services.openapi?.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS
  let budget = MAX_TOTAL_BYTES
  const read = async (url: string) => {
    const file = await fetchDocument(url, { timeoutMs, maxBytes: Math.min(MAX_DOCUMENT_BYTES, budget), signal })
    budget -= Buffer.byteLength(file.text)
    return file
  }
  // Each phase is one short write, so a screen polling the spec sees it move.
  const phase = (name: OpenAPIProcessingPhase, files: number) => {
    if (!signal.aborted) commit(() => specs.setPhase(specId, generation, name, files))
  }
  try {
    const source: SourceDocument = spec.source_url != null ? await read(spec.source_url) : { url: undefined, text: spec.source_text ?? '' }
    const loaded = await loadSpec(source, read, phase)
    if (signal.aborted) return
    phase('storing', Object.keys(loaded.filesystem).length)
    const versionId = newId()
    const version = {
      id: versionId,
      url: spec.source_url != null ? withoutCredentials(spec.source_url) : inlineVersionUrl(spec, versionId),
      filesystem: JSON.stringify(loaded.filesystem)
    }
    commit(() => {
      const now = clock.now().toISOString()
      if (specs.recordVersion(specId, generation, version, now))
        recordProcessed(services, spec, now, 'openapi_spec.processed', { lastVersion: versionId, processingState: 'complete' })
    })
  } catch (error) {
    if (error instanceof ProcessingCancelled || signal.aborted) return
    // The spec records the code, the message and where (the document's own words; URLs without credentials).
    if (error instanceof ProcessingError) log.info({ specId, code: error.code, reason: error.message }, 'OpenAPI processing failed')
    else log.error({ err: error, specId }, 'OpenAPI processing failed unexpectedly')
    const failure = error instanceof ProcessingError ? error : new ProcessingError('PARSE_ERROR', 'The document could not be processed')
    const detail = JSON.stringify({ message: failure.message, location: failure.location, lines: failure.lines })
    commit(() => {
      const now = clock.now().toISOString()
      if (specs.recordFailure(specId, generation, failure.code, detail, now))
        recordProcessed(services, spec, now, 'openapi_spec.processing_failed', {
          lastProcessErrorCode: failure.code,
          processingState: 'complete'
        })
    })
  }
}

/** The event of a processing's outcome, in its write: caused by the write that set the source it processed. */
function recordProcessed(
  services: Services,
  spec: OpenAPISpecRow,
  now: string,
  action: 'openapi_spec.processed' | 'openapi_spec.processing_failed',
  after: Record<string, unknown>
): void {
  recordSystemEvent(services, {
    organizationId: spec.organization_id,
    action,
    actor: 'openapi',
    occurredAt: now,
    target: { id: spec.slug, label: spec.slug },
    after,
    causedBy: spec.source_event_id
  })
}
