import { describe, expect, it } from 'vitest'
import { ApiError, fieldError, toApiError } from './apiError.ts'
import { withQuery } from './paths.ts'

describe('API errors', () => {
  it("reads the addendum's envelope, whose code is the status as a number", () => {
    const error = toApiError(409, { error: { code: 409, message: 'role: cannot demote the last admin' } })
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 409, code: '409', message: 'role: cannot demote the last admin' })
  })

  it('says the status when the body is not an error envelope', () => {
    expect(toApiError(502, undefined).message).toBe('The API answered 502.')
  })

  it('finds the field a 400 names, with nested paths', () => {
    expect(fieldError(new ApiError(400, '400', 'title: must be at most 50 characters'))).toEqual({
      field: 'title',
      path: 'title',
      rule: 'must be at most 50 characters'
    })
    expect(fieldError(new ApiError(400, '400', 'emails.0: must be a valid email'))).toMatchObject({ field: 'emails', path: 'emails.0' })
  })

  it('names no field for whole-body problems, other statuses, or other errors', () => {
    expect(fieldError(new ApiError(400, '400', "body: Body cannot be empty when content-type is set to 'application/json'"))).toBeNull()
    expect(fieldError(new ApiError(403, '403', 'role: you may not'))).toBeNull()
    expect(fieldError(new Error('title: nope'))).toBeNull()
  })
})

describe('withQuery', () => {
  it('leaves out empty values and keeps an existing query', () => {
    expect(withQuery('/v1/orgs/a/members', { search: 'ann', role: undefined, page: '', limit: 100 })).toBe(
      '/v1/orgs/a/members?search=ann&limit=100'
    )
    expect(withQuery('/v1/x?a=1', { b: true })).toBe('/v1/x?a=1&b=true')
    expect(withQuery('/v1/x', {})).toBe('/v1/x')
  })
})
