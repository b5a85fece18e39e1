// The mirror's row writers (mirror.ts reads the server, these write what it read): a server's organizations,
// collections, spaces, change requests and pages as rows of the local copy, under the server's ids, written through
// the repositories of their tables. Every upsert writes only when a value differs (storage/repositories/upsert.ts),
// so pulling the same state again changes no row.
import type { ChangeRequest } from '../../src-shared/schemas/changeRequests'
import type { Comment } from '../../src-shared/schemas/comments'
import type { Collection } from '../../src-shared/schemas/collections'
import type { Role, User } from '../../src-shared/schemas/common'
import type { Page } from '../../src-shared/schemas/content'
import type { Member } from '../../src-shared/schemas/members'
import type { Organization } from '../../src-shared/schemas/orgs'
import {
  SIMPLE_MERGE_RULES,
  USER_MERGE_RULES,
  type ChangeRequestReview,
  type MergeRule,
  type RequestedReviewer
} from '../../src-shared/schemas/reviews'
import type { Space } from '../../src-shared/schemas/spaces'
import { documentToMarkdown } from '../content/documentModel'
import { roleRank } from '../api/policies/roles'
import { SPACE_ACTIONS } from '../api/policies/space'
import { applyDocumentSettings } from '../content/pageSettings'
import { deleteRevisions, loadPages, type PageProps, type PageRecord } from '../content/revisions'
import type { Db } from '../storage/database'
import { changeRequestRepository } from '../storage/repositories/changeRequestRepository'
import { collectionRepository } from '../storage/repositories/collectionRepository'
import { commentRepository } from '../storage/repositories/commentRepository'
import { memberRepository } from '../storage/repositories/memberRepository'
import { repository } from '../storage/repositories/memo'
import { organizationRepository, type MemberRow } from '../storage/repositories/organizationRepository'
import { reviewRepository } from '../storage/repositories/reviewRepository'
import { revisionRepository } from '../storage/repositories/revisionRepository'
import { settingsRepository } from '../storage/repositories/settingsRepository'
import { spaceRepository } from '../storage/repositories/spaceRepository'
import { userRepository, type UserRow } from '../storage/repositories/userRepository'

/**
 * The mirror's writes and reads of the copy, through the repositories of their tables (`repository(db, mirrorRows)`):
 * this maps the server's wire objects to rows.
 */
export function mirrorRows(db: Db) {
  const settings = repository(db, settingsRepository)
  const organizations = repository(db, organizationRepository)
  const members = repository(db, memberRepository)
  const collections = repository(db, collectionRepository)
  const spaces = repository(db, spaceRepository)
  const changeRequests = repository(db, changeRequestRepository)
  const revisions = repository(db, revisionRepository)
  const users = repository(db, userRepository)
  const comments = repository(db, commentRepository)
  const reviews = repository(db, reviewRepository)

  return {
    /** The workspace's owner: the account. */
    owner: () => settings.owner(),
    setOwner: (userId: string) => settings.setOwner(userId),
    organizationExists: (id: string) => !!organizations.get(id),
    collectionExists: (id: string) => !!collections.get(id),
    spaceExists: (id: string) => !!spaces.get(id),
    /** Which of these revisions the copy holds. */
    revisionsIn: (ids: string[]) => revisions.heldOf(ids),
    spaceRevisions: (spaceId: string) => revisions.idsOfSpace(spaceId),
    /** The account's memberships in the copy, by organization. */
    memberships: (userId: string) => members.ofUser(userId),

    upsertOrganizations(orgs: Organization[]): void {
      const known = organizations.getMany(orgs.map((o) => o.id))
      for (const o of orgs) {
        organizations.upsertMirrored({
          id: o.id,
          title: o.title,
          created_at: o.createdAt,
          hostname: o.hostname ?? null,
          type: o.type ?? 'business',
          use_case: o.useCase ?? null,
          community_type: o.communityType ?? null,
          default_role: o.defaultRole ?? null,
          default_content: o.defaultContent ? JSON.stringify(o.defaultContent) : null,
          sso: o.sso ? 1 : 0,
          ai: o.ai ? 1 : 0,
          invite_links: o.inviteLinks === false ? 0 : 1,
          plan: o.plan ?? 'free',
          custom_hostname: o.customHostname ?? null,
          logo: o.urls?.logo ?? null,
          merge_rules: mergeRulesColumn(o.mergeRules, 'none')
        })
        const wanted = (o.emailDomains ?? []).map((d) => d.toLowerCase())
        if (known.get(o.id)?.email_domains !== JSON.stringify(wanted)) organizations.setEmailDomains(o.id, wanted)
      }
    },

    /**
     * The account's membership of an organization, as the server's Member says, or (`member` undefined: the
     * server did not say) as the copy has it, `read` for a new one.
     */
    upsertMembership(orgId: string, userId: string, member: Member | undefined, known: MemberRow | undefined, now: string): void {
      members.upsertMirrored({
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
    upsertCollections(list: Collection[], now: string): void {
      list.forEach((c, i) =>
        collections.upsertMirrored({
          id: c.id,
          organization_id: c.organization,
          title: c.title,
          description: c.description || null,
          default_level: c.defaultLevel ?? null,
          position: i + 1,
          created_at: now,
          updated_at: now
        })
      )
      const listed = new Set(list.map((c) => c.id))
      for (const c of list) collections.setParentIfDifferent(c.id, c.parent && listed.has(c.parent) ? c.parent : null)
    },

    /**
     * A space's row (not its revision: setSpaceRevision moves that once the content is in the copy). `position`
     * undefined keeps the row's own (a new row needs one).
     */
    upsertSpace(s: Space, parentId: string | null, position: number | undefined, fallbackPosition: number): void {
      spaces.upsertMirrored(
        {
          id: s.id,
          position: position ?? fallbackPosition,
          organization_id: s.organization,
          parent_id: parentId,
          title: s.title,
          emoji: s.emoji ?? '',
          visibility: s.visibility ?? 'private',
          edit_mode: s.editMode ?? 'live',
          default_level: s.defaultLevel ?? null,
          visitor_auth: s.visitorAuth ? JSON.stringify(s.visitorAuth) : null,
          git_sync: s.gitSync ? JSON.stringify(s.gitSync) : null,
          comments_open: s.comments ?? 0,
          change_requests: s.changeRequests ?? 0,
          change_requests_open: s.changeRequestsOpen ?? 0,
          change_requests_draft: s.changeRequestsDraft ?? 0,
          created_at: s.createdAt,
          updated_at: s.updatedAt,
          deleted_at: s.deletedAt ?? null,
          merge_rules: mergeRulesColumn(s.mergeRules, 'inherit')
        },
        position === undefined
      )
    },

    /**
     * The account's role on a space as the server's `permissions` for it say, kept as the account's own grant on the
     * space: the copy's policies then allow what the server allows, whatever made it so there (a team, a
     * collection, a direct grant). None (the space is not visible) removes the grant.
     */
    setAccountGrant(spaceId: string, userId: string, role: Role | null, now: string): void {
      spaces.setGrant(spaceId, 'user', userId, role, now)
    },

    /** Points the space at a revision; true when it moved. */
    setSpaceRevision: (spaceId: string, revisionId: string) => spaces.setRevisionIfDifferent(spaceId, revisionId),

    /** Drops the space's primary revisions nothing needs any more; how many went. */
    pruneSpaceRevisions: (spaceId: string): number => deleteRevisions(db, revisions.unneededInSpace(spaceId)),

    /** Users met along the way, by their server ids: added, or refreshed when something changed. */
    upsertUsers(list: User[], now: string): void {
      const byId = new Map(list.map((u) => [u.id, u]))
      const known = users.getMany(byId.keys())
      for (const u of byId.values()) {
        if (!sameUser(known.get(u.id), u)) users.upsert({ id: u.id, displayName: u.displayName, email: u.email, photoURL: u.photoURL }, now)
      }
    },

    /** Change request rows, new ones in number order (the copy lists by insertion order, as the server does). */
    upsertChangeRequests(spaceId: string, crs: ChangeRequest[]): void {
      for (const cr of [...crs].sort((a, b) => a.number - b.number)) {
        changeRequests.upsertMirrored({
          id: cr.id,
          space_id: spaceId,
          number: cr.number,
          status: cr.status,
          subject: cr.subject ?? '',
          created_by: cr.createdBy?.id ?? null,
          created_at: cr.createdAt,
          updated_at: cr.updatedAt,
          revision_id: cr.revision,
          revision_initial: cr.revisionInitial,
          revision_merged_ancestor: cr.revisionMergedAncestor ?? null,
          revision_merged: cr.revisionMerged ?? null,
          comments_open: cr.comments ?? 0
        })
        if (cr.createdBy) changeRequests.addContributor(cr.id, cr.createdBy.id)
      }
    },

    /**
     * A change request's reviews (the server lists them newest first) and requested reviewers (in the order asked),
     * with the comments posted with the reviews: the server's rows, those it no longer lists removed. A review the
     * server calls outdated is kept as superseded, so the copy calls it outdated too (and, as the server would, any
     * review once the change request's head moves on).
     */
    mirrorReviews(
      spaceId: string,
      changeRequestId: string,
      list: ChangeRequestReview[],
      requested: RequestedReviewer[],
      now: string
    ): void {
      const people = [
        ...list.flatMap((r) => [r.reviewer, ...(r.requestedBy ? [r.requestedBy] : [])]),
        ...list.flatMap((r) => (r.comment ? [r.comment.postedBy, r.comment.resolvedBy].filter((u): u is User => !!u) : [])),
        ...requested.flatMap((r) => [r.user, r.requestedBy])
      ]
      this.upsertUsers(people, now)
      const oldestFirst = [...list].reverse()
      for (const r of oldestFirst) if (r.comment) comments.upsertMirrored(mirroredComment(r.comment, spaceId, changeRequestId))
      changeRequests.markReviewsCopied(changeRequestId)
      reviews.mirror(
        changeRequestId,
        oldestFirst.map((r) => ({
          id: r.id,
          change_request_id: changeRequestId,
          reviewer_id: r.reviewer.id,
          requested_by: r.requestedBy?.id ?? null,
          status: r.status,
          revision_id: r.revision,
          comment_id: r.comment?.id ?? null,
          superseded: r.outdated ? 1 : 0,
          created_at: r.createdAt,
          updated_at: r.updatedAt
        })),
        requested.map((r) => ({
          change_request_id: changeRequestId,
          user_id: r.user.id,
          requested_by: r.requestedBy.id,
          revision_id: r.revision,
          created_at: r.createdAt
        }))
      )
    },

    /**
     * Whether the copy has the change request's (id or number) reviews: pulled with it, or `local` (made here, or
     * with writes the server does not have yet: the copy answers for it).
     */
    reviewsCopied(spaceId: string, ref: string, local: (id: string) => boolean): boolean {
      const cr = changeRequests.find(spaceId, ref)
      return !!cr && (cr.reviews_copied === 1 || local(cr.id))
    },

    /** The copy's open and draft change requests of a space. */
    liveChangeRequests: (spaceId: string) => changeRequests.liveInSpace(spaceId),

    deleteChangeRequests: (ids: string[]) => changeRequests.removeMany(ids),

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
          if (!found.has(i) && page?.documentHash && page.updatedAt === wanted.updatedAt)
            found.set(i, { hash: page.documentHash, props: page.props })
        })
      }
      return found
    },

    /** Ids of the copy's spaces not among `listed`. */
    spacesNotIn: (listed: string[]) => spaces.idsNotIn(listed),

    /** Removes spaces with their content (revisions, change requests, comments cascade). */
    deleteSpaces: (ids: string[]) => spaces.removeMany(ids),

    /** Removes the collections and organizations the server no longer lists (organizations with all they hold). */
    deleteUnlisted(collectionIds: string[], organizationIds: string[]): void {
      collections.deleteNotIn(collectionIds)
      organizations.deleteNotIn(organizationIds)
    }
  }
}

const KNOWN_MERGE_RULES: ReadonlySet<string> = new Set([...SIMPLE_MERGE_RULES, ...USER_MERGE_RULES])

/**
 * A server's merge rules as the column holds them: NULL for the default (`inherit` on a space, `none` on an
 * organization, or a server that does not say), else the configuration's JSON. Rules Quire does not evaluate (the
 * hosted service also has agent reviews and custom expressions) are left out: the copy cannot check them.
 */
export function mergeRulesColumn(config: { type: string; rules?: unknown[] } | undefined, byDefault: 'inherit' | 'none'): string | null {
  if (!config || config.type === byDefault) return null
  if (config.type !== 'rules') return JSON.stringify({ type: config.type })
  const rules = (config.rules ?? []).filter((r): r is MergeRule => KNOWN_MERGE_RULES.has(String((r as { rule?: unknown } | null)?.rule)))
  return JSON.stringify({ type: 'rules', rules })
}

/** A review's comment as the copy stores it (its body as markdown, whichever form the server sent). */
function mirroredComment(c: Comment, spaceId: string, changeRequestId: string) {
  const body = c.body as { markdown?: string; document?: { nodes?: unknown[] } }
  return {
    id: c.id,
    space_id: spaceId,
    change_request_id: changeRequestId,
    page_id: c.target?.page?.id ?? null,
    node_id: c.target?.node?.id ?? null,
    node_preview: c.target?.node?.preview ?? null,
    revision_id: c.target?.revision ?? null,
    body: typeof body.markdown === 'string' ? body.markdown : body.document ? documentToMarkdown(body.document) : '',
    posted_by: c.postedBy?.id ?? null,
    posted_at: c.postedAt,
    edited_at: c.editedAt ?? null,
    resolved_at: c.resolvedAt ?? null,
    resolved_by: c.resolvedBy?.id ?? null,
    replies: c.replies ?? 0
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
    id: p.id,
    parentId,
    position,
    type: p.type,
    title: p.title,
    emoji: p.emoji ?? null,
    slug: p.slug,
    description: null,
    documentId: p.documentId ?? null,
    documentHash: null,
    hidden: false,
    props: {},
    createdAt: p.createdAt,
    updatedAt: p.updatedAt
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
