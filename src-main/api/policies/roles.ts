import { ROLES, type Role } from '../../../src-shared/schemas/common'

const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 }

export function roleRank(role: Role | null | undefined): number {
  return role ? RANK[role] : 0
}

/** The higher of two roles (null/undefined = no access). */
export function maxRole(a: Role | null | undefined, b: Role | null | undefined): Role | null {
  return roleRank(a) >= roleRank(b) ? (a ?? null) : (b ?? null)
}

export function atLeast(role: Role | null | undefined, needed: Role): boolean {
  return roleRank(role) >= RANK[needed]
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
}
