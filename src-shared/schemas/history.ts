import Type, { type TSchema } from 'typebox'
import { ChangeRequestSchema } from './changeRequests'
import { DateTime, ListOf, PageQuery, StringEnum, UserSchema } from './common'
import { PAGE_TYPES, PageCoverSchema, PageLayoutSchema } from './content'

const Id = Type.String({ maxLength: 100 })

/** One revision of a space's history, without its pages or files (`GET /v1/spaces/{spaceId}/revisions`). */
export const RevisionSummarySchema = Type.Object({
  object: Type.Literal('revision'),
  id: Type.String(),
  parents: Type.Array(Type.String()),
  createdAt: DateTime,
  type: Type.String(),
  createdBy: Type.Optional(UserSchema),
  /** The change request this revision merged. */
  changeRequest: Type.Optional(Type.Object({ id: Type.String(), number: Type.Number(), subject: Type.String() }))
})
export type RevisionSummary = Type.Static<typeof RevisionSummarySchema>
export const RevisionSummaryList = ListOf(RevisionSummarySchema)
export const RevisionListQuery = Type.Object({ ...PageQuery })

export const RevisionParams = Type.Object({ spaceId: Id, revisionId: Id })
export const RevisionPageParams = Type.Object({ spaceId: Id, revisionId: Id, pageId: Id })
export const RevisionPathParams = Type.Object({ spaceId: Id, revisionId: Id, pagePath: Type.String({ maxLength: 2000 }) })
export const RevisionFileParams = Type.Object({ spaceId: Id, revisionId: Id, fileId: Id })

export const SEMANTIC_CHANGE_TYPES = [
  'page_created',
  'page_edited',
  'page_deleted',
  'page_moved',
  'file_created',
  'file_edited',
  'file_deleted'
] as const
export type SemanticChangeType = (typeof SEMANTIC_CHANGE_TYPES)[number]
/** The changes of pages (a change request's changes are these only). */
export const PAGE_CHANGE_TYPES = ['page_created', 'page_edited', 'page_deleted', 'page_moved'] as const

const Before = <T extends TSchema>(value: T) => Type.Object({ before: value, after: value })

/** A unified-diff hunk of a page's text (src-shared/lineHunks.ts). */
const LineHunkSchema = Type.Object({
  oldStart: Type.Number(),
  oldLines: Type.Number(),
  newStart: Type.Number(),
  newLines: Type.Number(),
  lines: Type.Array(Type.String(), { description: "Each line prefixed with ' ' (kept), '-' (removed) or '+' (added)" })
})

/** A page as a change names it: its id, and its title and path in the revision that has it (the newer one when both do). */
const ChangedPage = Type.Object({ id: Type.String(), type: StringEnum(PAGE_TYPES), title: Type.String(), path: Type.String() })
export type SemanticChangePage = Type.Static<typeof ChangedPage>
const ChangedFile = Type.Object({
  id: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  size: Type.Number(),
  downloadURL: Type.String()
})
/** Before and after of a value a side may not have (that side is left out). */
const SidesOf = <T extends TSchema>(value: T) => Type.Object({ before: Type.Optional(value), after: Type.Optional(value) })
const Sides = SidesOf(Type.String())

export const SemanticChangeSchema = Type.Object({
  type: StringEnum(SEMANTIC_CHANGE_TYPES),
  page: Type.Optional(ChangedPage),
  file: Type.Optional(ChangedFile),
  /** page_edited: what changed, before and after (`document` is present when the text changed). */
  attributes: Type.Optional(
    Type.Object({
      title: Type.Optional(Before(Type.String())),
      slug: Type.Optional(Before(Type.String())),
      emoji: Type.Optional(Sides),
      icon: Type.Optional(Sides),
      description: Type.Optional(Sides),
      hidden: Type.Optional(Before(Type.Boolean())),
      layout: Type.Optional(Before(PageLayoutSchema)),
      cover: Type.Optional(SidesOf(PageCoverSchema)),
      noIndex: Type.Optional(Before(Type.Boolean())),
      noRobotsIndex: Type.Optional(Before(Type.Boolean())),
      target: Type.Optional(SidesOf(Type.Object({ kind: Type.Literal('url'), url: Type.String() }))),
      document: Type.Optional(
        Type.Object(
          { before: Type.Optional(Type.String()), after: Type.Optional(Type.String()), hunks: Type.Array(LineHunkSchema) },
          { description: 'Present when the text changed: its content hashes before and after (left out: none) and the line changes' }
        )
      ),
      name: Type.Optional(Before(Type.String())),
      contentType: Type.Optional(Before(Type.String())),
      size: Type.Optional(Before(Type.Number())),
      downloadURL: Type.Optional(Before(Type.String()))
    })
  ),
  /** page_moved: the parent page before and after (left out: the root), and the path. */
  parent: Type.Optional(Type.Object({ before: Type.Optional(ChangedPage), after: Type.Optional(ChangedPage) })),
  path: Type.Optional(Before(Type.String()))
})
export type SemanticChange = Type.Static<typeof SemanticChangeSchema>

export const RevisionChangesQuery = Type.Object({
  against: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Another revision of the space to compare with (default: the first parent)' })
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Changes to answer at most (default 10)' })),
  metadata: Type.Optional(Type.Boolean({ default: true })),
  computed: Type.Optional(Type.Boolean({ default: true }))
})

export const RevisionChangesSchema = Type.Object({
  changes: Type.Array(SemanticChangeSchema),
  /** How many changes were left out past `limit`. */
  more: Type.Optional(Type.Number()),
  /** The change request a merge revision merged. */
  mergedFrom: Type.Optional(ChangeRequestSchema)
})
export type RevisionChanges = Type.Static<typeof RevisionChangesSchema>

/** A page as a change request's change shows it on one side: what the diff screen compares. */
const ChangeSide = Type.Object({ title: Type.String(), path: Type.String(), markdown: Type.String() })

/**
 * A change request's change of a page: a semantic change (as a revision's), with each side's text and whether a
 * merge would stop at the page now.
 */
export const ChangeRequestChangeSchema = Type.Object({
  ...SemanticChangeSchema.properties,
  type: StringEnum(PAGE_CHANGE_TYPES),
  page: ChangedPage,
  /** The page at the merge base (absent for a created page). */
  before: Type.Optional(ChangeSide),
  /** The page in the change request (absent for a deleted page). */
  after: Type.Optional(ChangeSide),
  /** The primary content changed this page meanwhile in a way a merge could not reconcile. */
  conflict: Type.Optional(Type.Boolean())
})
export type ChangeRequestChange = Type.Static<typeof ChangeRequestChangeSchema>

export const ChangeRequestChangesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, description: 'Changes to answer at most (default: all)' }))
})

export const ChangeRequestChangesSchema = Type.Object({
  changes: Type.Array(ChangeRequestChangeSchema),
  /** How many changes were left out past `limit`. */
  more: Type.Optional(Type.Number())
})
export type ChangeRequestChanges = Type.Static<typeof ChangeRequestChangesSchema>

export const RestoreSchema = Type.Object({
  pages: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      minItems: 1,
      maxItems: 1000,
      description: 'Restore only these pages (default: the whole revision)'
    })
  ),
  subject: Type.Optional(Type.String({ maxLength: 100, description: 'The change request subject (default: names the revision)' }))
})
export type RestoreInput = Type.Static<typeof RestoreSchema>
