import { describe, expect, it } from 'vitest'
import type { AggregatePermission } from '../../api/types.ts'
import { explainRole, isDirect, sourceLabel } from './sources.ts'

const user = { object: 'user' as const, id: 'u1', displayName: 'Ann', urls: { location: '' } }

describe('sourceLabel', () => {
  it('names each kind of reason', () => {
    const collection = { id: 'c1', title: 'Handbooks' }
    const team = { id: 't1', title: 'Writers' }
    expect(sourceLabel({ type: 'organization', role: 'admin' }, 'space')).toBe('organization admin')
    expect(sourceLabel({ type: 'general', role: 'read' }, 'space')).toBe('general access to this space')
    expect(sourceLabel({ type: 'direct', role: 'edit' }, 'space')).toBe('shared directly')
    expect(sourceLabel({ type: 'team', role: 'edit', team }, 'space')).toBe('through team “Writers”')
    expect(sourceLabel({ type: 'collection', role: 'edit', collection }, 'space')).toBe('from collection “Handbooks”')
    expect(sourceLabel({ type: 'collection-team', role: 'edit', collection, team }, 'space')).toBe(
      'from collection “Handbooks”, through team “Writers”'
    )
    expect(sourceLabel({ type: 'collection-general', role: 'read', collection }, 'collection')).toBe(
      'general access to collection “Handbooks”'
    )
    expect(isDirect({ type: 'team', role: 'edit', team })).toBe(true)
    expect(isDirect({ type: 'collection', role: 'edit', collection })).toBe(false)
  })
})

describe('explainRole', () => {
  it('says the reason that gives the role first, then the others', () => {
    const item: AggregatePermission = {
      permission: 'edit',
      user,
      sources: [
        { type: 'team', role: 'edit', team: { id: 't1', title: 'Writers' } },
        { type: 'organization', role: 'read' }
      ]
    }
    expect(explainRole(item, 'space')).toBe(
      'Ann is Editor here because they are in the team “Writers”, which has Editor on this space. Also: their organization role is Reader.'
    )
  })

  it('explains inheritance through a collection and an organization admin', () => {
    const inherited: AggregatePermission = {
      permission: 'review',
      user,
      sources: [{ type: 'collection', role: 'review', collection: { id: 'c', title: 'Guides' } }]
    }
    expect(explainRole(inherited, 'space')).toBe(
      'Ann is Reviewer here because they have Reviewer on the collection “Guides”, which holds this space.'
    )
    const admin: AggregatePermission = { permission: 'admin', user, sources: [{ type: 'organization', role: 'admin' }] }
    expect(explainRole(admin, 'collection')).toBe(
      'Ann is Admin here because their organization role is Admin. Organization admins manage every collection.'
    )
  })
})
