import { describe, expect, it } from 'vitest'
import { nameFieldError } from './names.ts'

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
