import type { Role } from '../../../src-shared/schemas/common'
import type { Organization } from '../../../src-shared/schemas/orgs'
import { atLeast } from './roles'

/** What an organization role allows; the `permissions` object of Organization is read from here. */
export function organizationPermissions(role: Role | null | undefined, isMember: boolean): Organization['permissions'] {
  const nonGuest = isMember && role != null
  return {
    view: isMember,
    access: isMember,
    admin: atLeast(role, 'admin'),
    ownTeam: atLeast(role, 'admin'),
    createContent: atLeast(role, 'create'),
    createOpenAPISpec: atLeast(role, 'create'),
    viewBilling: atLeast(role, 'admin'),
    listMembers: nonGuest,
    listTeams: nonGuest,
    listIntegrations: nonGuest,
    // GET /orgs/{id}/installations is for non-guest members; installing into the organization is for its admins.
    listInstallations: nonGuest,
    installIntegration: atLeast(role, 'admin')
  }
}
