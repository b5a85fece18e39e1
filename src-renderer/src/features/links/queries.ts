import { infiniteQueryOptions } from '@tanstack/react-query'
import { api, withQuery } from '../../api/client.ts'
import type { ContentLink, Page } from '../../api/types.ts'
import type { LinkFilter } from './links.ts'

/** `GET …/links`: the page of links and `stats` over every link of the space, whatever the filter. */
export interface LinkList extends Page<ContentLink> {
  stats: { total: number; broken: { total: number; changeRequest: number } }
}

/** Links per request: a screen's worth and more, the next ones as the list scrolls. */
export const LINKS_PAGE = 100

/** The links of the space's main content (`GET /v1/spaces/{id}/links`), one status or all. */
export const linksQuery = (spaceId: string, status?: Exclude<LinkFilter, 'all'>) =>
  infiniteQueryOptions({
    queryKey: ['spaces', spaceId, 'links', { status: status ?? 'all' }],
    queryFn: ({ pageParam }) =>
      api.request<LinkList>('GET', withQuery(`/v1/spaces/${spaceId}/links`, { status, limit: LINKS_PAGE, page: pageParam })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page
  })
