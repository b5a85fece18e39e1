// The audit log's actions: which route records which action on which target. One table instead of a call in
// every route: `write()` (context.ts) looks a write's route up here and records the event in its transaction.
// A write whose route is not listed records nothing: those are UNRECORDED_ROUTES (a test checks that every write
// route is in one list or the other).

/**
 * Where the target's id comes from: a path parameter, the `id` of what the route answers (a creation), or the
 * caller (who joined).
 */
export type TargetSource = { param: string } | 'result' | 'actor'

export interface AuditActionDef {
  /** Stable action id (`space.updated`), the `action` of its events. */
  id: string
  label: string
  /** The kind of resource the target is (`space`). */
  targetType: string
  target: TargetSource
}

type Entry = [route: string, action: string, label: string, target?: string]

// [METHOD path-after-/v1, action, label, target: a path parameter, or 'actor' (default: the resource created, read
// from the answer)]; the target's type is the action's prefix.
const ENTRIES: Entry[] = [
  ['POST /orgs', 'organization.created', 'Organization created'],
  ['PATCH /orgs/:organizationId', 'organization.updated', 'Organization updated', 'organizationId'],
  ['POST /orgs/:organizationId/saml', 'saml_provider.created', 'SAML provider created'],
  ['PATCH /orgs/:organizationId/saml/:samlProviderId', 'saml_provider.updated', 'SAML provider updated', 'samlProviderId'],
  ['DELETE /orgs/:organizationId/saml/:samlProviderId', 'saml_provider.deleted', 'SAML provider deleted', 'samlProviderId'],
  ['PATCH /orgs/:organizationId/members/:userId', 'member.updated', 'Member role changed', 'userId'],
  ['DELETE /orgs/:organizationId/members/:userId', 'member.removed', 'Member removed', 'userId'],
  ['POST /orgs/:organizationId/members/:userId/sso', 'member.sso_updated', 'Member single sign-on changed', 'userId'],
  ['POST /orgs/:organizationId/invites', 'organization.members_invited', 'Members invited', 'organizationId'],
  ['POST /orgs/:organizationId/invites/:inviteId', 'member.joined', 'Member joined through an invite link', 'actor'],
  ['POST /orgs/:organizationId/link-invites', 'invite_link.created', 'Invite link created'],
  ['PATCH /orgs/:organizationId/link-invites/:inviteId', 'invite_link.updated', 'Invite link updated', 'inviteId'],
  ['DELETE /orgs/:organizationId/link-invites/:inviteId', 'invite_link.deleted', 'Invite link deleted', 'inviteId'],
  ['PUT /orgs/:organizationId/teams', 'team.created', 'Team created'],
  ['PATCH /orgs/:organizationId/teams/:teamId', 'team.updated', 'Team renamed', 'teamId'],
  ['DELETE /orgs/:organizationId/teams/:teamId', 'team.deleted', 'Team deleted', 'teamId'],
  ['PUT /orgs/:organizationId/teams/:teamId/members', 'team.members_updated', 'Team members changed', 'teamId'],
  ['PUT /orgs/:organizationId/teams/:teamId/members/:userId', 'team.members_updated', 'Team members changed', 'teamId'],
  ['DELETE /orgs/:organizationId/teams/:teamId/members/:userId', 'team.members_updated', 'Team members changed', 'teamId'],
  ['POST /orgs/:organizationId/custom-fields', 'custom_field.created', 'Custom field created'],
  ['PATCH /orgs/:organizationId/custom-fields/:fieldName', 'custom_field.updated', 'Custom field updated', 'fieldName'],
  ['DELETE /orgs/:organizationId/custom-fields/:fieldName', 'custom_field.deleted', 'Custom field deleted', 'fieldName'],
  ['POST /orgs/:organizationId/collections', 'collection.created', 'Collection created'],
  ['PATCH /collections/:collectionId', 'collection.updated', 'Collection updated', 'collectionId'],
  ['DELETE /collections/:collectionId', 'collection.deleted', 'Collection deleted', 'collectionId'],
  ['POST /collections/:collectionId/move', 'collection.moved', 'Collection moved', 'collectionId'],
  ['POST /collections/:collectionId/transfer', 'collection.transferred', 'Collection transferred', 'collectionId'],
  ['POST /collections/:collectionId/permissions', 'collection.permissions_updated', 'Collection permissions changed', 'collectionId'],
  [
    'PATCH /collections/:collectionId/permissions/users/:userId',
    'collection.permissions_updated',
    'Collection permissions changed',
    'collectionId'
  ],
  [
    'DELETE /collections/:collectionId/permissions/users/:userId',
    'collection.permissions_updated',
    'Collection permissions changed',
    'collectionId'
  ],
  [
    'PATCH /collections/:collectionId/permissions/teams/:teamId',
    'collection.permissions_updated',
    'Collection permissions changed',
    'collectionId'
  ],
  [
    'DELETE /collections/:collectionId/permissions/teams/:teamId',
    'collection.permissions_updated',
    'Collection permissions changed',
    'collectionId'
  ],
  ['POST /orgs/:organizationId/spaces', 'space.created', 'Space created'],
  ['PATCH /spaces/:spaceId', 'space.updated', 'Space updated', 'spaceId'],
  ['DELETE /spaces/:spaceId', 'space.deleted', 'Space deleted', 'spaceId'],
  ['POST /spaces/:spaceId/restore', 'space.restored', 'Space restored', 'spaceId'],
  ['POST /spaces/:spaceId/duplicate', 'space.duplicated', 'Space duplicated', 'spaceId'],
  ['POST /spaces/:spaceId/move', 'space.moved', 'Space moved', 'spaceId'],
  ['POST /spaces/:spaceId/transfer', 'space.transferred', 'Space transferred', 'spaceId'],
  ['PATCH /spaces/:spaceId/custom-fields', 'space.custom_fields_updated', 'Space custom fields changed', 'spaceId'],
  ['POST /spaces/:spaceId/permissions', 'space.permissions_updated', 'Space permissions changed', 'spaceId'],
  ['PATCH /spaces/:spaceId/permissions/users/:userId', 'space.permissions_updated', 'Space permissions changed', 'spaceId'],
  ['DELETE /spaces/:spaceId/permissions/users/:userId', 'space.permissions_updated', 'Space permissions changed', 'spaceId'],
  ['PATCH /spaces/:spaceId/permissions/teams/:teamId', 'space.permissions_updated', 'Space permissions changed', 'spaceId'],
  ['DELETE /spaces/:spaceId/permissions/teams/:teamId', 'space.permissions_updated', 'Space permissions changed', 'spaceId'],
  ['POST /spaces/:spaceId/revisions/:revisionId/restore', 'space.revision_restored', 'Space revision restored', 'spaceId'],
  ['POST /spaces/:spaceId/content/import', 'space.content_imported', 'Content imported', 'spaceId'],
  ['POST /spaces/:spaceId/git/import', 'space.git_imported', 'Import from Git requested', 'spaceId'],
  ['POST /spaces/:spaceId/git/export', 'space.git_exported', 'Export to Git requested', 'spaceId'],
  ['PUT /spaces/:spaceId/git/connection', 'space.git_connected', 'Git connection set', 'spaceId'],
  ['DELETE /spaces/:spaceId/git/connection', 'space.git_disconnected', 'Git connection removed', 'spaceId'],
  ['POST /spaces/:spaceId/change-requests', 'change_request.created', 'Change request created'],
  ['PATCH /spaces/:spaceId/change-requests/:changeRequestId', 'change_request.updated', 'Change request updated', 'changeRequestId'],
  ['POST /spaces/:spaceId/change-requests/:changeRequestId/merge', 'change_request.merged', 'Change request merged', 'changeRequestId'],
  ['POST /spaces/:spaceId/change-requests/:changeRequestId/reviews', 'change_request_review.created', 'Change request reviewed'],
  [
    'POST /spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
    'change_request.reviewers_requested',
    'Reviewers requested',
    'changeRequestId'
  ],
  [
    'DELETE /spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers/:userId',
    'change_request.reviewer_unrequested',
    'Review request withdrawn',
    'changeRequestId'
  ],
  [
    'POST /spaces/:spaceId/change-requests/:changeRequestId/update',
    'change_request.rebased',
    'Change request updated from the space',
    'changeRequestId'
  ],
  [
    'POST /spaces/:spaceId/change-requests/:changeRequestId/content',
    'change_request.content_edited',
    'Change request content edited',
    'changeRequestId'
  ],
  [
    'POST /spaces/:spaceId/change-requests/:changeRequestId/content/import',
    'change_request.content_imported',
    'Content imported into a change request',
    'changeRequestId'
  ],
  ['POST /spaces/:spaceId/comments', 'comment.created', 'Comment posted'],
  ['PUT /spaces/:spaceId/comments/:commentId', 'comment.updated', 'Comment edited', 'commentId'],
  ['DELETE /spaces/:spaceId/comments/:commentId', 'comment.deleted', 'Comment deleted', 'commentId'],
  ['POST /spaces/:spaceId/comments/:commentId/replies', 'comment_reply.created', 'Comment reply posted'],
  ['PUT /spaces/:spaceId/comments/:commentId/replies/:commentReplyId', 'comment_reply.updated', 'Comment reply edited', 'commentReplyId'],
  [
    'DELETE /spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
    'comment_reply.deleted',
    'Comment reply deleted',
    'commentReplyId'
  ],
  ['POST /orgs/:organizationId/sites', 'site.created', 'Site created'],
  ['PATCH /orgs/:organizationId/sites/:siteId', 'site.updated', 'Site updated', 'siteId'],
  ['DELETE /orgs/:organizationId/sites/:siteId', 'site.deleted', 'Site deleted', 'siteId'],
  ['POST /orgs/:organizationId/sites/:siteId/publish', 'site.published', 'Site published', 'siteId'],
  ['POST /orgs/:organizationId/sites/:siteId/unpublish', 'site.unpublished', 'Site unpublished', 'siteId'],
  ['PUT /orgs/:organizationId/sites/:siteId/adaptive-schema', 'site.adaptive_schema_updated', 'Site adaptive schema changed', 'siteId'],
  ['PUT /orgs/:organizationId/sites/:siteId/customization', 'site.customization_updated', 'Site customization changed', 'siteId'],
  ['POST /orgs/:organizationId/sites/:siteId/permissions', 'site.permissions_updated', 'Site permissions changed', 'siteId'],
  ['PATCH /orgs/:organizationId/sites/:siteId/permissions/users/:userId', 'site.permissions_updated', 'Site permissions changed', 'siteId'],
  [
    'DELETE /orgs/:organizationId/sites/:siteId/permissions/users/:userId',
    'site.permissions_updated',
    'Site permissions changed',
    'siteId'
  ],
  ['PATCH /orgs/:organizationId/sites/:siteId/permissions/teams/:teamId', 'site.permissions_updated', 'Site permissions changed', 'siteId'],
  [
    'DELETE /orgs/:organizationId/sites/:siteId/permissions/teams/:teamId',
    'site.permissions_updated',
    'Site permissions changed',
    'siteId'
  ],
  ['POST /orgs/:organizationId/sites/:siteId/site-spaces', 'site_space.added', 'Space added to a site'],
  ['PATCH /orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId', 'site_space.updated', 'Site space updated', 'siteSpaceId'],
  ['DELETE /orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId', 'site_space.removed', 'Space removed from a site', 'siteSpaceId'],
  ['POST /orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/move', 'site_space.moved', 'Site space moved', 'siteSpaceId'],
  ['POST /orgs/:organizationId/sites/:siteId/sections', 'site_section.created', 'Site section created'],
  ['PATCH /orgs/:organizationId/sites/:siteId/sections/:siteSectionId', 'site_section.updated', 'Site section updated', 'siteSectionId'],
  ['DELETE /orgs/:organizationId/sites/:siteId/sections/:siteSectionId', 'site_section.deleted', 'Site section deleted', 'siteSectionId'],
  ['POST /orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move', 'site_section.moved', 'Site section moved', 'siteSectionId'],
  ['POST /orgs/:organizationId/sites/:siteId/section-groups', 'site_section_group.created', 'Site section group created'],
  [
    'PATCH /orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
    'site_section_group.updated',
    'Site section group updated',
    'siteSectionGroupId'
  ],
  [
    'DELETE /orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
    'site_section_group.deleted',
    'Site section group deleted',
    'siteSectionGroupId'
  ],
  [
    'POST /orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move',
    'site_section_group.moved',
    'Site section group moved',
    'siteSectionGroupId'
  ],
  [
    'POST /orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections',
    'site_section_group.updated',
    'Site section group updated',
    'siteSectionGroupId'
  ],
  [
    'DELETE /orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId',
    'site_section_group.updated',
    'Site section group updated',
    'siteSectionGroupId'
  ],
  ['POST /orgs/:organizationId/sites/:siteId/share-links', 'site_share_link.created', 'Share link created'],
  ['PATCH /orgs/:organizationId/sites/:siteId/share-links/:shareLinkId', 'site_share_link.updated', 'Share link updated', 'shareLinkId'],
  ['DELETE /orgs/:organizationId/sites/:siteId/share-links/:shareLinkId', 'site_share_link.deleted', 'Share link deleted', 'shareLinkId'],
  ['POST /orgs/:organizationId/sites/:siteId/redirects', 'site_redirect.created', 'Redirect created'],
  ['PUT /orgs/:organizationId/sites/:siteId/redirects', 'site.redirects_updated', 'Redirects written in bulk', 'siteId'],
  ['PATCH /orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId', 'site_redirect.updated', 'Redirect updated', 'siteRedirectId'],
  ['DELETE /orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId', 'site_redirect.deleted', 'Redirect deleted', 'siteRedirectId'],
  ['POST /orgs/:organizationId/openapi', 'openapi_spec.created', 'OpenAPI specification created'],
  ['PUT /orgs/:organizationId/openapi/:specSlug', 'openapi_spec.updated', 'OpenAPI specification updated', 'specSlug'],
  ['DELETE /orgs/:organizationId/openapi/:specSlug', 'openapi_spec.deleted', 'OpenAPI specification deleted', 'specSlug'],
  ['POST /integrations/:integrationName', 'integration.published', 'Integration published', 'integrationName'],
  ['DELETE /integrations/:integrationName', 'integration.unpublished', 'Integration unpublished', 'integrationName'],
  ['POST /integrations/:integrationName/installations', 'integration_installation.created', 'Integration installed'],
  [
    'PATCH /integrations/:integrationName/installations/:installationId',
    'integration_installation.updated',
    'Integration installation updated',
    'installationId'
  ],
  [
    'DELETE /integrations/:integrationName/installations/:installationId',
    'integration_installation.deleted',
    'Integration uninstalled',
    'installationId'
  ],
  [
    'POST /integrations/:integrationName/installations/:installationId/spaces',
    'integration_installation.space_installed',
    'Integration installed on a space',
    'installationId'
  ],
  [
    'PATCH /integrations/:integrationName/installations/:installationId/spaces/:spaceId',
    'integration_installation.space_updated',
    'Integration space installation updated',
    'installationId'
  ],
  [
    'DELETE /integrations/:integrationName/installations/:installationId/spaces/:spaceId',
    'integration_installation.space_uninstalled',
    'Integration removed from a space',
    'installationId'
  ],
  [
    'POST /integrations/:integrationName/installations/:installationId/sites',
    'integration_installation.site_installed',
    'Integration installed on a site',
    'installationId'
  ],
  [
    'PATCH /integrations/:integrationName/installations/:installationId/sites/:siteId',
    'integration_installation.site_updated',
    'Integration site installation updated',
    'installationId'
  ],
  [
    'DELETE /integrations/:integrationName/installations/:installationId/sites/:siteId',
    'integration_installation.site_uninstalled',
    'Integration removed from a site',
    'installationId'
  ]
]

/** Writes that change no organization's configuration or content: the caller's activity, a signed visitor token, a job. */
export const UNRECORDED_ROUTES: readonly string[] = [
  'POST /v1/orgs/:organizationId/ping',
  'POST /v1/orgs/:organizationId/sites/:siteId/visitor-tokens',
  'DELETE /v1/jobs/:jobId'
]

/** The recorded actions by `METHOD /v1/pattern` (the route as Fastify declares it). */
export const AUDIT_ROUTES: ReadonlyMap<string, AuditActionDef> = new Map(
  ENTRIES.map(([route, id, label, param]) => {
    const [method, path] = route.split(' ') as [string, string]
    const targetType = id.slice(0, id.indexOf('.'))
    return [`${method} /v1${path}`, { id, label, targetType, target: param === 'actor' ? 'actor' : param ? { param } : 'result' }]
  })
)

// Writes no route makes, recorded by `recordSystemEvent` (audit.ts) with a system actor: [action, label].
const SYSTEM_ENTRIES = [
  ['organization.created', 'Organization created'],
  ['member.added', 'Member added'],
  ['member.token_created', 'API token created for a member'],
  ['space.purged', 'Space removed for good (past the restore window)'],
  ['space.git_import_applied', 'Content imported from Git'],
  ['space.git_export_pushed', 'Content exported to Git'],
  ['openapi_spec.processed', 'OpenAPI specification processed'],
  ['openapi_spec.processing_failed', 'OpenAPI specification processing failed']
] as const

export type SystemAction = (typeof SYSTEM_ENTRIES)[number][0]

/** The actions of writes made outside the API: the CLI, the workspace's setup and upkeep, background jobs. */
export const SYSTEM_ACTIONS: ReadonlyMap<SystemAction, { id: string; label: string; targetType: string }> = new Map(
  SYSTEM_ENTRIES.map(([id, label]) => [id, { id, label, targetType: id.slice(0, id.indexOf('.')) }])
)

/** Every action, once, in the table's order (`GET …/audit-event-actions`): the routes' actions, then the others. */
export const AUDIT_ACTIONS: readonly { id: string; label: string }[] = [
  ...new Map([...AUDIT_ROUTES.values(), ...SYSTEM_ACTIONS.values()].map((a) => [a.id, { id: a.id, label: a.label }])).values()
]
