import { randomBytes } from 'node:crypto'
import type { Db } from '../database'
import { hashToken, newId } from '../ids'
import { updateById } from './patch'

export interface ShareLinkRow {
  seq: number
  id: string
  site_id: string
  name: string
  /** SHA-256 (hex) of the key readers send as shareKey; the key itself is never stored. */
  key_hash: string
  active: number
  created_at: string
}

export type ShareLinkPatch = Partial<Pick<ShareLinkRow, 'name' | 'active'>>

export function siteShareLinkRepository(db: Db) {
  const byId = db.prepare<[string], ShareLinkRow>('SELECT * FROM site_share_links WHERE id = ?')
  const insert = db.prepare(
    'INSERT INTO site_share_links (id, site_id, name, key_hash, active, created_at) VALUES (@id, @site_id, @name, @key_hash, 1, @created_at)'
  )
  const remove = db.prepare('DELETE FROM site_share_links WHERE id = ?')
  const page = db.prepare<[string, number, number], ShareLinkRow>(
    'SELECT * FROM site_share_links WHERE site_id = ? AND seq > ? ORDER BY seq LIMIT ?'
  )
  const count = db.prepare<[string], number>('SELECT count(*) FROM site_share_links WHERE site_id = ?').pluck()
  const activeByHash = db.prepare<[string], ShareLinkRow>('SELECT * FROM site_share_links WHERE key_hash = ? AND active = 1')

  return {
    get: (id: string) => byId.get(id),
    /** A new active link and its key: the only time the key is known, since only its hash is stored. */
    create(input: Pick<ShareLinkRow, 'site_id' | 'name' | 'created_at'>): { row: ShareLinkRow; key: string } {
      const id = newId()
      // 192 random bits: the key alone opens the site, so it must not be guessable.
      const key = randomBytes(24).toString('base64url')
      insert.run({ ...input, id, key_hash: hashToken(key) })
      return { row: byId.get(id)!, key }
    },
    update: (id: string, patch: ShareLinkPatch) => updateById(db, 'site_share_links', id, patch),
    remove: (id: string) => void remove.run(id),
    list: (siteId: string, afterSeq: number, limit: number) => page.all(siteId, afterSeq, limit),
    count: (siteId: string) => count.get(siteId)!,
    /** The active link whose key is `key`, of whichever site. */
    activeByKey: (key: string) => activeByHash.get(hashToken(key)),
    /** The active link of `siteId` whose key is `key`, if any. */
    activeOfSite(siteId: string, key: string): ShareLinkRow | undefined {
      const link = activeByHash.get(hashToken(key))
      return link?.site_id === siteId ? link : undefined
    }
  }
}
