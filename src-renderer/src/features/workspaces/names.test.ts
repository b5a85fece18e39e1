import { describe, expect, it } from 'vitest'
import { nameFieldError, remoteTokenFieldError, remoteUrlFieldError } from './names.ts'

describe('workspace name field errors', () => {
  it('says what is wrong in the words of the API, without the field prefix', () => {
    expect(nameFieldError('Handbook')).toBeNull()
    expect(nameFieldError('  Handbook  ')).toBeNull()
    expect(nameFieldError('   ')).toBe('Must not be blank')
    expect(nameFieldError('x'.repeat(65))).toBe('Must be at most 64 characters')
    expect(nameFieldError('😀'.repeat(64))).toBeNull()
    expect(nameFieldError(undefined)).toBe('Is required')
  })
})

describe('server address and token field errors', () => {
  it('checks an address by the shared rule, as the API will', () => {
    expect(remoteUrlFieldError('https://api.example.com')).toBeNull()
    expect(remoteUrlFieldError(' https://api.example.com/v1/ ')).toBeNull()
    expect(remoteUrlFieldError('http://127.0.0.1:4100')).toBeNull()
    expect(remoteUrlFieldError('')).toBe('Is required')
    expect(remoteUrlFieldError('api.example.com')).toBe('Must be an http:// or https:// address, without user, query or fragment')
    expect(remoteUrlFieldError('https://ada:secret@example.com')).toMatch(/^Must be an http/)
  })

  it('checks a token by the shared rule, after trimming what pasting added around it', () => {
    expect(remoteTokenFieldError('qr_abc123')).toBeNull()
    expect(remoteTokenFieldError(' qr_abc123\n')).toBeNull()
    expect(remoteTokenFieldError('  ')).toBe('Is required')
    expect(remoteTokenFieldError('two words')).toBe('Must be printable characters without spaces')
    expect(remoteTokenFieldError('x'.repeat(4097))).toBe('Must be at most 4096 characters')
  })
})
