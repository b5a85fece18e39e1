import type {
  OpenAPIErrorCode,
  OpenAPIProcessError,
  OpenAPIProcessingPhase,
  OpenAPIProcessingState,
  OpenAPISpec,
  OpenAPISpecVersion
} from '../../../src-shared/schemas/openapi'
import type { OpenAPISpecRow, OpenAPIVersionRow } from '../../storage/repositories/openapiSpecRepository'
import type { Ctx } from '../../workspace/context'
import { membership } from '../policies/access'
import { openapiSpecPermissions } from '../policies/openapiSpec'

export const specPath = (row: Pick<OpenAPISpecRow, 'organization_id' | 'slug'>) => `/v1/orgs/${row.organization_id}/openapi/${row.slug}`

export function presentOpenAPISpec(row: OpenAPISpecRow, ctx: Ctx): OpenAPISpec {
  const spec: OpenAPISpec = {
    object: 'openapi-spec',
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    slug: row.slug,
    processingState: row.processing_state as OpenAPIProcessingState,
    lastProcessedErrorCount: row.last_process_error_code != null ? 1 : 0,
    permissions: openapiSpecPermissions(membership(ctx, row.organization_id)),
    urls: { location: ctx.url(specPath(row)), app: ctx.appUrl(`/orgs/${row.organization_id}/openapi/${row.slug}`) }
  }
  if (row.source_url != null) spec.sourceURL = row.source_url
  if (row.last_version_id != null) spec.lastVersion = row.last_version_id
  if (row.last_processed_at != null) spec.lastProcessedAt = row.last_processed_at
  if (row.last_process_error_code != null) {
    spec.lastProcessErrorCode = row.last_process_error_code as OpenAPIErrorCode
    // Failures recorded before migration 24 have a code only.
    const detail = row.last_process_error
      ? (JSON.parse(row.last_process_error) as Omit<OpenAPIProcessError, 'code'>)
      : { message: row.last_process_error_code }
    spec.lastProcessError = { code: spec.lastProcessErrorCode, ...detail }
  }
  if (row.processing_state === 'progress' && row.processing_phase != null) {
    spec.processingProgress = { phase: row.processing_phase as OpenAPIProcessingPhase, filesRead: row.processing_files }
  }
  return spec
}

export function presentOpenAPIVersion(spec: OpenAPISpecRow, row: OpenAPIVersionRow, ctx: Ctx): OpenAPISpecVersion {
  return {
    object: 'openapi-spec-version',
    id: row.id,
    createdAt: row.created_at,
    url: versionUrl(row, ctx),
    urls: { location: ctx.url(`${specPath(spec)}/versions/${row.id}`) }
  }
}

/** Inline (`{text}`) versions store the path they are read back from; the server's origin is added here. */
export const versionUrl = (row: OpenAPIVersionRow, ctx: Ctx) => (row.url.startsWith('/') ? ctx.url(row.url) : row.url)
