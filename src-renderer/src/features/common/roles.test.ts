import { describe, expect, it } from 'vitest'
import { isLowerRole, selfDemotionConsequence } from './roles.ts'

describe('isLowerRole', () => {
  it('orders roles from admin down to a guest', () => {
    expect(isLowerRole('admin', 'edit')).toBe(true)
    expect(isLowerRole('read', null)).toBe(true)
    expect(isLowerRole('edit', 'review')).toBe(false)
    expect(isLowerRole('edit', 'edit')).toBe(false)
    expect(isLowerRole(null, 'read')).toBe(false)
  })
})

describe('selfDemotionConsequence', () => {
  it('says what the new role allows, what an admin loses, and who can undo it', () => {
    expect(selfDemotionConsequence('admin', 'edit')).toBe(
      'As Editor you can only do what that role allows: edits content through change requests. You will no longer manage members, settings or all content. You cannot undo this yourself: an admin has to give you the Admin role back.'
    )
    expect(selfDemotionConsequence('review', null)).toMatch(/^As a guest .* give you the Reviewer role back\.$/)
  })
})
