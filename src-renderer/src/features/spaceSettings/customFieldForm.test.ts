import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/apiError.ts'
import type { CustomField } from '../../api/types.ts'
import { draftValue, initialDrafts, TEXT_MAX, valueErrorOf, valuesUpdate } from './customFieldForm.ts'

const field = (name: string, type: CustomField['type'], options?: string[]): CustomField => ({
  id: `f-${name}`,
  name,
  type,
  ...(options ? { options } : {}),
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  urls: { location: '' },
  permissions: { view: true, edit: true }
})

const fields = [
  field('owner', 'text'),
  field('budget', 'number'),
  field('public', 'boolean'),
  field('tier', 'select', ['gold', 'silver']),
  field('areas', 'multi-select', ['api', 'ui', 'docs'])
]

describe('custom field form', () => {
  it('starts each field from the space value, or empty', () => {
    const drafts = initialDrafts(fields, [
      { customField: { name: 'budget' }, value: 12.5 },
      { customField: { name: 'public' }, value: false },
      { customField: { name: 'areas' }, value: ['ui'] }
    ])
    expect(drafts).toEqual({ owner: '', budget: '12.5', public: 'false', tier: null, areas: ['ui'] })
  })

  it('sends only what changed, with null for a value cleared', () => {
    const initial = initialDrafts(fields, [
      { customField: { name: 'owner' }, value: 'Ana' },
      { customField: { name: 'tier' }, value: 'gold' }
    ])
    const result = valuesUpdate(fields, initial, { ...initial, owner: '', budget: ' 7 ', public: 'true', areas: ['api', 'docs'] })
    expect(result).toEqual({
      ok: true,
      body: { values: { owner: { value: null }, budget: { value: 7 }, public: { value: true }, areas: { value: ['api', 'docs'] } } }
    })
    expect(valuesUpdate(fields, initial, initial)).toEqual({ ok: true, body: { values: {} } })
  })

  it('checks the rules the API checks, in its words', () => {
    const initial = initialDrafts(fields, [])
    const result = valuesUpdate(fields, initial, {
      ...initial,
      owner: 'x'.repeat(TEXT_MAX + 1),
      budget: '12abc',
      tier: 'bronze',
      areas: ['api', 'api']
    })
    expect(result).toEqual({
      ok: false,
      errors: {
        owner: `Must be a string of at most ${TEXT_MAX} characters`,
        budget: 'Must be a number',
        tier: 'Must be one of: gold, silver',
        areas: 'Must be an array of distinct values from: api, ui, docs'
      }
    })
    // Characters are code points, as the API counts them.
    expect(draftValue(fields[0]!, '😀'.repeat(TEXT_MAX))).toEqual({ ok: true, value: '😀'.repeat(TEXT_MAX) })
    expect(draftValue(fields[4]!, [])).toEqual({ ok: true, value: null })
    expect(draftValue(fields[2]!, '')).toEqual({ ok: true, value: null })
  })

  it('finds the field an API 400 blames', () => {
    expect(valueErrorOf(new ApiError(400, '400', 'values.budget.value: must be a number'))).toEqual({
      name: 'budget',
      message: 'Must be a number'
    })
    expect(valueErrorOf(new ApiError(400, '400', 'values.gone: no custom field named gone in this organization'))).toEqual({
      name: 'gone',
      message: 'No custom field named gone in this organization'
    })
    expect(valueErrorOf(new ApiError(403, '403', 'The space is locked: its edits are refused'))).toBeNull()
    expect(valueErrorOf(new ApiError(400, '400', 'title: too long'))).toBeNull()
  })
})
