import { describe, expect, it } from 'vitest'
import { claimsOf, lineColumnAt, parseSchemaText } from './adaptiveSchema.ts'

describe('parseSchemaText', () => {
  it('accepts a JSON object', () => {
    expect(parseSchemaText('{ "type": "object" }')).toEqual({ ok: true, value: { type: 'object' } })
  })

  it('says where a syntax error is', () => {
    const parsed = parseSchemaText('{\n  "type": "object",\n}')
    expect(parsed.ok).toBe(false)
    if (parsed.ok) return
    expect(parsed.message).not.toMatch(/position/)
    expect(parsed.line).toBe(3)
    expect(parsed.message).toContain('(line 3, column 1)')
  })

  it('refuses what is not an object, or nothing', () => {
    expect(parseSchemaText('[1, 2]')).toMatchObject({ ok: false, message: expect.stringContaining('JSON object') })
    expect(parseSchemaText('  ')).toMatchObject({ ok: false, message: expect.stringContaining('empty') })
  })
})

describe('lineColumnAt', () => {
  it('counts lines and columns from 1', () => {
    expect(lineColumnAt('ab\ncd', 0)).toEqual({ line: 1, column: 1 })
    expect(lineColumnAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 })
  })
})

describe('claimsOf', () => {
  it('lists signed and unsigned claims as conditions read them', () => {
    const schema = {
      type: 'object',
      properties: {
        beta: { type: 'boolean', description: 'In the beta programme' },
        unsigned: { type: 'object', properties: { internal: { type: 'boolean' } } }
      }
    }
    expect(claimsOf(schema)).toEqual([
      { name: 'beta', signed: true, expression: 'visitor.claims.beta', description: 'In the beta programme' },
      { name: 'internal', signed: false, expression: 'visitor.claims.unsigned.internal', description: undefined }
    ])
    expect(claimsOf(null)).toEqual([])
    expect(claimsOf({ properties: [] })).toEqual([])
  })
})
