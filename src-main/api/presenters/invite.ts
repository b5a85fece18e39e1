import type { Role } from '../../../src-shared/schemas/common'
import type { Invite } from '../../../src-shared/schemas/members'
import type { InviteRow } from '../../storage/repositories/inviteRepository'
import type { OrganizationRow } from '../../storage/repositories/organizationRepository'

/** `redundant`: the link grants no more than the organization's default role already gives. */
export function presentInvite(row: InviteRow, org: OrganizationRow): Invite {
  return { object: 'invite', id: row.id, role: row.role as Role | null, redundant: row.role === org.default_role }
}
