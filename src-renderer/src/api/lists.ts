import { api, withQuery } from './client.ts'
import type { Page } from './types.ts'

/** The largest page the API serves; fewer round trips for lists we need whole. */
export const MAX_PAGE = 1000

/** One page of a list; `page` is the opaque cursor from the previous page's `next.page`. */
export function fetchPage<T>(
  path: string,
  query: Record<string, string | number | boolean | undefined> = {},
  page?: string
): Promise<Page<T>> {
  return api.request<Page<T>>('GET', withQuery(path, { ...query, page }))
}

/** Every item of a list: follows `next.page` until the API says there is no more. */
export async function fetchAll<T>(path: string, query: Record<string, string | number | boolean | undefined> = {}): Promise<T[]> {
  const items: T[] = []
  let page: string | undefined
  do {
    const res = await fetchPage<T>(path, { limit: MAX_PAGE, ...query }, page)
    items.push(...res.items)
    page = res.next?.page
  } while (page)
  return items
}
