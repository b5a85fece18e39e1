import Type from 'typebox'
import { DateTime, ListOf, PageQuery, patterned, StringEnum, UserSchema } from './common'
import { FORMATS } from './content'

export const COMMENT_STATUS_FILTERS = ['all', 'open', 'resolved'] as const
export type CommentStatusFilter = (typeof COMMENT_STATUS_FILTERS)[number]

/** Longest comment or reply body accepted, in characters of markdown. */
export const COMMENT_MARKDOWN_MAX = 100_000
/** Reactions one request may add (and, separately, remove). */
export const REACTIONS_PER_REQUEST_MAX = 20

const Free = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true })
const Format = StringEnum(FORMATS)

/** `{markdown}` by default, `{document}` (the published document model) with `format=document`. */
const CommentBody = Type.Object({ markdown: Type.Optional(Type.String()), document: Type.Optional(Free) })

const ReactionSchema = Type.Object({
  emoji: Type.String(),
  count: Type.Number(),
  users: Type.Array(Type.Object({ user: UserSchema, reactedAt: DateTime }))
})

const ReplierSchema = Type.Object({
  user: UserSchema,
  count: Type.Integer({ description: 'Their replies to the comment' }),
  updatedAt: Type.String({ format: 'date-time', description: 'When they last replied or edited a reply' })
})

const CommentPermissions = Type.Object({ view: Type.Boolean(), edit: Type.Boolean(), reply: Type.Boolean(), delete: Type.Boolean() })

export const CommentTargetSchema = Type.Object({
  page: Type.Optional(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      emoji: Type.Optional(Type.String()),
      icon: Type.Optional(Type.String()),
      createdAt: DateTime,
      updatedAt: DateTime,
      path: Type.String(),
      outdated: Type.Boolean()
    })
  ),
  node: Type.Optional(Type.Object({ id: Type.String(), preview: Type.Optional(Type.String()) })),
  changeRequest: Type.Optional(Type.String({ description: 'Id of the change request the comment is on' })),
  review: Type.Optional(Type.String({ description: 'Id of the review the comment was posted with' })),
  space: Type.String(),
  revision: Type.Optional(Type.String({ description: 'Revision of the content the comment was posted on' }))
})

export const CommentSchema = Type.Object({
  object: Type.Literal('comment'),
  id: Type.String(),
  postedBy: Type.Optional(UserSchema),
  postedAt: DateTime,
  editedAt: Type.Optional(DateTime),
  reactions: Type.Array(ReactionSchema),
  replies: Type.Number(),
  repliers: Type.Array(ReplierSchema, { description: 'Who replied: each user once, in the order of their first reply' }),
  body: CommentBody,
  target: CommentTargetSchema,
  urls: Type.Object({ location: Type.String() }),
  permissions: CommentPermissions,
  status: StringEnum(['open', 'resolved'] as const),
  resolvedAt: Type.Optional(DateTime),
  resolvedBy: Type.Optional(UserSchema)
})
export type Comment = Type.Static<typeof CommentSchema>

export const CommentReplySchema = Type.Object({
  object: Type.Literal('comment-reply'),
  id: Type.String(),
  postedBy: Type.Optional(UserSchema),
  postedAt: DateTime,
  editedAt: Type.Optional(DateTime),
  reactions: Type.Array(ReactionSchema),
  body: CommentBody,
  urls: Type.Object({ location: Type.String() }),
  permissions: CommentPermissions
})
export type CommentReply = Type.Static<typeof CommentReplySchema>
export type CommentPermissionSet = Type.Static<typeof CommentPermissions>
export type CommentReaction = Type.Static<typeof ReactionSchema>

export const CommentList = ListOf(CommentSchema)
export const CommentReplyList = ListOf(CommentReplySchema)

// --- requests -----------------------------------------------------------------------------------------------

const IdRef = Type.String({ minLength: 1, maxLength: 100 })

export const CommentParams = Type.Object({ spaceId: Type.String({ maxLength: 100 }), commentId: Type.String({ maxLength: 100 }) })
export const CommentReplyParams = Type.Object({
  spaceId: Type.String({ maxLength: 100 }),
  commentId: Type.String({ maxLength: 100 }),
  commentReplyId: Type.String({ maxLength: 100 })
})

export const CommentListQuery = Type.Object({
  ...PageQuery,
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
  status: Type.Optional(StringEnum(COMMENT_STATUS_FILTERS, { default: 'all' })),
  format: Type.Optional(Format),
  targetPage: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only comments on this page id' })),
  authors: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 100,
      description: 'Only comments posted by these user ids (repeat the parameter)'
    })
  ),
  changeRequest: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'List the comments of this change request (id or number) instead of the primary content'
    })
  )
})
export const CommentFormatQuery = Type.Object({ format: Type.Optional(Format) })
export const CommentReplyListQuery = Type.Object({ ...PageQuery, format: Type.Optional(Format) })

/** `{markdown}`, or `{}` for an empty body. */
export const CommentBodyInput = Type.Object({ markdown: Type.Optional(Type.String({ maxLength: COMMENT_MARKDOWN_MAX })) })

/**
 * An emoji: 1..16 code points (ZWJ sequences and flags included), at least one of them pictographic, no spaces
 * or control characters.
 */
const Emoji = Type.String({
  minLength: 1,
  maxLength: 16,
  ...patterned('^(?=.*(?:\\p{Extended_Pictographic}|\\p{Regional_Indicator}|\\u20E3))[^\\s\\p{Cc}]+$', 'one emoji, with no spaces')
})
const Reactions = Type.Array(Emoji, { maxItems: REACTIONS_PER_REQUEST_MAX })

const NodeId = Type.String({ minLength: 1, maxLength: 200 })

export const CommentCreateSchema = Type.Object({
  body: CommentBodyInput,
  page: Type.Optional(IdRef),
  node: Type.Optional(
    Type.Union([NodeId, Type.Object({ id: NodeId, preview: Type.Optional(Type.String({ maxLength: 1000 })) })], {
      description: 'A block of the page: its id, or `{id, preview}`'
    })
  ),
  changeRequest: Type.Optional(
    Type.Union([IdRef, Type.Integer({ minimum: 1 })], { description: 'Comment on this change request (id or number)' })
  )
})

export const CommentUpdateSchema = Type.Object({
  resolved: Type.Optional(Type.Boolean()),
  body: Type.Optional(CommentBodyInput),
  addedReactions: Type.Optional(Reactions),
  removedReactions: Type.Optional(Reactions)
})

export const CommentReplyCreateSchema = Type.Object({ body: CommentBodyInput })
export const CommentReplyUpdateSchema = Type.Object({
  body: Type.Optional(CommentBodyInput),
  addedReactions: Type.Optional(Reactions),
  removedReactions: Type.Optional(Reactions)
})
