import { describe, expect, it } from 'vitest'
import { configOf, draftOf } from './mergeRulesForm.ts'

describe('merge rules form', () => {
  it('reads a configuration into the form and back', () => {
    const config = {
      type: 'rules' as const,
      rules: [
        { rule: 'require_at_least_one_approved_review' as const },
        { rule: 'require_specific_reviewers' as const, users: ['u1'] },
        { rule: 'allow_bypass' as const, users: ['u2'] }
      ]
    }
    expect(draftOf(config)).toEqual({ type: 'rules', simple: ['require_at_least_one_approved_review'], reviewers: ['u1'], bypass: ['u2'] })
    expect(configOf(draftOf(config))).toEqual(config)
    expect(configOf({ type: 'inherit', simple: ['require_author_to_merge'], reviewers: [], bypass: [] })).toEqual({ type: 'inherit' })
  })
})
