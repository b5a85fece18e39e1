import type { ShareLink } from '../../../src-shared/schemas/sites'
import type { ShareLinkRow } from '../../storage/repositories/siteShareLinkRepository'
import type { Ctx } from '../../workspace/context'
import { publishedUrl } from './site'

/**
 * A share link. Only the answer that creates it knows its key (`key`): its published URL then carries it as
 * shareKey; afterwards the URL is the site's own, without a key.
 */
export function presentShareLink(row: ShareLinkRow, ctx: Ctx, key?: string): ShareLink {
  return {
    object: 'share-link',
    id: row.id,
    createdAt: row.created_at,
    name: row.name,
    active: !!row.active,
    urls: { published: publishedUrl(ctx, row.site_id, [], key) }
  }
}
