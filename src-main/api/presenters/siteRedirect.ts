import type { SiteRedirect } from '../../../src-shared/schemas/siteRedirects'
import type { SiteRedirectRow } from '../../storage/repositories/siteRedirectRepository'

export function presentSiteRedirect(row: SiteRedirectRow): SiteRedirect {
  const redirect: SiteRedirect = {
    object: 'site-redirect',
    id: row.id,
    source: row.source,
    draft: !!row.draft,
    captureWildcard: !!row.capture_wildcard,
    permanent: !!row.permanent,
    destination: JSON.parse(row.destination),
    createdAt: row.created_at
  }
  if (row.updated_at) redirect.updatedAt = row.updated_at
  return redirect
}
