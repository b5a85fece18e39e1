import { useEffect, useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import { spaceQuery } from '../content/queries.ts'
import { useCommentThreads } from './CommentThreads.tsx'
import { listFilters } from './filters.ts'
import { usePassageUi, type PassageComment } from './passageStore.ts'
import { isPassage } from './passages.ts'

/**
 * Hands the page's open passage comments to its editor (`passageComments.ts`), from the list the comments panel
 * shows by default (same query, so one request serves both), whether or not the panel is open, and whether the
 * caller may comment there at all.
 */
export function usePassageFeed(spaceId: string, pageId: string | undefined, changeRequest: number | undefined) {
  const filters = listFilters({
    status: 'open',
    page: pageId,
    changeRequest: changeRequest === undefined ? undefined : String(changeRequest)
  })
  const { comments } = useCommentThreads(spaceId, filters, !!pageId)
  const passages = useMemo(
    () =>
      comments.flatMap<PassageComment>((c) =>
        isPassage(c.target.node) && c.target.page?.id === pageId ? [{ id: c.id, node: c.target.node }] : []
      ),
    [comments, pageId]
  )
  const setComments = usePassageUi((s) => s.setComments)
  useEffect(() => {
    if (pageId) setComments(pageId, passages)
  }, [pageId, passages, setComments])
  // Commenting needs the space's `comment` permission (as the panel's composer does).
  const canComment = useQuery(spaceQuery(spaceId)).data?.permissions.comment !== false
  const setCommentable = usePassageUi((s) => s.setCommentable)
  useEffect(() => {
    if (pageId) setCommentable(pageId, canComment)
  }, [pageId, canComment, setCommentable])
}
