import type { ContentLink } from '../../../src-shared/schemas/links'
import type { ResolvedLink } from '../../content/links'
import type { ContentScope } from './content'

/** Where references are read: the organization, the content (scope) and the change request holding it. */
export interface ReferenceContext {
  organizationId: string
  scope: ContentScope
  /** Id of the change request whose content is read (absent: the primary content). */
  changeRequestId?: string
}

/** A page of the content read, as the place a link or backlink is found: with the version it was found in. */
function locationOf(context: ReferenceContext, pageId: string) {
  const versionContext: { revision: string; changeRequest?: string } = { revision: context.scope.revisionId }
  if (context.changeRequestId) versionContext.changeRequest = context.changeRequestId
  return { kind: 'page' as const, page: pageId, space: context.scope.spaceId, organization: context.organizationId, versionContext }
}

/**
 * A link of a page in the wire shape: what it points at (a page or file reference names its space and
 * organization) and where it is.
 */
export function presentLink(context: ReferenceContext, link: ResolvedLink): ContentLink {
  const t = link.target
  const targetReference: ContentLink['targetReference'] =
    t.kind === 'url' ? { kind: 'url', url: t.url } : { ...t, space: context.scope.spaceId, organization: context.organizationId }
  return {
    status: link.status,
    relation: link.relation,
    href: link.href,
    targetReference,
    locationReferences: [locationOf(context, link.pageId)]
  }
}

/** A page linking a file, as a reference with the version of the content it was found in. */
export const presentBacklink = locationOf
