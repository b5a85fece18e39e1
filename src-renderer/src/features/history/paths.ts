// API paths of a space's history. Pure (tested under Node).
import { withQuery } from '../../api/paths.ts'

const revisions = (spaceId: string) => `/v1/spaces/${encodeURIComponent(spaceId)}/revisions`
const revision = (spaceId: string, revisionId: string) => `${revisions(spaceId)}/${encodeURIComponent(revisionId)}`

export const historyPaths = {
  revisions,
  revision,
  pages: (spaceId: string, revisionId: string) => `${revision(spaceId, revisionId)}/pages`,
  page: (spaceId: string, revisionId: string, pageId: string, format?: 'markdown' | 'document') =>
    withQuery(`${revision(spaceId, revisionId)}/page/${encodeURIComponent(pageId)}`, { format }),
  /** A page by its path (`guide/install`): sent as one percent-encoded segment, as the operation documents it. */
  pageByPath: (spaceId: string, revisionId: string, pagePath: string, format?: 'markdown' | 'document') =>
    withQuery(`${revision(spaceId, revisionId)}/path/${encodeURIComponent(pagePath)}`, { format }),
  files: (spaceId: string, revisionId: string) => `${revision(spaceId, revisionId)}/files`,
  file: (spaceId: string, revisionId: string, fileId: string) => `${revision(spaceId, revisionId)}/files/${encodeURIComponent(fileId)}`,
  changes: (spaceId: string, revisionId: string, options: { against?: string; limit?: number } = {}) =>
    withQuery(`${revision(spaceId, revisionId)}/changes`, options),
  restore: (spaceId: string, revisionId: string) => `${revision(spaceId, revisionId)}/restore`,
  summary: (spaceId: string, revisionId: string) => `${revision(spaceId, revisionId)}/summary`
}
