import type { Role } from '../../../src-shared/schemas/common'

/** The caller as member rules see it: their organization role (null for guests) and user id. */
export interface MemberActor {
  userId: string
  orgRole: Role | null
}

/**
 * What a caller may do with one member of their organization. Route checks and the `permissions` of team
 * member items both read this table. Guests only see themselves.
 */
export const MEMBER_RULES = {
  view: (a: MemberActor, memberId: string) => a.orgRole !== null || a.userId === memberId,
  updateRole: (a: MemberActor) => a.orgRole === 'admin',
  remove: (a: MemberActor, memberId: string) => a.orgRole === 'admin' || a.userId === memberId,
  markSso: (a: MemberActor) => a.orgRole === 'admin',
  listSpaces: (a: MemberActor, memberId: string) => a.orgRole === 'admin' || a.userId === memberId,
  listTeams: (a: MemberActor, memberId: string) => a.orgRole !== null || a.userId === memberId
} satisfies Record<string, (a: MemberActor, memberId: string) => boolean>

export type MemberAction = keyof typeof MEMBER_RULES
