import type { ShareLink } from '../../../src-shared/schemas/sites'
import type { ShareLinkRow } from '../../storage/repositories/siteShareLinkRepository'
import type { Ctx } from '../context'
import { publishedUrl } from './site'

/** A share link; its published URL carries the link's secret key (the only place the key is shown). */
export function presentShareLink(row: ShareLinkRow, ctx: Ctx): ShareLink {
  return {
    object: 'share-link',
    id: row.id,
    createdAt: row.created_at,
    name: row.name,
    active: !!row.active,
    urls: { published: publishedUrl(ctx, row.site_id, [], row.key) }
  }
}
