import Type from 'typebox'
import { ListOf, PageQuery } from './common'

/** Space and organization search: `query` is required, 1..512 characters. */
export const SearchQuerySchema = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 512, description: 'Words to find; the last one also matches as a prefix' }),
  ...PageQuery
})

/** Relevance (bm25 of the best match), higher is better, unbounded. */
const Score = Type.Number({ minimum: 0, description: 'Relevance: higher is better; unbounded' })

export const SearchSectionSchema = Type.Object({
  /** Anchor id of the heading; empty for the text before the page's first heading. */
  id: Type.String(),
  title: Type.String(),
  /** The page's path, then `#` and the section id when it has one. */
  path: Type.String(),
  /** The section's text around the first matching word (at most ~240 characters, `…` where cut). */
  body: Type.String(),
  score: Score,
  urls: Type.Object({ app: Type.String() })
})
export type SearchSection = Type.Static<typeof SearchSectionSchema>

export const SearchPageSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  /** The page's description; empty when it has none. */
  description: Type.String(),
  path: Type.String(),
  score: Score,
  rank: Type.Integer({
    minimum: 1,
    description: 'One-based position among all matching pages (of every readable space, for organization search), across list pages'
  }),
  /** The page's ancestors, top level first. */
  ancestors: Type.Array(Type.Object({ title: Type.String() })),
  /** The page's best matching sections (at most 5), best first. */
  sections: Type.Array(SearchSectionSchema),
  urls: Type.Object({ app: Type.String() })
})
export type SearchPage = Type.Static<typeof SearchPageSchema>

export const OrgSearchSpaceSchema = Type.Object({
  type: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  score: Score,
  /** The space's best matching pages (at most 10), best first. */
  pages: Type.Array(SearchPageSchema)
})
export type OrgSearchSpace = Type.Static<typeof OrgSearchSpaceSchema>

/** Pages best first; `count` is the number of matching pages. */
export const SpaceSearchList = ListOf(SearchPageSchema)
/** Spaces best first; `count` is the number of spaces with a matching page. */
export const OrgSearchList = ListOf(OrgSearchSpaceSchema)
