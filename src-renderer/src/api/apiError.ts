// Errors of the /v1 API as the renderer sees them. Pure: no window, no transport (tested under Node).

/** An API error answer (`{ error: { code, message } }`), or a transport failure (status 0). */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown
  ) {
    super(message)
  }
}

export function toApiError(status: number, payload: unknown): ApiError {
  // The addendum's envelope is `{error: {code: <status as a number>, message}}`; accept string codes too.
  const error = (payload as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error
  if (error && typeof error.message === 'string') {
    const code = typeof error.code === 'string' || typeof error.code === 'number' ? String(error.code) : `http_${status}`
    return new ApiError(status, code, error.message, error.details)
  }
  return new ApiError(status, `http_${status}`, `The API answered ${status}.`)
}

/**
 * The field a 400 (or a uniqueness 409) answer blames, from the message's leading path (`title: must be at most 50 characters`,
 * `emails.0: must be a valid email`): `{field: 'title', path: 'title', rule: 'must be …'}`.
 */
export function fieldError(error: unknown): { field: string; path: string; rule: string } | null {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return null
  const match = /^([A-Za-z_][\w-]*)((?:\.[\w-]+)*): (.+)$/s.exec(error.message)
  if (!match || match[1] === 'body') return null
  return { field: match[1]!, path: match[1]! + match[2]!, rule: match[3]! }
}
