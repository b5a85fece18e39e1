import Type from 'typebox'
import { ListOf, PageQuery, StringEnum } from './common'

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const
export const LINK_RELATIONS = ['link', 'image'] as const

export const LinksQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(StringEnum(LINK_STATUSES, { description: 'Only links of this status' }))
})
export const BacklinksQuery = Type.Object({ ...PageQuery })

/** What a link points at: a page (by id, or by the path it names when broken), a file, or a URL. */
export const ContentReferenceSchema = Type.Object({
  kind: StringEnum(['page', 'file', 'url'] as const),
  page: Type.Optional(Type.String()),
  /** Broken page links: the page path the link names. */
  path: Type.Optional(Type.String()),
  file: Type.Optional(Type.String()),
  /** Broken file links by name. */
  name: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  space: Type.Optional(Type.String()),
  organization: Type.Optional(Type.String())
})

/** A page holding a link (or linking a file), in the version of the content it was found in. */
export const LocationReferenceSchema = Type.Object({
  kind: StringEnum(['page'] as const),
  page: Type.String(),
  space: Type.String(),
  organization: Type.String(),
  versionContext: Type.Object({
    revision: Type.String(),
    changeRequest: Type.Optional(Type.String())
  })
})

export const ContentLinkSchema = Type.Object({
  status: StringEnum(LINK_STATUSES),
  relation: StringEnum(LINK_RELATIONS),
  /** The link exactly as written in the page's markdown. */
  href: Type.String(),
  targetReference: ContentReferenceSchema,
  /** The page holding the link. */
  locationReferences: Type.Array(LocationReferenceSchema)
})
export type ContentLink = Type.Static<typeof ContentLinkSchema>

export const LinkStatsSchema = Type.Object({
  total: Type.Number(),
  broken: Type.Object({
    total: Type.Number(),
    /** Broken links a change request adds (broken in its content, not in the content it is based on); 0 on primary content. */
    changeRequest: Type.Number()
  })
})

/** `stats` count every link of the list's scope (space or page), whatever the `status` filter. */
export const ContentLinkList = ListOf(ContentLinkSchema, { stats: LinkStatsSchema })

/** A page linking a file: the same reference as a link's location. */
export const BacklinkSchema = LocationReferenceSchema
export const BacklinkList = ListOf(BacklinkSchema)

export const ChangeRequestLinksQuery = Type.Object({
  ...LinksQuery.properties,
  introduced: Type.Optional(Type.Boolean({ description: 'Only links the change request breaks (true), or only the others (false)' }))
})

/**
 * A link of the content as merging the change request would leave it. `introduced`: the change request breaks it
 * (broken after the merge, not broken on the same page of the primary content now).
 */
export const ChangeRequestLinkSchema = Type.Object({ ...ContentLinkSchema.properties, introduced: Type.Boolean() })
export type ChangeRequestLink = Type.Static<typeof ChangeRequestLinkSchema>

/** `stats.broken.changeRequest` counts the introduced links. */
export const ChangeRequestLinkList = ListOf(ChangeRequestLinkSchema, { stats: LinkStatsSchema })
