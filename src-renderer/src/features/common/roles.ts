import { ROLES, type Role } from '../../api/types.ts'

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  create: 'Creator',
  review: 'Reviewer',
  edit: 'Editor',
  comment: 'Commenter',
  read: 'Reader'
}

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: 'Manages members, settings and all content',
  create: 'Creates spaces and collections',
  review: 'Reviews and merges change requests',
  edit: 'Edits content through change requests',
  comment: 'Reads and joins discussions',
  read: 'Reads content'
}

/** Select value for "no role" (guests): Select values are strings, null is not one. */
export const GUEST = 'guest'

export function roleOptions(withGuest: boolean): { value: string; label: string }[] {
  return [...ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] })), ...(withGuest ? [{ value: GUEST, label: 'Guest (no role)' }] : [])]
}

export const toRoleValue = (role: Role | null | undefined): string => role ?? GUEST
export const fromRoleValue = (value: string | null): Role | null => (!value || value === GUEST ? null : (value as Role))

export function roleLabel(role: Role | null | undefined): string {
  return role ? ROLE_LABELS[role] : 'Guest'
}

export const ROLE_COLORS: Record<Role, string> = {
  admin: 'grape',
  create: 'indigo',
  review: 'cyan',
  edit: 'teal',
  comment: 'yellow',
  read: 'gray'
}

/** How much a role allows: admin highest, a guest (no role) lowest. */
const rank = (role: Role | null): number => (role ? ROLES.length - ROLES.indexOf(role) : 0)

/** Whether `to` allows less than `from`. */
export function isLowerRole(from: Role | null, to: Role | null): boolean {
  return rank(to) < rank(from)
}

/**
 * What lowering one's own organization role from `from` to `to` costs, said before it happens: what the new role
 * still allows, and that only an admin can give the old one back.
 */
export function selfDemotionConsequence(from: Role | null, to: Role | null): string {
  const now = to
    ? `As ${ROLE_LABELS[to]} you can only do what that role allows: ${ROLE_DESCRIPTIONS[to].toLowerCase()}.`
    : 'As a guest you keep access only to what was shared with you directly.'
  const lost = from === 'admin' ? ' You will no longer manage members, settings or all content.' : ''
  return `${now}${lost} You cannot undo this yourself: an admin has to give you the ${roleLabel(from)} role back.`
}
