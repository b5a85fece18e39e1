import type { OpenAPIErrorLocation, OpenAPISpec } from '../../api/types.ts'

export type SpecStatus = 'pending' | 'processing' | 'ready' | 'failed'

/** What a spec's row and header show: waiting, running, its last processing succeeded, or it failed. */
export function specStatus(spec: Pick<OpenAPISpec, 'processingState' | 'lastProcessErrorCode'>): SpecStatus {
  if (spec.processingState === 'pending') return 'pending'
  if (spec.processingState === 'progress') return 'processing'
  return spec.lastProcessErrorCode ? 'failed' : 'ready'
}

export const STATUS_LABELS: Record<SpecStatus, string> = { pending: 'Waiting', processing: 'Processing', ready: 'Ready', failed: 'Failed' }
export const STATUS_COLORS: Record<SpecStatus, string> = { pending: 'gray', processing: 'blue', ready: 'teal', failed: 'red' }

/** The processing's steps in order, as the API names its phases. */
export const PHASES = [
  { phase: 'fetching', label: 'Fetching the document' },
  { phase: 'parsing', label: 'Parsing' },
  { phase: 'resolving', label: 'Reading $ref files' },
  { phase: 'validating', label: 'Validating' },
  { phase: 'storing', label: 'Storing the version' }
] as const

/** How far a running processing is, 0–100, by the phases done (a phase just started counts half). */
export function progressPercent(progress: OpenAPISpec['processingProgress']): number {
  if (!progress) return 0
  const index = PHASES.findIndex((p) => p.phase === progress.phase)
  return Math.round(((Math.max(index, 0) + 0.5) / PHASES.length) * 100)
}

/** One line saying what a running processing is doing ("Reading $ref files · 3 files read"). */
export function progressText(progress: OpenAPISpec['processingProgress']): string {
  if (!progress) return 'Starting…'
  const label = PHASES.find((p) => p.phase === progress.phase)?.label ?? progress.phase
  return progress.filesRead > 0 ? `${label} · ${progress.filesRead} ${progress.filesRead === 1 ? 'file' : 'files'} read` : label
}

export const ERROR_TITLES: Record<NonNullable<OpenAPISpec['lastProcessErrorCode']>, string> = {
  FETCH_TIMEOUT: 'The address did not answer in time',
  FETCH_ERROR: 'The document could not be fetched',
  PARSE_ERROR: 'The document could not be read'
}

/** Where an error is, for people: "openapi.yaml, line 7, column 3" or "openapi.yaml at /info". */
export function locationText(location: OpenAPIErrorLocation | undefined): string | undefined {
  if (!location) return undefined
  const parts = [location.file]
  if (location.line !== undefined) parts.push(`line ${location.line}${location.column !== undefined ? `, column ${location.column}` : ''}`)
  const text = parts.join(', ')
  return location.pointer !== undefined ? `${text} (at ${location.pointer || '/'})` : text
}

/** A slug the API accepts, made from a file name or an address ("Pet Store.v2.yaml" → "pet-store-v2"). */
export function slugFrom(name: string): string {
  const base =
    name
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop() ?? ''
  return base
    .replace(/\.(ya?ml|json)$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '')
}
