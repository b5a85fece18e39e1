import { useMemo } from 'react'
import { Badge, Group, Stack, Text } from '@mantine/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../api/client.ts'
import type { ChangeRequest, Revision } from '../../api/types.ts'
import { RouterAnchor } from '../common/links.tsx'
import { reusableContentListQuery } from './queries.ts'
import { reusableChanges } from './reusableChanges.ts'

const COLORS = { added: 'teal', edited: 'blue', removed: 'red' } as const

/** A revision's reusable contents with their text (revisions never change: read once). */
const revisionContentsQuery = (spaceId: string, revisionId: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'revisions', revisionId, 'reusable-contents'],
    queryFn: () =>
      api
        .request<Revision>('GET', `/v1/spaces/${spaceId}/revisions/${revisionId}`)
        .then((r) => r.reusableContents.map((c) => ({ id: c.id, title: c.title, markdown: c.markdown ?? '' }))),
    staleTime: Infinity
  })

/**
 * The reusable contents a change request adds, edits or removes (its content against its merge base), each a link
 * to the Reusable tab showing the change request's version. Nothing when it changes none (or the base cannot be read).
 */
export function ReusableChanges({ spaceId, cr }: { spaceId: string; cr: ChangeRequest }) {
  const base = useQuery(revisionContentsQuery(spaceId, cr.revisionMergedAncestor ?? cr.revisionInitial)).data
  const head = useQuery(reusableContentListQuery({ spaceId, changeRequest: cr.number })).data
  const changes = useMemo(() => (base && head ? reusableChanges(base, head) : []), [base, head])
  if (!changes.length) return null
  return (
    <Stack gap={6} data-testid="cr-reusable-changes">
      <Text fw={600}>Reusable content</Text>
      {changes.map((c) => (
        <Group key={c.id} gap="xs" wrap="nowrap">
          <Badge size="sm" variant="light" color={COLORS[c.kind]}>
            {c.kind}
          </Badge>
          <RouterAnchor
            to="/spaces/$spaceId/reusable-contents"
            params={{ spaceId }}
            search={{ cr: cr.number }}
            size="sm"
            data-testid="cr-reusable-change"
          >
            {c.title}
          </RouterAnchor>
          {c.renamedFrom && (
            <Text size="xs" c="dimmed">
              was “{c.renamedFrom}”
            </Text>
          )}
        </Group>
      ))}
    </Stack>
  )
}
