import Type from 'typebox'
import { DateTime, ListOf, PageQuery, StringEnum, UserSchema } from './common'
import { COMMENT_MARKDOWN_MAX, CommentSchema } from './comments'
import { FORMATS } from './content'

export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const
export type ReviewStatus = (typeof REVIEW_STATUSES)[number]

export const ChangeRequestReviewSchema = Type.Object({
  object: Type.Literal('change-request-review'),
  id: Type.String(),
  revision: Type.String({ description: 'The change request revision reviewed' }),
  reviewer: UserSchema,
  requestedBy: Type.Optional(UserSchema),
  status: StringEnum(REVIEW_STATUSES),
  outdated: Type.Boolean({ description: 'The change request changed since, or a newer review or request of the same reviewer came' }),
  /** The comment posted with the review, for callers who may read comments (the comment role). */
  comment: Type.Optional(CommentSchema),
  createdAt: DateTime,
  updatedAt: DateTime,
  urls: Type.Object({ location: Type.String() })
})
export type ChangeRequestReview = Type.Static<typeof ChangeRequestReviewSchema>

export const ReviewParams = Type.Object({
  spaceId: Type.String({ maxLength: 100 }),
  changeRequestId: Type.String({ maxLength: 100 }),
  reviewId: Type.String({ maxLength: 100 })
})
/** `format` of a review's comment body: `{markdown}` (default) or `{document}`. */
export const ReviewQuery = Type.Object({ format: Type.Optional(StringEnum(FORMATS)) })
export const ReviewListQuery = Type.Object({
  ...PageQuery,
  format: Type.Optional(StringEnum(FORMATS)),
  outdated: Type.Optional(Type.Boolean({ description: 'Only outdated reviews (true) or only current ones (false)' }))
})
export const ReviewList = ListOf(ChangeRequestReviewSchema)
export const ReviewCreateSchema = Type.Object({
  status: StringEnum(REVIEW_STATUSES),
  comment: Type.Optional(
    Type.Object(
      { markdown: Type.String({ maxLength: COMMENT_MARKDOWN_MAX }) },
      { description: 'Posted as a comment on the change request with the review' }
    )
  )
})

export const RequestedReviewerSchema = Type.Object({
  object: Type.Literal('change-request-requested-reviewer'),
  kind: Type.Literal('user'),
  user: UserSchema,
  revision: Type.String({ description: 'The change request revision when the review was asked for' }),
  requestedBy: UserSchema,
  createdAt: DateTime
})
export type RequestedReviewer = Type.Static<typeof RequestedReviewerSchema>

export const RequestedReviewerParams = Type.Object({
  spaceId: Type.String({ maxLength: 100 }),
  changeRequestId: Type.String({ maxLength: 100 }),
  userId: Type.String({ maxLength: 100 })
})
export const RequestedReviewerList = ListOf(RequestedReviewerSchema)
export const RequestReviewersSchema = Type.Object({
  users: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 }),
  subject: Type.Optional(Type.String({ maxLength: 100 }))
})
export const RequestReviewersResult = Type.Object({ users: Type.Array(RequestedReviewerSchema) })

/** Rules Quire evaluates (the published list also has agent reviews, descriptions and custom expressions). */
export const SIMPLE_MERGE_RULES = [
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_author_to_merge'
] as const
export const USER_MERGE_RULES = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'] as const
const UserIds = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100, description: 'User ids' })

export const MergeRuleSchema = Type.Union([
  Type.Object({ rule: StringEnum(USER_MERGE_RULES), users: UserIds }),
  Type.Object({ rule: StringEnum(SIMPLE_MERGE_RULES) })
])
export type MergeRule = Type.Static<typeof MergeRuleSchema>

const RulesConfig = Type.Object({ type: Type.Literal('rules'), rules: Type.Array(MergeRuleSchema, { maxItems: 20 }) })
const NoneConfig = Type.Object({ type: Type.Literal('none') })
const InheritConfig = Type.Object({ type: Type.Literal('inherit') })
/** An organization's merge rules: its own rules, or none (merge without review). */
export const OrgMergeRulesSchema = Type.Union([RulesConfig, NoneConfig])
/** A space's merge rules: the organization's (inherit), its own, or none. */
export const SpaceMergeRulesSchema = Type.Union([InheritConfig, RulesConfig, NoneConfig])
export type OrgMergeRules = Type.Static<typeof OrgMergeRulesSchema>
export type SpaceMergeRules = Type.Static<typeof SpaceMergeRulesSchema>

/** `GET …/merge-rules` (Quire's addition): the rules a merge of this change request meets now, for the caller. */
export const MergeStatusSchema = Type.Object({
  source: StringEnum(['space', 'organization'] as const, { description: 'Whose configuration applies' }),
  rules: Type.Array(MergeRuleSchema),
  unmet: Type.Array(Type.Object({ rule: Type.String(), message: Type.String() })),
  canBypass: Type.Boolean({ description: 'The caller may merge past unmet rules (`allow_bypass`)' })
})
export type MergeStatus = Type.Static<typeof MergeStatusSchema>

/** `POST …/merge` body (Quire's addition; optional). */
export const MergeRequestSchema = Type.Object({
  bypassMergeRules: Type.Optional(Type.Boolean({ description: 'Merge past unmet merge rules (only users the `allow_bypass` rule names)' }))
})
