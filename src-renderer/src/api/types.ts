// The wire types, taken from the shared schemas (type-only imports: nothing of TypeBox reaches the bundle).
export type { Role } from '../../../src-shared/schemas/common.ts'
export type { User } from '../../../src-shared/schemas/common.ts'
export type { Organization } from '../../../src-shared/schemas/orgs.ts'
export type { Space } from '../../../src-shared/schemas/spaces.ts'
export type { Collection } from '../../../src-shared/schemas/collections.ts'
export type { Member, Invite } from '../../../src-shared/schemas/members.ts'
export type { Team, TeamRole } from '../../../src-shared/schemas/teams.ts'
export type {
  AggregatePermission,
  PermissionSource,
  TeamPermission,
  TeamSpacePermission,
  UserPermission
} from '../../../src-shared/schemas/permissions.ts'
export type { SamlProvider } from '../../../src-shared/schemas/sso.ts'
export type { CustomField, CustomFieldType } from '../../../src-shared/schemas/customFields.ts'
export type { OrgSearchSpace, SearchPage } from '../../../src-shared/schemas/search.ts'
export type { ChangeRequestLink, ContentLink } from '../../../src-shared/schemas/links.ts'
export type { ImportResult, ImportSource } from '../../../src-shared/schemas/import.ts'
export type { GitConnection, GitConnectionInput, GitInfo, GitProgress } from '../../../src-shared/schemas/git.ts'
export type { Job } from '../../../src-shared/schemas/jobs.ts'
export type { OpenAPISpec, OpenAPISpecVersion, OpenAPIProcessError, OpenAPIErrorLocation } from '../../../src-shared/schemas/openapi.ts'

import type { Role } from '../../../src-shared/schemas/common.ts'
import type { Member } from '../../../src-shared/schemas/members.ts'
import type { TeamRole } from '../../../src-shared/schemas/teams.ts'

/** The list envelope every paginated endpoint answers. */
export interface Page<T> {
  next?: { page: string }
  count: number
  items: T[]
}

/** One row of `GET /orgs/{id}/teams/{teamId}/members`. */
export interface TeamMember {
  organization: Member
  team: { role: TeamRole }
  permissions: { view: boolean }
}

// Role values in order of power, for selects and filters. The schemas' ROLES constant is not imported: it
// would pull TypeBox into the bundle. `satisfies` keeps the two lists in step.
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const satisfies readonly Role[]
export type {
  Site,
  SiteSpace,
  SiteSection,
  SiteSectionGroup,
  ShareLink,
  SiteAdaptiveSchema,
  PublishedSite
} from '../../../src-shared/schemas/sites.ts'
export type {
  SiteRedirect,
  SiteRedirectBulkItem,
  SiteRedirectBulkResult,
  SiteRedirectCreate,
  SiteRedirectDestination,
  SiteRedirectUpdate
} from '../../../src-shared/schemas/siteRedirects.ts'
export type { SiteCustomization, SiteCustomizationUpdate } from '../../../src-shared/schemas/siteCustomization.ts'
export type { SiteDraftPreview, SiteVisitorToken, SiteVisitorTokenCreate } from '../../../src-shared/schemas/sitePreview.ts'
export type { Comment, CommentReply, CommentReaction, CommentStatusFilter } from '../../../src-shared/schemas/comments.ts'
export type { ChangeRequest, ChangeRequestStatus } from '../../../src-shared/schemas/changeRequests.ts'
export type { Page as ContentPage, File as ContentFile, Revision } from '../../../src-shared/schemas/content.ts'
export type { ContentChangeInput } from '../../../src-shared/schemas/changeRequests.ts'
export type { Workspace, WorkspaceList } from '../../../src-shared/workspaces.ts'
export type { Installation, Integration, SiteInstallation, SpaceInstallation } from '../../../src-shared/schemas/integrations.ts'
export type { AuditEvent, AuditEventDetails, AuditEventAction } from '../../../src-shared/schemas/audit.ts'
export type {
  ChangeRequestReview,
  MergeRule,
  MergeStatus,
  OrgMergeRules,
  RequestedReviewer,
  ReviewStatus,
  SpaceMergeRules
} from '../../../src-shared/schemas/reviews.ts'
