import Type from 'typebox'
import { DateTime, ListOf, PageQuery, patterned, StringEnum, UserSchema } from './common'
import { SLUG_PATTERN, SLUG_PATTERN_HINT } from '../slug'

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number]

export const ChangeRequestSchema = Type.Object({
  object: Type.Literal('change-request'),
  id: Type.String(),
  number: Type.Number(),
  status: StringEnum(CHANGE_REQUEST_STATUSES),
  subject: Type.String(),
  createdBy: Type.Optional(UserSchema),
  createdAt: DateTime,
  updatedAt: DateTime,
  space: Type.String({ description: 'The space the change request belongs to' }),
  revision: Type.String(),
  revisionInitial: Type.String(),
  revisionMergedAncestor: Type.Optional(Type.String()),
  revisionMerged: Type.Optional(Type.String()),
  comments: Type.Number(),
  outdated: Type.Boolean(),
  urls: Type.Object({ app: Type.String(), location: Type.String() })
})
export type ChangeRequest = Type.Static<typeof ChangeRequestSchema>

export const ChangeRequestParams = Type.Object({
  spaceId: Type.String({ maxLength: 100 }),
  changeRequestId: Type.String({ maxLength: 100, description: 'The change request id, or its number in the space' })
})
export const ChangeRequestListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(StringEnum(CHANGE_REQUEST_STATUSES, { default: 'open' })),
  contributor: Type.Optional(Type.String({ maxLength: 100, description: 'User id' }))
})
export const ChangeRequestList = ListOf(ChangeRequestSchema)
export const ChangeRequestCreateSchema = Type.Object({ subject: Type.Optional(Type.String({ maxLength: 100 })) })
export const ChangeRequestUpdateSchema = Type.Object({
  subject: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(StringEnum(CHANGE_REQUEST_STATUSES))
})
const PageRefId = Type.String({ minLength: 1, maxLength: 100 })
const Document = Type.Object({ markdown: Type.String({ maxLength: 1_000_000 }) })
/**
 * A content batch's document: markdown, or the published document model (`{document: {object: "document", nodes}}`,
 * written as markdown when the batch is applied, src-main/content/documentModel.ts).
 */
const BatchDocument = Type.Union([
  Document,
  Type.Object({
    document: Type.Object(
      {
        object: Type.Literal('document'),
        data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        nodes: Type.Array(
          Type.Object({ object: Type.Literal('block'), type: Type.String({ maxLength: 100 }) }, { additionalProperties: true }),
          { maxItems: 100_000 }
        )
      },
      { additionalProperties: true }
    )
  })
])
const Title = Type.String({ minLength: 1, maxLength: 255 })
const Emoji = Type.String({ maxLength: 50 })
const Description = Type.String({ maxLength: 1000 })
const Slug = Type.String({
  minLength: 1,
  maxLength: 100,
  ...patterned(SLUG_PATTERN, SLUG_PATTERN_HINT),
  description: "The page's slug, given by hand: it then stays when the title changes (a slug still made from the title follows it)"
})

/** `POST …/update`: optional resolutions of the pages that conflict with main (no body: update as it stands). */
export const ChangeRequestPullSchema = Type.Object({
  resolutions: Type.Optional(
    Type.Array(
      Type.Object({
        page: PageRefId,
        document: Document,
        title: Type.Optional(Title)
      }),
      {
        minItems: 1,
        maxItems: 1000,
        description: 'The conflicting pages as they are to read once main is pulled in: their markdown (and title, for a title conflict)'
      }
    )
  )
})
export type ChangeRequestPullInput = Type.Static<typeof ChangeRequestPullSchema>

export const MergeResultSchema = Type.Object({
  revision: Type.String(),
  result: StringEnum(['merge', 'update', 'conflicts'] as const),
  conflicts: Type.Optional(
    Type.Array(Type.Object({ page: Type.Object({ id: Type.String(), title: Type.String() }), reason: Type.String() }))
  )
})

export const InsertPageChange = Type.Object({
  operation: Type.Literal('insert_page'),
  document: BatchDocument,
  title: Type.Optional(Title),
  emoji: Type.Optional(Emoji),
  description: Type.Optional(Description),
  into: Type.Optional(PageRefId),
  at: Type.Optional(Type.Integer({ minimum: 0 })),
  ref: Type.Optional(Type.String({ minLength: 1, maxLength: 100 }))
})
export const UpdatePageChange = Type.Object({
  operation: Type.Literal('update_page'),
  page: PageRefId,
  document: Type.Optional(BatchDocument),
  title: Type.Optional(Title),
  slug: Type.Optional(Slug),
  emoji: Type.Optional(Type.Union([Emoji, Type.Null()])),
  description: Type.Optional(Type.Union([Description, Type.Null()])),
  hidden: Type.Optional(Type.Boolean()),
  into: Type.Optional(Type.Union([PageRefId, Type.Null()])),
  at: Type.Optional(Type.Integer({ minimum: 0 }))
})
export const DeletePageChange = Type.Object({ operation: Type.Literal('delete_page'), page: PageRefId })
export const RevertPageChange = Type.Object({
  operation: Type.Literal('revert_page'),
  page: PageRefId,
  revision: Type.Optional(Type.String({ maxLength: 100 }))
})
/**
 * Standard base64: its alphabet, then `=` padding only at the end; spaces and line breaks anywhere (encoders wrap
 * lines). Without it, decoding skips what it cannot read and stores a garbled file. One character class with no
 * nested quantifier: linear, and no backtracking stack however long the text (a pattern that also counted the
 * length modulo 4 overflows V8's regexp stack at a few MB); the length is checked where the file is decoded.
 */
const BASE64 = patterned(
  '^[A-Za-z0-9+/\\t\\n\\r ]*(?:=[\\t\\n\\r ]*){0,2}$',
  'standard base64 (A-Z, a-z, 0-9, + and /, with = padding only at the end)'
)

export const InsertFilesChange = Type.Object({
  operation: Type.Literal('insert_files'),
  files: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: 255 }),
      contentType: Type.Optional(Type.String({ maxLength: 255 })),
      base64: Type.String({
        maxLength: 1_400_000,
        ...BASE64,
        description: 'Standard base64, padded or not (line breaks allowed); at most 1 MB once decoded'
      }),
      ref: Type.Optional(Type.String({ minLength: 1, maxLength: 100 }))
    }),
    { minItems: 1, maxItems: 20 }
  )
})

// Reusable contents (Quire's addition): made, edited and removed in a change request like pages.
const ReusableTitle = Type.String({ minLength: 1, maxLength: 255 })
const ReusableRef = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'A reusable content id, or the ref it was inserted with earlier in the batch'
})
export const InsertReusableContentChange = Type.Object({
  operation: Type.Literal('insert_reusable_content'),
  title: ReusableTitle,
  document: BatchDocument,
  ref: Type.Optional(Type.String({ minLength: 1, maxLength: 100 }))
})
export const UpdateReusableContentChange = Type.Object({
  operation: Type.Literal('update_reusable_content'),
  reusableContent: ReusableRef,
  title: Type.Optional(ReusableTitle),
  document: Type.Optional(BatchDocument)
})
export const DeleteReusableContentChange = Type.Object({ operation: Type.Literal('delete_reusable_content'), reusableContent: ReusableRef })

/** The operations that change reusable contents (a connected workspace sends them only while its server answers). */
export const REUSABLE_CONTENT_OPERATIONS = ['insert_reusable_content', 'update_reusable_content', 'delete_reusable_content'] as const

/** A change as sent: its document markdown or a document model. */
export type ContentChangeWire =
  | Type.Static<typeof InsertPageChange>
  | Type.Static<typeof UpdatePageChange>
  | Type.Static<typeof DeletePageChange>
  | Type.Static<typeof RevertPageChange>
  | Type.Static<typeof InsertFilesChange>
  | Type.Static<typeof InsertReusableContentChange>
  | Type.Static<typeof UpdateReusableContentChange>
  | Type.Static<typeof DeleteReusableContentChange>

type MarkdownDocument<T> = T extends { document: unknown }
  ? Omit<T, 'document'> & { document: Type.Static<typeof Document> }
  : T extends { document?: unknown }
    ? Omit<T, 'document'> & { document?: Type.Static<typeof Document> }
    : T

export const ContentChange = Type.Unsafe<ContentChangeWire>({
  type: 'object',
  required: ['operation'],
  discriminator: { propertyName: 'operation' },
  oneOf: [
    InsertPageChange,
    UpdatePageChange,
    DeletePageChange,
    RevertPageChange,
    InsertFilesChange,
    InsertReusableContentChange,
    UpdateReusableContentChange,
    DeleteReusableContentChange
  ]
})
/** A change with its document as markdown (a model is written as markdown before the batch is applied). */
export type ContentChangeInput = ContentChangeWire extends infer C ? (C extends unknown ? MarkdownDocument<C> : never) : never

export const ContentBatchSchema = Type.Object({ changes: Type.Array(ContentChange, { minItems: 1, maxItems: 50 }) })
