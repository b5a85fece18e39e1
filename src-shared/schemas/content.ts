import Type from 'typebox'
import { ChangeRequestSchema } from './changeRequests'
import { DateTime, ListOf, PageQuery, StringEnum } from './common'

export const PAGE_TYPES = ['document', 'group', 'link'] as const
export const FORMATS = ['document', 'markdown'] as const

const Git = Type.Object({ oid: Type.Optional(Type.String()), path: Type.Optional(Type.String()) })
const Free = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true })

/** A document page's layout: which parts of the page show, and how wide it is. */
export const PageLayoutSchema = Type.Object({
  width: StringEnum(['default', 'wide'] as const),
  cover: Type.Boolean(),
  coverSize: StringEnum(['hero', 'full'] as const),
  coverMask: StringEnum(['none'] as const),
  title: Type.Boolean(),
  description: Type.Boolean(),
  tableOfContents: Type.Boolean(),
  outline: Type.Boolean(),
  pagination: Type.Boolean(),
  metadata: Type.Boolean(),
  tags: Type.Boolean(),
  actions: Type.Boolean(),
  anchors: Type.Boolean()
})
/** A document page's cover: the file its front matter names, and its vertical offset. */
export const PageCoverSchema = Type.Object({ ref: Type.Object({ kind: Type.Literal('file'), file: Type.String() }), yPos: Type.Number() })

/** A page and, recursively, its children (shared schema `Page`, referenced by `$ref`). */
export const PageSchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    emoji: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String()),
    createdAt: DateTime,
    updatedAt: DateTime,
    markdown: Type.Optional(Type.String()),
    document: Type.Optional(Free),
    type: StringEnum(PAGE_TYPES),
    kind: StringEnum(['sheet', 'group', 'link'] as const, { description: 'The page type by its older name (`sheet` for a document)' }),
    urls: Type.Object({ app: Type.String() }),
    slug: Type.String(),
    path: Type.String(),
    description: Type.Optional(Type.String()),
    documentId: Type.Optional(Type.String()),
    href: Type.Optional(Type.String()),
    pages: Type.Array(Type.Unsafe<unknown>({ $ref: 'Page#' })),
    git: Type.Optional(Git),
    layout: Type.Optional(PageLayoutSchema),
    cover: Type.Optional(PageCoverSchema),
    hidden: Type.Boolean(),
    noIndex: Type.Optional(Type.Boolean()),
    noRobotsIndex: Type.Optional(Type.Boolean()),
    tags: Type.Optional(
      Type.Array(Type.Object({ tag: Type.Object({ kind: Type.Literal('tag'), tag: Type.String() }) }), {
        description: "The page's tags (document pages; Quire has none)"
      })
    )
  },
  { $id: 'Page' }
)
export type Page = Omit<Type.Static<typeof PageSchema>, 'pages'> & { pages: Page[] }
export const PageRef = Type.Unsafe<Page>({ $ref: 'Page#' })

export const FileSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  downloadURL: Type.String(),
  size: Type.Number(),
  dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() })),
  git: Type.Optional(Git)
})
export type File = Type.Static<typeof FileSchema>

export const RevisionSchema = Type.Object({
  object: Type.Literal('revision'),
  id: Type.String(),
  parents: Type.Array(Type.String()),
  pages: Type.Array(PageRef),
  files: Type.Array(FileSchema),
  reusableContents: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      document: Type.Optional(
        Type.String({ description: 'Id of the document holding the text (the hosted service sends it; Quire sends `markdown`)' })
      ),
      markdown: Type.Optional(Type.String({ description: "The text as stored (Quire's addition), as a content batch writes it" })),
      path: Type.Optional(Type.String({ description: "Its Git path, as `{% include %}` names it (Quire's addition)" })),
      git: Type.Optional(Type.Object({ oid: Type.String(), path: Type.String() }, { description: 'The Git blob it came from' }))
    })
  ),
  tags: Type.Array(Type.Object({ slug: Type.String(), label: Type.String() }), {
    description: 'Tags defined in the revision (Quire has none)'
  }),
  createdAt: DateTime,
  git: Type.Optional(
    Type.Object({
      oid: Type.Optional(Type.String()),
      message: Type.Optional(Type.String()),
      createdByService: Type.Optional(Type.Boolean()),
      url: Type.Optional(Type.String()),
      ref: Type.Optional(Type.String())
    })
  ),
  urls: Type.Object({ app: Type.String(), published: Type.Optional(Type.String()), public: Type.Optional(Type.String()) }),
  type: Type.String(),
  /** A merge revision: the change request it merged. */
  mergedFrom: Type.Optional(ChangeRequestSchema)
})
export type Revision = Type.Static<typeof RevisionSchema>

/** `metadata=false` omits mutable git metadata; `computed=false` skips computed content. */
export const ContentQuery = Type.Object({
  metadata: Type.Optional(Type.Boolean({ default: true })),
  computed: Type.Optional(Type.Boolean({ default: true }))
})
export const PageQuerySchema = Type.Object({
  format: Type.Optional(StringEnum(FORMATS)),
  metadata: Type.Optional(Type.Boolean({ default: true })),
  computed: Type.Optional(Type.Boolean({ default: true }))
})
export const FilesQuery = Type.Object({ ...PageQuery, metadata: Type.Optional(Type.Boolean()), computed: Type.Optional(Type.Boolean()) })
export const PagesResponse = Type.Object({ pages: Type.Array(PageRef) })
export const FileList = ListOf(FileSchema)

export const ContentParams = Type.Object({ spaceId: Type.String({ maxLength: 100 }) })
export const PageParams = Type.Object({ spaceId: Type.String({ maxLength: 100 }), pageId: Type.String({ maxLength: 100 }) })
export const FileParams = Type.Object({ spaceId: Type.String({ maxLength: 100 }), fileId: Type.String({ maxLength: 100 }) })

/** `compat=false` on a content batch answers the change request with the pages the batch affected (ContentUpdate). */
export const ContentBatchQuery = Type.Object({ compat: Type.Optional(Type.Boolean({ default: true })) })
const UpdatedPageRef = Type.Object({
  object: Type.Literal('page'),
  id: Type.String(),
  urls: Type.Object({ location: Type.String({ description: 'The page in the change request, with its document as stored' }) })
})
export const ContentUpdateSchema = Type.Object({
  changeRequest: ChangeRequestSchema,
  changes: Type.Array(
    Type.Union([
      Type.Object({ object: Type.Literal('created_page'), ref: Type.Optional(Type.String()), page: UpdatedPageRef }),
      Type.Object({ object: Type.Literal('updated_page'), page: UpdatedPageRef }),
      Type.Object({ object: Type.Literal('deleted_page'), page: Type.String({ description: 'The removed page’s id' }) })
    ]),
    { description: 'One entry per page the batch named, in the order it first named them' }
  ),
  insertedFiles: Type.Array(FileSchema)
})
export type ContentUpdate = Type.Static<typeof ContentUpdateSchema>
