import type { Db } from '../database'
import { newId } from '../ids'

/** An invite link: whoever holds its id joins the organization with its role. */
export interface InviteRow {
  seq: number
  id: string
  organization_id: string
  role: string | null
  created_by: string | null
  created_at: string
}

export function inviteRepository(db: Db) {
  const byId = db.prepare<[string], InviteRow>('SELECT * FROM invites WHERE id = ?')
  const page = db.prepare<[string, number, number], InviteRow>(
    'SELECT * FROM invites WHERE organization_id = ? AND seq > ? ORDER BY seq LIMIT ?'
  )
  const count = db.prepare<[string], number>('SELECT count(*) FROM invites WHERE organization_id = ?').pluck()
  const insert = db.prepare('INSERT INTO invites (id, organization_id, role, created_by, created_at) VALUES (?, ?, ?, ?, ?)')
  const setRole = db.prepare('UPDATE invites SET role = ? WHERE id = ?')
  const remove = db.prepare('DELETE FROM invites WHERE id = ?')

  return {
    get: (id: string) => byId.get(id),
    list: (orgId: string, afterSeq: number, limit: number) => page.all(orgId, afterSeq, limit),
    count: (orgId: string) => count.get(orgId)!,
    create(orgId: string, role: string | null, createdBy: string, now: string): InviteRow {
      const id = newId()
      insert.run(id, orgId, role, createdBy, now)
      return byId.get(id)!
    },
    setRole: (id: string, role: string | null) => void setRole.run(role, id),
    remove: (id: string) => void remove.run(id)
  }
}
