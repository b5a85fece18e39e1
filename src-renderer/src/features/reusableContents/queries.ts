import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import type { ContentChangeInput, Revision } from '../../api/types.ts'
import { applyChanges, scopeKey, scopePath, type ContentScope } from '../pages/queries.ts'

/** A reusable content as the screen edits it: its text as stored, and the Git path includes name it by. */
export interface ReusableContent {
  id: string
  title: string
  markdown: string
  path: string | undefined
}

/** The reusable contents of a scope's revision (they come with the revision: `GET …/content`). */
export const reusableContentListQuery = (scope: ContentScope) =>
  queryOptions({
    queryKey: [...scopeKey(scope), 'content', 'reusable-contents', 'list'],
    queryFn: () =>
      api.request<Revision>('GET', `${scopePath(scope)}/content`).then((r) =>
        r.reusableContents.map<ReusableContent>((c) => ({
          id: c.id,
          title: c.title,
          markdown: c.markdown ?? '',
          path: c.path ?? c.git?.path
        }))
      )
  })

/** Applies reusable content changes to a change request and reads its content again (pages include them). */
export async function changeReusableContents(
  client: QueryClient,
  spaceId: string,
  number: number,
  changes: ContentChangeInput[]
): Promise<void> {
  await applyChanges(client, spaceId, number, changes)
  await client.invalidateQueries({ queryKey: [...scopeKey({ spaceId, changeRequest: number }), 'content'] })
}
