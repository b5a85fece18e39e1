import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/apiError.ts'
import { formFieldError } from './formErrors.ts'

const bad = (message: string, status = 400) => new ApiError(status, String(status), message)

describe('formFieldError', () => {
  it('puts a message under the field it names, as a sentence', () => {
    expect(formFieldError(bad('title: must be at most 50 characters'), { title: '' })).toEqual({
      path: 'title',
      message: 'Must be at most 50 characters'
    })
    expect(formFieldError(bad('name: a workspace named “Local” already exists', 409), { name: '' })).toEqual({
      path: 'name',
      message: 'A workspace named “Local” already exists'
    })
    // A rule that starts with an address keeps it as written.
    expect(formFieldError(bad('url: http://example.com could not be reached'), { url: '' })?.message).toBe(
      'http://example.com could not be reached'
    )
  })

  it('maps a dotted path by its alias, before the alias of its first field', () => {
    const values = { name: '', url: '', token: '' }
    const aliases = { 'remote.url': 'url', 'remote.token': 'token' }
    expect(formFieldError(bad('remote.url: could not reach 127.0.0.1:9: connection refused'), values, aliases)).toEqual({
      path: 'url',
      message: 'Could not reach 127.0.0.1:9: connection refused'
    })
    expect(
      formFieldError(bad('remote.token: the token is Bob’s; this workspace is Ada’s view of docs.example.com'), values, aliases)
    ).toEqual({
      path: 'token',
      message: 'The token is Bob’s; this workspace is Ada’s view of docs.example.com'
    })
    expect(formFieldError(bad('remote.url: is required'), values, { remote: 'url', 'remote.url': 'token' })?.path).toBe('token')
    // Aliases by field still work (as callers wrote them before paths could be mapped).
    expect(formFieldError(bad('emails.0: must be a valid email'), { invitees: [] }, { emails: 'invitees' })?.path).toBe('invitees')
    expect(formFieldError(bad('emails.0: must be a valid email'), { emails: [] })?.path).toBe('emails')
  })

  it('reaches nested form values by their dotted path', () => {
    expect(
      formFieldError(bad('remote.token: is required'), { remote: { url: '', token: '' } }, { 'remote.token': 'remote.token' })?.path
    ).toBe('remote.token')
    expect(formFieldError(bad('remote.token: is required'), { remote: { url: '' } }, { 'remote.token': 'remote.token' })).toBeNull()
  })

  it('names nothing for a field the form lacks, a whole-body problem, or another status', () => {
    expect(formFieldError(bad('remote: must be object'), { url: '', token: '' }, { 'remote.url': 'url' })).toBeNull()
    expect(formFieldError(bad('body: give name, remote or both'), { name: '' })).toBeNull()
    expect(formFieldError(bad('name: you may not', 403), { name: '' })).toBeNull()
    expect(formFieldError(new Error('name: nope'), { name: '' })).toBeNull()
  })
})
