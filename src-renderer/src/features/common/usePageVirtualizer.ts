import { useEffect, useEffectEvent, useLayoutEffect, useState } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'

/**
 * A virtualizer for a long list that scrolls with the page (the shell's `[data-scroll-root]`), so screens do
 * not nest scrollbars. Attach `listRef` to the list element; row `start`s include the list's offset in the
 * page, so place a row at `start - scrollMargin`.
 */
export function usePageVirtualizer({
  count,
  rowHeight,
  getItemKey,
  overscan = 10
}: {
  count: number
  rowHeight: number
  getItemKey?: (index: number) => string | number
  overscan?: number
}) {
  const [list, listRef] = useState<HTMLElement | null>(null)
  const [scrollElement, setScrollElement] = useState<HTMLElement | null>(null)
  const [scrollMargin, setScrollMargin] = useState(0)
  useLayoutEffect(() => {
    const root = list?.closest<HTMLElement>('[data-scroll-root]') ?? null
    setScrollElement(root)
    if (!list || !root) return
    const measure = () => setScrollMargin(list.getBoundingClientRect().top - root.getBoundingClientRect().top + root.scrollTop)
    measure()
    // Content above the list (filters, banners) can change height; keep the offset right.
    const observer = new ResizeObserver(measure)
    observer.observe(root.firstElementChild ?? root)
    return () => observer.disconnect()
  }, [list])

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollElement,
    estimateSize: () => rowHeight,
    overscan,
    scrollMargin,
    getItemKey
  })
  return { listRef, list, virtualizer, scrollMargin }
}

/** What an infinite list query offers for loading on (TanStack Query's `useInfiniteQuery` result). */
interface MorePages {
  hasNextPage: boolean
  isFetchingNextPage: boolean
  /** The last request for the next page failed: it is asked again only by the user (NextPageStatus's retry). */
  isFetchNextPageError?: boolean
  fetchNextPage(): unknown
}

/**
 * Asks for the next page of an infinite list when its last loaded rows come into view: `lastIndex` is the last
 * rendered row (the virtualizer's), `loaded` how many rows are loaded, `ahead` how early to ask. After a failed
 * request it waits for the user to retry, instead of asking again at once, over and over.
 */
export function useLoadMoreNearEnd(lastIndex: number | undefined, loaded: number, more: MorePages, ahead = 20): void {
  // The query's result object is new on every render: the effect follows its flags, and asks through the latest one.
  const fetchNextPage = useEffectEvent(() => void more.fetchNextPage())
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError } = more
  useEffect(() => {
    if (lastIndex !== undefined && lastIndex >= loaded - ahead && hasNextPage && !isFetchingNextPage && !isFetchNextPageError)
      fetchNextPage()
  }, [lastIndex, loaded, ahead, hasNextPage, isFetchingNextPage, isFetchNextPageError])
}
