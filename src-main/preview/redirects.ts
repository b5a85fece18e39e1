import { PageTree } from '../content/pageTree'
import { loadPages } from '../content/revisions'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import type { SiteRow } from '../storage/repositories/siteRepository'
import { siteRedirectRepository, type SiteRedirectRow } from '../storage/repositories/siteRedirectRepository'
import { siteSectionRepository } from '../storage/repositories/siteSectionRepository'
import { siteSpaceRepository, type SiteSpaceRow } from '../storage/repositories/siteSpaceRepository'
import { spaceRepository } from '../storage/repositories/spaceRepository'

/** A stored destination, as the wire names it. */
export type RedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'external'; url: string }

/** Where a destination leads: a URL of its own, or path segments under the site's root; undefined when it is gone. */
export type RedirectTarget = { url: string } | { segments: string[] }

/** The preview segments of a site space of the site (its section's path first); undefined when not in the site. */
export function siteSpaceSegments(db: Db, site: SiteRow, siteSpace: SiteSpaceRow | undefined): string[] | undefined {
  if (!siteSpace || siteSpace.site_id !== site.id) return undefined
  if (!siteSpace.section_id) return [siteSpace.path]
  const section = repository(db, siteSectionRepository).get(siteSpace.section_id)
  return section ? [section.path, siteSpace.path] : undefined
}

/** The path of a page in the primary content of a site space's space, if the page is there. */
export function pagePathIn(db: Db, siteSpace: SiteSpaceRow, pageId: string): string | undefined {
  const space = repository(db, spaceRepository).get(siteSpace.space_id)
  if (!space?.revision_id) return undefined
  return PageTree.readOnly(loadPages(db, space.revision_id)).paths().get(pageId)
}

export function redirectTarget(db: Db, site: SiteRow, destination: RedirectDestination): RedirectTarget | undefined {
  switch (destination.kind) {
    case 'external':
      return { url: destination.url }
    case 'site-section': {
      const section = repository(db, siteSectionRepository).get(destination.siteSectionId)
      return section?.site_id === site.id ? { segments: [section.path] } : undefined
    }
    case 'site-space': {
      const segments = siteSpaceSegments(db, site, repository(db, siteSpaceRepository).get(destination.siteSpaceId))
      return segments && { segments }
    }
    case 'site-page': {
      const siteSpace = repository(db, siteSpaceRepository).get(destination.siteSpaceId)
      const segments = siteSpaceSegments(db, site, siteSpace)
      const path = segments && pagePathIn(db, siteSpace!, destination.pageId)
      return path ? { segments: [...segments, ...path.split('/')] } : undefined
    }
  }
}

/** The redirect a request path of the site meets, and the suffix its wildcard matched. */
export function matchRedirect(
  db: Db,
  site: SiteRow,
  path: string,
  draft = false
): { redirect: SiteRedirectRow; suffix: string } | undefined {
  const redirect = repository(db, siteRedirectRepository).match(site.id, draft, path)
  return redirect && { redirect, suffix: redirect.wildcard ? path.slice(redirect.match_key.length) : '' }
}

/** A target with a captured wildcard suffix appended (to the path, before any query or fragment of a URL). */
export function withSuffix(target: RedirectTarget, suffix: string): RedirectTarget {
  if (!suffix) return target
  if ('segments' in target) return { segments: [...target.segments, ...suffix.split('/').filter(Boolean)] }
  const url = new URL(target.url)
  url.pathname = `${url.pathname.replace(/\/$/, '')}/${suffix.replace(/^\//, '').split('/').map(encodeURIComponent).join('/')}`
  return { url: url.toString() }
}
