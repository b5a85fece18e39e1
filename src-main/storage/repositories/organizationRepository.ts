import type { Db } from '../database'
import { newId } from '../ids'
import { updateById } from './patch'
import { jsonIds } from './jsonIds'
import { upsertSql } from './upsert'

export interface OrganizationRow {
  seq: number
  id: string
  title: string
  created_at: string
  hostname: string | null
  type: string
  use_case: string | null
  community_type: string | null
  default_role: string | null
  default_content: string | null
  sso: number
  ai: number
  invite_links: number
  plan: string
  custom_hostname: string | null
  logo: string | null
  /** JSON array of the organization's e-mail domains (joined in by every read). */
  email_domains: string
  /** JSON of the organization's merge rules configuration; NULL is none. */
  merge_rules: string | null
}

export interface MemberRow {
  seq: number
  organization_id: string
  user_id: string
  role: string | null
  disabled: number
  sso: number
  joined_at: string
  last_seen_at: string | null
}

const SELECT_ORG = `SELECT o.*, (SELECT coalesce(json_group_array(domain), '[]') FROM
  (SELECT domain FROM organization_email_domains d WHERE d.organization_id = o.id ORDER BY position)) AS email_domains
  FROM organizations o`

/** An organization's row as another Quire or the hosted service has it (a connected workspace's copy). */
export type MirroredOrganization = Omit<OrganizationRow, 'seq' | 'email_domains'>

const MIRRORED_COLUMNS = [
  'title',
  'created_at',
  'hostname',
  'type',
  'use_case',
  'community_type',
  'default_role',
  'default_content',
  'sso',
  'ai',
  'invite_links',
  'plan',
  'custom_hostname',
  'logo',
  'merge_rules'
] as const

export type OrganizationPatch = Partial<{
  title: string
  hostname: string | null
  default_role: string | null
  default_content: string | null
  logo: string | null
  sso: number
  ai: number
  invite_links: number
  merge_rules: string | null
}>

export function organizationRepository(db: Db) {
  const byId = db.prepare<[string], OrganizationRow>(`${SELECT_ORG} WHERE o.id = ?`)
  const insert = db.prepare(
    `INSERT INTO organizations (id, title, created_at, type, plan, default_role, invite_links)
     VALUES (@id, @title, @created_at, 'business', 'free', 'read', 1)`
  )
  const deleteDomains = db.prepare('DELETE FROM organization_email_domains WHERE organization_id = ?')
  const insertDomain = db.prepare('INSERT OR IGNORE INTO organization_email_domains (organization_id, domain, position) VALUES (?, ?, ?)')
  const byDomain = db.prepare<[string], OrganizationRow>(
    `${SELECT_ORG} WHERE o.id IN (SELECT organization_id FROM organization_email_domains WHERE domain = ?) ORDER BY o.seq`
  )
  const forUser = db.prepare<[string, number, number], OrganizationRow & { member_seq: number }>(
    `${SELECT_ORG.replace('SELECT o.*', 'SELECT o.*, m.seq AS member_seq')}
     JOIN members m ON m.organization_id = o.id
     WHERE m.user_id = ? AND m.seq > ? ORDER BY m.seq LIMIT ?`
  )
  const countForUser = db.prepare<[string], number>('SELECT count(*) FROM members WHERE user_id = ?').pluck()
  const member = db.prepare<[string, string], MemberRow>('SELECT * FROM members WHERE organization_id = ? AND user_id = ?')
  const insertMember = db.prepare(
    `INSERT INTO members (organization_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (organization_id, user_id) DO NOTHING`
  )
  const hostnameTaken = db.prepare<[string, string], number>('SELECT count(*) FROM organizations WHERE hostname = ? AND id <> ?').pluck()
  const manyById = db.prepare<[string], OrganizationRow>(`${SELECT_ORG} WHERE o.id IN (SELECT value FROM json_each(?))`)
  const upsertMirrored = db.prepare(upsertSql('organizations', ['id'], ['id', ...MIRRORED_COLUMNS], MIRRORED_COLUMNS))
  // Members, grants, collections, spaces and their content go with it (foreign keys cascade).
  const deleteNotIn = db.prepare('DELETE FROM organizations WHERE id NOT IN (SELECT value FROM json_each(?))')

  return {
    get: (id: string) => byId.get(id),
    /** Organizations by id, in one query. */
    getMany(ids: Iterable<string>): Map<string, OrganizationRow> {
      const list = [...new Set(ids)]
      return new Map(list.length ? manyById.all(jsonIds(list)).map((r) => [r.id, r]) : [])
    },
    byEmailDomain: (domain: string) => byDomain.all(domain.toLowerCase()),
    /** The caller's organizations, keyset-paged on the membership row. */
    listForUser: (userId: string, afterSeq: number, limit: number) => forUser.all(userId, afterSeq, limit),
    countForUser: (userId: string) => countForUser.get(userId)!,
    member: (organizationId: string, userId: string) => member.get(organizationId, userId),
    addMember(organizationId: string, userId: string, role: string | null, now: string): void {
      insertMember.run(organizationId, userId, role, now)
    },
    hostnameTaken: (hostname: string, exceptId: string) => hostnameTaken.get(hostname, exceptId)! > 0,
    create(input: { title: string; emailDomains?: string[] }, now: string): OrganizationRow {
      const id = newId()
      insert.run({ id, title: input.title, created_at: now })
      if (input.emailDomains) this.setEmailDomains(id, input.emailDomains)
      return byId.get(id)!
    },
    setEmailDomains(id: string, domains: string[]): void {
      deleteDomains.run(id)
      domains.forEach((d, i) => insertDomain.run(id, d.toLowerCase(), i))
    },
    update(id: string, patch: OrganizationPatch): void {
      updateById(db, 'organizations', id, patch)
    },
    /**
     * An organization under its id elsewhere (a connected workspace's server): added, or its row brought up to
     * date. A row that already holds these values is not written. Its e-mail domains are setEmailDomains's.
     */
    upsertMirrored: (row: MirroredOrganization) => void upsertMirrored.run(row),
    /** Removes every organization but `ids`, with all they hold. */
    deleteNotIn: (ids: Iterable<string>) => void deleteNotIn.run(jsonIds(ids))
  }
}
