import { ROLES, type Role } from '../../api/types.ts'

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  create: 'Creator',
  review: 'Reviewer',
  edit: 'Editor',
  comment: 'Commenter',
  read: 'Reader',
}

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: 'Manages members, settings and all content',
  create: 'Creates spaces and collections',
  review: 'Reviews and merges change requests',
  edit: 'Edits content through change requests',
  comment: 'Reads and joins discussions',
  read: 'Reads content',
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
  read: 'gray',
}
