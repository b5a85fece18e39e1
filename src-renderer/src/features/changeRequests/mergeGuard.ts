// The merge guard's wording: which links merging a change request would break, where, and why. Pure: tested in
// Node. The server decides which links count (`GET …/change-requests/{n}/links?introduced=true`).
import type { ChangeRequestLink } from '../../api/types.ts'
import { describeTarget } from '../links/links.ts'
import type { PageChange } from './changes.ts'

export interface BrokenLinkRow {
  key: string
  /** The page holding the link, and whether it is read in the change request (else a page only main has). */
  page: { id: string; title: string; path?: string; inChangeRequest: boolean }
  /** The link as written in the page. */
  href: string
  /** What it points at, in words. */
  target: string
  /** Why it leads nowhere after the merge. */
  why: string
}

/** A page's title and path, from the change request's tree or main's. */
export type PageNames = ReadonlyMap<string, { title: string; path: string }>

const EMPTY = new Map<string, string>()

/**
 * One broken link in words. A link to a page this change request removes or moves away says so (from its
 * `/changes`, matched by the path or id the link names); any other leads nowhere as the links report says.
 */
export function describeBrokenLink(link: ChangeRequestLink, changes: readonly PageChange[], pages: PageNames): BrokenLinkRow {
  const location = link.locationReferences[0]!
  const names = pages.get(location.page)
  const t = link.targetReference
  const { label, note } = describeTarget(link, EMPTY, EMPTY)
  let why = note ?? 'Leads nowhere'
  if (t.kind === 'page') {
    const path = t.path?.replace(/^\/+/, '')
    const gone = changes.find(
      (c) => (c.type === 'page_deleted' || c.type === 'page_moved') && (t.page ? c.page.id === t.page : c.before?.path === path)
    )
    if (gone?.type === 'page_deleted') why = `This change request removes “${gone.before?.title || gone.page.title || 'Untitled page'}”`
    else if (gone?.type === 'page_moved')
      why = `This change request moves “${gone.page.title || 'Untitled page'}” to /${gone.after?.path ?? gone.page.path}`
  }
  return {
    key: `${location.page} ${link.relation} ${link.href}`,
    page: {
      id: location.page,
      title: names?.title || 'Untitled page',
      path: names?.path,
      inChangeRequest: !!location.versionContext.changeRequest
    },
    href: link.href,
    target: label,
    why
  }
}

/** "1 link" / "3 links". */
export function links(n: number): string {
  return `${n} ${n === 1 ? 'link' : 'links'}`
}
