import { randomBytes } from 'node:crypto'
import type { Db } from '../database'
import { newId } from '../ids'
import { updateById } from './patch'

export interface ShareLinkRow {
  seq: number
  id: string
  site_id: string
  name: string
  key: string
  active: number
  created_at: string
}

export type ShareLinkPatch = Partial<Pick<ShareLinkRow, 'name' | 'active'>>

export function siteShareLinkRepository(db: Db) {
  const byId = db.prepare<[string], ShareLinkRow>('SELECT * FROM site_share_links WHERE id = ?')
  const insert = db.prepare(
    'INSERT INTO site_share_links (id, site_id, name, key, active, created_at) VALUES (@id, @site_id, @name, @key, 1, @created_at)'
  )
  const remove = db.prepare('DELETE FROM site_share_links WHERE id = ?')
  const page = db.prepare<[string, number, number], ShareLinkRow>('SELECT * FROM site_share_links WHERE site_id = ? AND seq > ? ORDER BY seq LIMIT ?')
  const count = db.prepare<[string], number>('SELECT count(*) FROM site_share_links WHERE site_id = ?').pluck()
  const activeByKey = db.prepare<[string, string], ShareLinkRow>('SELECT * FROM site_share_links WHERE key = ? AND site_id = ? AND active = 1')

  return {
    get: (id: string) => byId.get(id),
    create(input: Pick<ShareLinkRow, 'site_id' | 'name' | 'created_at'>): ShareLinkRow {
      const id = newId()
      // 192 random bits: the key alone opens the site, so it must not be guessable.
      insert.run({ ...input, id, key: randomBytes(24).toString('base64url') })
      return byId.get(id)!
    },
    update: (id: string, patch: ShareLinkPatch) => updateById(db, 'site_share_links', id, patch),
    remove: (id: string) => void remove.run(id),
    list: (siteId: string, afterSeq: number, limit: number) => page.all(siteId, afterSeq, limit),
    count: (siteId: string) => count.get(siteId)!,
    /** The active link of `siteId` whose key is `key`, if any. */
    activeByKey: (siteId: string, key: string) => activeByKey.get(key, siteId)
  }
}
