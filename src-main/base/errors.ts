/** A failure with its HTTP status; the error handler turns it into the addendum's envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new ApiError(400, message)
export const unauthorized = (message = 'Authentication required: send Authorization: Bearer <token>') => new ApiError(401, message)
export const forbidden = (message = 'Your role does not allow this operation') => new ApiError(403, message)
export const notFound = (what = 'Resource') => new ApiError(404, `${what} not found`)
export const conflict = (message: string) => new ApiError(409, message)
/** A path whose %-escapes do not decode (to UTF-8): refused before any route reads it. */
export const badPercentEncoding = () => badRequest('path: must be percent-encoded correctly (%XX, UTF-8)')
export const preconditionFailed = (message: string) => new ApiError(412, message)
