// The mirror's row writers (mirror.ts reads the server, these write what it read): a server's organizations,
// collections, spaces, change requests and pages as rows of the local copy, under the server's ids. Every upsert
// writes only when a value differs, so pulling the same state again changes no row.
import type { ChangeRequest } from '../../src-shared/schemas/changeRequests'
import type { Collection } from '../../src-shared/schemas/collections'
import type { Role, User } from '../../src-shared/schemas/common'
import type { Page } from '../../src-shared/schemas/content'
import type { Member } from '../../src-shared/schemas/members'
import type { Organization } from '../../src-shared/schemas/orgs'
import type { Space } from '../../src-shared/schemas/spaces'
import { roleRank } from '../api/policies/roles'
import { SPACE_ACTIONS } from '../api/policies/space'
import { applyDocumentSettings } from '../content/pageSettings'
import { deleteRevisions, loadPages, type PageProps, type PageRecord } from '../content/revisions'
import type { Db } from '../storage/database'
import { repository } from '../storage/repositories/memo'
import type { MemberRow } from '../storage/repositories/organizationRepository'
import { userRepository, type UserRow } from '../storage/repositories/userRepository'

const json = (values: Iterable<unknown>) => JSON.stringify([...values])

/**
 * `INSERT … ON CONFLICT (key) DO UPDATE SET <update> WHERE <any of them differs>`: a row that already holds these
 * values is not written (no change, no trigger, no WAL frame). Column names are this file's constants.
 */
function upsertSql(table: string, key: string[], columns: string[], update: string[], also: string[] = []): string {
  const set = [...update, ...also].map((c) => `${c} = excluded.${c}`).join(', ')
  const differs = `(${update.map((c) => `${table}.${c}`).join(', ')}) IS NOT (${update.map((c) => `excluded.${c}`).join(', ')})`
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})
    ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${set} WHERE ${differs}`
}

const ORG_COLUMNS = [
  'title', 'created_at', 'hostname', 'type', 'use_case', 'community_type', 'default_role', 'default_content', 'sso', 'ai',
  'invite_links', 'plan', 'custom_hostname', 'logo'
]
const MEMBER_COLUMNS = ['role', 'disabled', 'sso', 'joined_at', 'last_seen_at']
const COLLECTION_COLUMNS = ['organization_id', 'title', 'description', 'default_level', 'position']
const SPACE_COLUMNS = [
  'organization_id', 'parent_id', 'title', 'emoji', 'visibility', 'edit_mode', 'default_level', 'visitor_auth', 'git_sync',
  'comments_open', 'change_requests', 'change_requests_open', 'change_requests_draft', 'created_at', 'updated_at', 'deleted_at'
]
const CHANGE_REQUEST_COLUMNS = [
  'space_id', 'number', 'status', 'subject', 'created_by', 'created_at', 'updated_at', 'revision_id', 'revision_initial',
  'revision_merged_ancestor', 'revision_merged', 'comments_open'
]

/** The mirror's statements, prepared once per database (`repository(db, mirrorRows)`). */
export function mirrorRows(db: Db) {
  const owner = db.prepare<[], string>("SELECT value FROM settings WHERE key = 'owner'").pluck()
  const setOwner = db.prepare(
    "INSERT INTO settings (key, value) VALUES ('owner', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE settings.value IS NOT excluded.value"
  )
  const upsertOrganization = db.prepare(upsertSql('organizations', ['id'], ['id', ...ORG_COLUMNS], ORG_COLUMNS))
  const emailDomains = db.prepare<[string], { id: string; domains: string }>(
    `SELECT o.id, (SELECT json_group_array(domain) FROM
       (SELECT domain FROM organization_email_domains d WHERE d.organization_id = o.id ORDER BY position)) AS domains
     FROM organizations o WHERE o.id IN (SELECT value FROM json_each(?))`
  )
  const deleteDomains = db.prepare('DELETE FROM organization_email_domains WHERE organization_id = ?')
  const insertDomain = db.prepare('INSERT OR IGNORE INTO organization_email_domains (organization_id, domain, position) VALUES (?, ?, ?)')
  const memberships = db.prepare<[string], MemberRow>('SELECT * FROM members WHERE user_id = ?')
  const upsertMember = db.prepare(
    upsertSql('members', ['organization_id', 'user_id'], ['organization_id', 'user_id', ...MEMBER_COLUMNS], MEMBER_COLUMNS)
  )
  // A new collection comes without its parent (which may come later in the list); setCollectionParent follows.
  const upsertCollection = db.prepare(
    upsertSql('collections', ['id'], ['id', 'parent_id', ...COLLECTION_COLUMNS, 'created_at', 'updated_at'], COLLECTION_COLUMNS, ['updated_at'])
  )
  const setCollectionParent = db.prepare('UPDATE collections SET parent_id = @parent WHERE id = @id AND parent_id IS NOT @parent')
  const upsertSpace = db.prepare(upsertSql('spaces', ['id'], ['id', 'position', ...SPACE_COLUMNS], ['position', ...SPACE_COLUMNS]))
  const upsertSpaceInPlace = db.prepare(upsertSql('spaces', ['id'], ['id', 'position', ...SPACE_COLUMNS], SPACE_COLUMNS))
  const setSpaceRevision = db.prepare('UPDATE spaces SET revision_id = @revision WHERE id = @id AND revision_id IS NOT @revision')
  // Primary revisions of a space nothing needs any more: not the space's own, not a
  // base, head or merge of one of its change requests, not what its search rows describe (until they catch up),
  // not named by the outbox (its replay merges against them).
  const prunableSpaceRevisions = db.prepare<{ space: string }, string>(
    `SELECT id FROM revisions WHERE space_id = @space AND change_request_id IS NULL
       AND id IS NOT (SELECT revision_id FROM spaces WHERE id = @space)
       AND id NOT IN (SELECT revision_initial FROM change_requests WHERE space_id = @space)
       AND id NOT IN (SELECT revision_id FROM change_requests WHERE space_id = @space)
       AND id NOT IN (SELECT revision_merged_ancestor FROM change_requests WHERE space_id = @space AND revision_merged_ancestor IS NOT NULL)
       AND id NOT IN (SELECT revision_merged FROM change_requests WHERE space_id = @space AND revision_merged IS NOT NULL)
       AND id NOT IN (SELECT revision_id FROM search_state WHERE space_id = @space)
       AND id NOT IN (SELECT base_revision FROM sync_outbox WHERE base_revision IS NOT NULL)
       AND id NOT IN (SELECT result_revision FROM sync_outbox WHERE result_revision IS NOT NULL)`
  ).pluck()
  const upsertGrant = db.prepare(
    `INSERT INTO space_grants (space_id, principal_type, principal_id, role, granted_at) VALUES (@space, 'user', @user, @role, @now)
     ON CONFLICT (space_id, principal_type, principal_id) DO UPDATE SET role = excluded.role WHERE role IS NOT excluded.role`
  )
  const deleteGrant = db.prepare("DELETE FROM space_grants WHERE space_id = @space AND principal_type = 'user' AND principal_id = @user")
  const upsertChangeRequest = db.prepare(upsertSql('change_requests', ['id'], ['id', ...CHANGE_REQUEST_COLUMNS], CHANGE_REQUEST_COLUMNS))
  const addContributor = db.prepare('INSERT OR IGNORE INTO change_request_contributors (change_request_id, user_id) VALUES (?, ?)')
  const exists = {
    organization: db.prepare<[string], number>('SELECT count(*) FROM organizations WHERE id = ?').pluck(),
    collection: db.prepare<[string], number>('SELECT count(*) FROM collections WHERE id = ?').pluck(),
    space: db.prepare<[string], number>('SELECT count(*) FROM spaces WHERE id = ?').pluck()
  }
  const revisionsIn = db.prepare<[string], string>('SELECT id FROM revisions WHERE id IN (SELECT value FROM json_each(?))').pluck()
  const spaceRevisions = db.prepare<[string], string>('SELECT id FROM revisions WHERE space_id = ? ORDER BY seq DESC').pluck()
  const liveChangeRequests = db.prepare<[string], { id: string; number: number }>(
    "SELECT id, number FROM change_requests WHERE space_id = ? AND status IN ('open', 'draft')"
  )
  const spacesNotIn = db.prepare<[string], string>('SELECT id FROM spaces WHERE id NOT IN (SELECT value FROM json_each(?))').pluck()
  // Reactions name their comment or reply without a foreign key, so they go explicitly (as a purge does).
  const deleteSpaceReactions = db.prepare(
    `DELETE FROM reactions WHERE subject_id IN (
       SELECT id FROM comments WHERE space_id IN (SELECT value FROM json_each(@ids))
       UNION ALL SELECT r.id FROM comment_replies r JOIN comments c ON c.id = r.comment_id WHERE c.space_id IN (SELECT value FROM json_each(@ids)))`
  )
  const deleteSpaces = db.prepare('DELETE FROM spaces WHERE id IN (SELECT value FROM json_each(?))')
  const deleteCollectionsNotIn = db.prepare('DELETE FROM collections WHERE id NOT IN (SELECT value FROM json_each(?))')
  const deleteOrganizationsNotIn = db.prepare('DELETE FROM organizations WHERE id NOT IN (SELECT value FROM json_each(?))')
  const deleteChangeRequestReactions = db.prepare(
    `DELETE FROM reactions WHERE subject_id IN (
       SELECT id FROM comments WHERE change_request_id IN (SELECT value FROM json_each(@ids))
       UNION ALL SELECT r.id FROM comment_replies r JOIN comments c ON c.id = r.comment_id WHERE c.change_request_id IN (SELECT value FROM json_each(@ids)))`
  )
  const deleteChangeRequests = db.prepare('DELETE FROM change_requests WHERE id IN (SELECT value FROM json_each(?))')

  return {
    /** The workspace's owner: the account. */
    owner: () => owner.get(),
    setOwner: (userId: string) => void setOwner.run(userId),
    organizationExists: (id: string) => exists.organization.get(id)! > 0,
    collectionExists: (id: string) => exists.collection.get(id)! > 0,
    spaceExists: (id: string) => exists.space.get(id)! > 0,
    /** Which of these revisions the copy holds. */
    revisionsIn: (ids: string[]) => new Set(revisionsIn.all(json(ids))),
    spaceRevisions: (spaceId: string) => spaceRevisions.all(spaceId),
    /** The account's memberships in the copy, by organization. */
    memberships: (userId: string) => new Map(memberships.all(userId).map((m) => [m.organization_id, m])),

    upsertOrganizations(orgs: Organization[]): void {
      const domains = new Map(emailDomains.all(json(orgs.map((o) => o.id))).map((r) => [r.id, r.domains]))
      for (const o of orgs) {
        upsertOrganization.run({
          id: o.id, title: o.title, created_at: o.createdAt, hostname: o.hostname ?? null, type: o.type ?? 'business',
          use_case: o.useCase ?? null, community_type: o.communityType ?? null, default_role: o.defaultRole ?? null,
          default_content: o.defaultContent ? JSON.stringify(o.defaultContent) : null, sso: o.sso ? 1 : 0, ai: o.ai ? 1 : 0,
          invite_links: o.inviteLinks === false ? 0 : 1, plan: o.plan ?? 'free', custom_hostname: o.customHostname ?? null,
          logo: o.urls?.logo ?? null
        })
        const wanted = (o.emailDomains ?? []).map((d) => d.toLowerCase())
        if (domains.get(o.id) !== JSON.stringify(wanted)) {
          deleteDomains.run(o.id)
          wanted.forEach((d, i) => insertDomain.run(o.id, d, i))
        }
      }
    },

    /**
     * The account's membership of an organization, as the server's Member says, or (`member` undefined: the
     * server did not say) as the copy has it, `read` for a new one.
     */
    upsertMembership(orgId: string, userId: string, member: Member | undefined, known: MemberRow | undefined, now: string): void {
      upsertMember.run({
        organization_id: orgId,
        user_id: userId,
        role: member ? member.role : known ? known.role : 'read',
        disabled: member ? (member.disabled ? 1 : 0) : (known?.disabled ?? 0),
        sso: member ? (member.sso ? 1 : 0) : (known?.sso ?? 0),
        joined_at: member?.joinedAt ?? known?.joined_at ?? now,
        last_seen_at: member ? (member.lastSeenAt ?? null) : (known?.last_seen_at ?? null)
      })
    },

    /**
     * An organization's collections in list order (positions 1..n): rows first, then parents, so a parent listed
     * after its child is there when the child points at it. A parent the list does not hold (not visible to the
     * account) leaves the collection at the root.
     */
    upsertCollections(collections: Collection[], now: string): void {
      collections.forEach((c, i) =>
        upsertCollection.run({
          id: c.id, parent_id: null, organization_id: c.organization, title: c.title, description: c.description || null,
          default_level: c.defaultLevel ?? null, position: i + 1, created_at: now, updated_at: now
        })
      )
      const listed = new Set(collections.map((c) => c.id))
      for (const c of collections) setCollectionParent.run({ id: c.id, parent: c.parent && listed.has(c.parent) ? c.parent : null })
    },

    /**
     * A space's row (not its revision: setSpaceRevision moves that once the content is in the copy). `position`
     * undefined keeps the row's own (a new row needs one).
     */
    upsertSpace(s: Space, parentId: string | null, position: number | undefined, fallbackPosition: number): void {
      ;(position === undefined ? upsertSpaceInPlace : upsertSpace).run({
        id: s.id, position: position ?? fallbackPosition, organization_id: s.organization, parent_id: parentId, title: s.title,
        emoji: s.emoji ?? '', visibility: s.visibility ?? 'private', edit_mode: s.editMode ?? 'live', default_level: s.defaultLevel ?? null,
        visitor_auth: s.visitorAuth ? JSON.stringify(s.visitorAuth) : null, git_sync: s.gitSync ? JSON.stringify(s.gitSync) : null,
        comments_open: s.comments ?? 0, change_requests: s.changeRequests ?? 0, change_requests_open: s.changeRequestsOpen ?? 0,
        change_requests_draft: s.changeRequestsDraft ?? 0, created_at: s.createdAt, updated_at: s.updatedAt, deleted_at: s.deletedAt ?? null
      })
    },

    /**
     * The account's role on a space as the server's `permissions` for it say, kept as the account's own grant on the
     * space: the copy's policies then allow what the server allows, whatever made it so there (a team, a
     * collection, a direct grant). None (the space is not visible) removes the grant.
     */
    setAccountGrant(spaceId: string, userId: string, role: Role | null, now: string): void {
      if (role) upsertGrant.run({ space: spaceId, user: userId, role, now })
      else deleteGrant.run({ space: spaceId, user: userId })
    },

    /** Points the space at a revision; true when it moved. */
    setSpaceRevision: (spaceId: string, revisionId: string) => setSpaceRevision.run({ id: spaceId, revision: revisionId }).changes > 0,

    /** Drops the space's primary revisions nothing needs any more; how many went. */
    pruneSpaceRevisions: (spaceId: string): number => deleteRevisions(db, prunableSpaceRevisions.all({ space: spaceId })),

    /** Users met along the way, by their server ids: added, or refreshed when something changed. */
    upsertUsers(users: User[], now: string): void {
      const repo = repository(db, userRepository)
      const byId = new Map(users.map((u) => [u.id, u]))
      const known = repo.getMany(byId.keys())
      for (const u of byId.values()) {
        if (!sameUser(known.get(u.id), u)) repo.upsert({ id: u.id, displayName: u.displayName, email: u.email, photoURL: u.photoURL }, now)
      }
    },

    /** Change request rows, new ones in number order (the copy lists by insertion order, as the server does). */
    upsertChangeRequests(spaceId: string, crs: ChangeRequest[]): void {
      for (const cr of [...crs].sort((a, b) => a.number - b.number)) {
        upsertChangeRequest.run({
          id: cr.id, space_id: spaceId, number: cr.number, status: cr.status, subject: cr.subject ?? '', created_by: cr.createdBy?.id ?? null,
          created_at: cr.createdAt, updated_at: cr.updatedAt, revision_id: cr.revision, revision_initial: cr.revisionInitial,
          revision_merged_ancestor: cr.revisionMergedAncestor ?? null, revision_merged: cr.revisionMerged ?? null, comments_open: cr.comments ?? 0
        })
        if (cr.createdBy) addContributor.run(cr.id, cr.createdBy.id)
      }
    },

    /** The copy's open and draft change requests of a space. */
    liveChangeRequests: (spaceId: string) => liveChangeRequests.all(spaceId),

    deleteChangeRequests(ids: string[]): void {
      if (!ids.length) return
      deleteChangeRequestReactions.run({ ids: json(ids) })
      deleteChangeRequests.run(json(ids))
    },

    /**
     * For each page (by index), a document of the copy's pages with the same id and update time in one of
     * `revisionIds`, with those pages' props: the server changes a page's update time whenever its document changes.
     */
    reusableDocuments(pages: { id: string; updatedAt: string }[], revisionIds: string[]): Map<number, { hash: string; props: PageProps }> {
      const found = new Map<number, { hash: string; props: PageProps }>()
      if (!pages.length || !revisionIds.length) return found
      for (const revisionId of revisionIds) {
        if (found.size === pages.length) break
        const held = new Map(loadPages(db, revisionId).map((p) => [p.id, p]))
        pages.forEach((wanted, i) => {
          const page = held.get(wanted.id)
          if (!found.has(i) && page?.documentHash && page.updatedAt === wanted.updatedAt) found.set(i, { hash: page.documentHash, props: page.props })
        })
      }
      return found
    },

    /** Ids of the copy's spaces not among `listed`. */
    spacesNotIn: (listed: string[]) => spacesNotIn.all(json(listed)),

    /** Removes spaces with their content (revisions, change requests, comments cascade). */
    deleteSpaces(ids: string[]): void {
      if (!ids.length) return
      deleteSpaceReactions.run({ ids: json(ids) })
      deleteSpaces.run(json(ids))
    },

    /** Removes the collections and organizations the server no longer lists (organizations with all they hold). */
    deleteUnlisted(collectionIds: string[], organizationIds: string[]): void {
      deleteCollectionsNotIn.run(json(collectionIds))
      deleteOrganizationsNotIn.run(json(organizationIds))
    }
  }
}

const emailOf = (u: User) => u.email || `${u.id}@users.invalid`

function sameUser(row: UserRow | undefined, u: User): boolean {
  return !!row && row.display_name === u.displayName && row.email === emailOf(u) && row.photo_url === (u.photoURL ?? null)
}

/** A wire page flattened: where it sits and what the server says of it. */
export interface WirePage {
  page: Page
  parentId: string | null
  position: number
}

/** The wire's page tree as a flat list, parents before their children, positions = order among siblings. */
export function flattenPages(pages: Page[], parentId: string | null = null, out: WirePage[] = []): WirePage[] {
  pages.forEach((page, position) => {
    out.push({ page, parentId, position })
    flattenPages(page.pages ?? [], page.id, out)
  })
  return out
}

/** Whether a page has a document to mirror (link pages have none). */
export const hasDocument = (p: Page): boolean => p.type === 'document' || !!p.documentId

/** The document a mirrored page gets: its markdown fetched from the server, or one the copy holds already. */
export type PageDocument = { markdown: string; hash: string } | { hash: string; props: PageProps }

/**
 * A wire page as the copy stores it. The settings a document owns (layout, cover, icon, noIndex, noRobotsIndex)
 * come from its front matter by the rule every locally written page follows (applyDocumentSettings), or, for a
 * reused document, from the copy's page that already holds it; `git` and `href` come from the wire, as do
 * `description` and `hidden`, which the server may also have set directly.
 */
export function pageRecord({ page: p, parentId, position }: WirePage, document: PageDocument | undefined): PageRecord {
  const record: PageRecord = {
    id: p.id, parentId, position, type: p.type, title: p.title, emoji: p.emoji ?? null, slug: p.slug, description: null,
    documentId: p.documentId ?? null, documentHash: null, hidden: false, props: {}, createdAt: p.createdAt, updatedAt: p.updatedAt
  }
  if (document) {
    record.documentHash = document.hash
    if ('markdown' in document) applyDocumentSettings(record, document.markdown)
    else {
      const { git: _git, href: _href, ...fromDocument } = document.props
      record.props = fromDocument
    }
  } else if (p.icon) record.props = { icon: p.icon }
  if (p.git) record.props.git = p.git
  if (p.href) record.props.href = p.href
  record.description = p.description ?? null
  record.hidden = p.hidden ?? false
  return record
}

/**
 * The least role that allows everything a space's `permissions` allow (the SPACE_ACTIONS table read backwards):
 * null when the space is not visible. A locked space's edit, merge and Git sync are off for everyone, so they
 * say nothing of the role.
 */
export function roleOfPermissions(permissions: Space['permissions'] | undefined): Role | null {
  if (!permissions?.view) return null
  let role: Role = 'read'
  for (const [action, needed] of Object.entries(SPACE_ACTIONS) as [keyof Space['permissions'], Role][]) {
    if (permissions[action] && roleRank(needed) > roleRank(role)) role = needed
  }
  return role
}
