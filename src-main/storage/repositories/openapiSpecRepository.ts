import type { Db } from '../database'
import { newId } from '../ids'

export interface OpenAPISpecRow {
  seq: number
  id: string
  organization_id: string
  slug: string
  source_url: string | null
  source_text: string | null
  source_generation: number
  processing_state: string
  last_version_id: string | null
  last_processed_at: string | null
  last_process_error_code: string | null
  /** JSON `{message, location?, lines?}` of the last failure. */
  last_process_error: string | null
  processing_phase: string | null
  processing_files: number
  created_at: string
  updated_at: string
  /** The audit event of the write that set the current source: the cause of its processing's event. */
  source_event_id: string | null
}

/** A version without its (possibly large) content. */
export interface OpenAPIVersionRow {
  seq: number
  id: string
  spec_id: string
  url: string
  created_at: string
}

export interface OpenAPISource {
  source_url: string | null
  source_text: string | null
}

const VERSION_COLUMNS = 'seq, id, spec_id, url, created_at'

export function openapiSpecRepository(db: Db) {
  const byId = db.prepare<[string], OpenAPISpecRow>('SELECT * FROM openapi_specs WHERE id = ?')
  const bySlug = db.prepare<[string, string], OpenAPISpecRow>('SELECT * FROM openapi_specs WHERE organization_id = ? AND slug = ?')
  const inOrg = db.prepare<[string, number, number], OpenAPISpecRow>(
    'SELECT * FROM openapi_specs WHERE organization_id = ? AND seq > ? ORDER BY seq LIMIT ?'
  )
  const countInOrg = db.prepare<[string], number>('SELECT count(*) FROM openapi_specs WHERE organization_id = ?').pluck()
  const insert = db.prepare(
    `INSERT INTO openapi_specs (id, organization_id, slug, source_url, source_text, created_at, updated_at)
     VALUES (@id, @organization_id, @slug, @source_url, @source_text, @now, @now)`
  )
  const setSource = db.prepare(
    `UPDATE openapi_specs SET source_url = @source_url, source_text = @source_text, source_generation = source_generation + 1,
     processing_state = 'pending', updated_at = @now WHERE id = @id`
  )
  const setSourceEvent = db.prepare<[string | null, string]>('UPDATE openapi_specs SET source_event_id = ? WHERE id = ?')
  const remove = db.prepare('DELETE FROM openapi_specs WHERE id = ?')
  const unfinished = db.prepare<[], string>("SELECT id FROM openapi_specs WHERE processing_state <> 'complete' ORDER BY seq").pluck()
  const toProgress = db.prepare<[string, number]>(
    "UPDATE openapi_specs SET processing_state = 'progress', processing_phase = 'fetching', processing_files = 0 WHERE id = ? AND source_generation = ?"
  )
  const toPhase = db.prepare(
    "UPDATE openapi_specs SET processing_phase = @phase, processing_files = @files WHERE id = @id AND source_generation = @generation AND processing_state = 'progress'"
  )
  const insertVersion = db.prepare(
    'INSERT INTO openapi_spec_versions (id, spec_id, url, filesystem, created_at) VALUES (@id, @spec_id, @url, @filesystem, @now)'
  )
  const succeeded = db.prepare(
    `UPDATE openapi_specs SET processing_state = 'complete', last_version_id = @version_id, last_processed_at = @now,
     last_process_error_code = NULL, last_process_error = NULL, processing_phase = NULL WHERE id = @id AND source_generation = @generation`
  )
  const failed = db.prepare(
    `UPDATE openapi_specs SET processing_state = 'complete', last_processed_at = @now, last_process_error_code = @code,
     last_process_error = @error, processing_phase = NULL WHERE id = @id AND source_generation = @generation`
  )
  const versionsBefore = db.prepare<[string, number, number], OpenAPIVersionRow>(
    `SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE spec_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`
  )
  const countVersions = db.prepare<[string], number>('SELECT count(*) FROM openapi_spec_versions WHERE spec_id = ?').pluck()
  const version = db.prepare<[string, string], OpenAPIVersionRow>(
    `SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE spec_id = ? AND id = ?`
  )
  const latest = db.prepare<[string], OpenAPIVersionRow>(
    `SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE spec_id = ? ORDER BY seq DESC LIMIT 1`
  )
  const filesystem = db.prepare<[string], string>('SELECT filesystem FROM openapi_spec_versions WHERE id = ?').pluck()

  return {
    get: (id: string) => byId.get(id),
    getBySlug: (organizationId: string, slug: string) => bySlug.get(organizationId, slug),
    listInOrg: (organizationId: string, afterSeq: number, limit: number) => inOrg.all(organizationId, afterSeq, limit),
    countInOrg: (organizationId: string) => countInOrg.get(organizationId)!,
    /** A new spec, pending its first processing. */
    create(input: { organization_id: string; slug: string } & OpenAPISource, now: string): OpenAPISpecRow {
      const id = newId()
      insert.run({ id, ...input, now })
      return byId.get(id)!
    },
    /** A new source: pending again, and any processing of the previous source will record nothing. */
    replaceSource(id: string, source: OpenAPISource, now: string): OpenAPISpecRow {
      setSource.run({ id, ...source, now })
      return byId.get(id)!
    },
    /** Names the audit event of the write that set the spec's source (null: none was recorded). */
    setSourceEvent: (id: string, eventId: string | null) => void setSourceEvent.run(eventId, id),
    remove: (id: string) => remove.run(id).changes > 0,
    /** Specs a stopped process left pending or in progress. */
    unfinished: () => unfinished.all(),
    /** Marks the processing of `generation` as started; false when the spec is gone or has a newer source. */
    markProgress: (id: string, generation: number) => toProgress.run(id, generation).changes > 0,
    /** What the running processing of `generation` is doing now. */
    setPhase: (id: string, generation: number, phase: string, files: number) => toPhase.run({ id, generation, phase, files }).changes > 0,
    /** Records a successful processing as version `input.id`; false (nothing written) when the source changed meanwhile. */
    recordVersion(id: string, generation: number, input: { id: string; url: string; filesystem: string }, now: string): boolean {
      if (succeeded.run({ id, generation, version_id: input.id, now }).changes === 0) return false
      insertVersion.run({ id: input.id, spec_id: id, url: input.url, filesystem: input.filesystem, now })
      return true
    },
    /** `error`: JSON `{message, location?, lines?}`. */
    recordFailure: (id: string, generation: number, code: string, error: string, now: string) =>
      failed.run({ id, generation, code, error, now }).changes > 0,
    /** Newest first. */
    listVersions: (specId: string, beforeSeq: number, limit: number) => versionsBefore.all(specId, beforeSeq, limit),
    countVersions: (specId: string) => countVersions.get(specId)!,
    getVersion: (specId: string, versionId: string) => version.get(specId, versionId),
    latestVersion: (specId: string) => latest.get(specId),
    /** The stored JSON text of a version's filesystem (answered as is, without parsing). */
    filesystemJson: (versionId: string) => filesystem.get(versionId)
  }
}
