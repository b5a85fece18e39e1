import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { patterned } from '../../src-shared/schemas/common'
import { createAjv, formatValidationError } from './validation'

/** The message the API answers for `body` against `schema` (the first error), or undefined when it is valid. */
function messageFor(schema: object, body: unknown): string | undefined {
  const validate = createAjv(false).compile(schema)
  return validate(body) ? undefined : formatValidationError(validate.errors as never, 'body')
}

describe('formatValidationError', () => {
  it('says a pattern in the words its schema gives, and shows the expression only when there are none', () => {
    const schema = Type.Object({
      slug: Type.Optional(Type.String({ ...patterned('^[a-z]+$', 'lower-case letters') })),
      code: Type.Optional(Type.String({ pattern: '^[0-9]{3}$' }))
    })
    expect(messageFor(schema, { slug: 'Abc' })).toBe('slug: must be lower-case letters')
    expect(messageFor(schema, { code: '12' })).toBe('code: must match the pattern ^[0-9]{3}$')
    expect(messageFor(schema, { slug: 'abc', code: '123' })).toBeUndefined()
  })

  it('names the nested field, the missing property and the rule', () => {
    const schema = Type.Object({ site: Type.Object({ title: Type.String({ maxLength: 3 }) }) })
    expect(messageFor(schema, { site: { title: 'long' } })).toBe('site.title: must be at most 3 characters')
    expect(messageFor(schema, { site: {} })).toBe('site.title: is required')
  })
})
