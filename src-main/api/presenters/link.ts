import type { ContentLink } from '../../../src-shared/schemas/links'
import type { ResolvedLink } from '../../content/links'
import type { ContentScope } from './content'

/** A link of a page in the wire shape: what it points at (page and file references name the space) and where it is. */
export function presentLink(scope: ContentScope, link: ResolvedLink): ContentLink {
  const t = link.target
  const targetReference: ContentLink['targetReference'] = t.kind === 'url' ? { kind: 'url', url: t.url } : { ...t, space: scope.spaceId }
  return {
    status: link.status,
    relation: link.relation,
    href: link.href,
    targetReference,
    locationReferences: [{ kind: 'page', page: link.pageId, space: scope.spaceId }]
  }
}

export interface BacklinkContext {
  organizationId: string
  scope: ContentScope
  /** Id of the change request whose content is read (absent: the primary content). */
  changeRequestId?: string
}

/** A page linking a file, as a reference with the version of the content it was found in. */
export function presentBacklink(context: BacklinkContext, pageId: string) {
  const versionContext: { revision: string; changeRequest?: string } = { revision: context.scope.revisionId }
  if (context.changeRequestId) versionContext.changeRequest = context.changeRequestId
  return { kind: 'page' as const, page: pageId, space: context.scope.spaceId, organization: context.organizationId, versionContext }
}
