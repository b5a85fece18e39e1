import { queryOptions } from '@tanstack/react-query'
import { fetchAll } from '../../api/lists.ts'

/** A page of the space that links or shows a file (`…/files/{id}/backlinks`). */
export interface Backlink {
  kind: 'page'
  page: string
  space: string
}

/** The pages of the space's main content using a file; asked for when the user opens a file's "Used in". */
export const backlinksQuery = (spaceId: string, fileId: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'content', 'files', fileId, 'backlinks'],
    queryFn: () => fetchAll<Backlink>(`/v1/spaces/${spaceId}/content/files/${fileId}/backlinks`)
  })
