import { forwardRef, type ReactNode } from 'react'
import { Avatar, Badge, Button, Group, type ButtonProps, Skeleton, Stack, Text, Title } from '@mantine/core'
import { modals } from '@mantine/modals'
import { IconArrowLeft, IconLock } from '@tabler/icons-react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { createLink, useNavigate, type LinkComponent } from '@tanstack/react-router'
import { notifySuccess } from '../../app/notify.ts'
import { formatRelative, initials, plural } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { spaceQuery } from '../content/queries.ts'
import { exactTime, revisionTitle, revisionTypeLabel } from './history.ts'
import { revisionSummaryQuery, useRestoreRevision } from './queries.ts'
import classes from './History.module.css'

const ButtonAnchor = forwardRef<
  HTMLAnchorElement,
  ButtonProps & { href?: string; children?: ReactNode; 'aria-label'?: string; 'data-testid'?: string }
>((props, ref) => <Button ref={ref} component="a" {...props} />)
const CreatedButton = createLink(ButtonAnchor)
/** A button that is a link of the router (typed `to`/`params`). */
export const RouterButton: LinkComponent<typeof ButtonAnchor> = (props) => <CreatedButton preload="intent" {...props} />

/** Back to the space's history. */
export function HistoryBackLink({ spaceId }: { spaceId: string }) {
  return (
    <RouterAnchor
      to="/spaces/$spaceId/history"
      params={{ spaceId }}
      size="sm"
      c="dimmed"
      mb="xs"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      data-testid="history-back"
    >
      <IconArrowLeft size={14} /> History
    </RouterAnchor>
  )
}

/**
 * What revision is on screen, marked read-only: what it did (the change request it merged, linked), when
 * (exact, and how long ago), who, and its type; `actions` go on the right.
 */
export function RevisionHeader({
  spaceId,
  revisionId,
  createdAt,
  label,
  actions
}: {
  spaceId: string
  revisionId: string
  createdAt?: string
  label?: string
  actions?: ReactNode
}) {
  const found = useQuery(revisionSummaryQuery(spaceId, revisionId))
  // undefined while it loads; null when it cannot be read (the header then says less).
  const summary = found.data ?? (found.isError ? null : undefined)
  const when = summary?.createdAt ?? createdAt
  const author = summary?.createdBy?.displayName
  return (
    <div className={classes.readOnly} data-testid="revision-header" data-revision={revisionId}>
      <Stack gap={4} style={{ minWidth: 0 }}>
        <Group gap={8} wrap="nowrap">
          <Badge color="orange" variant="light" leftSection={<IconLock size={12} />} style={{ flex: 'none' }} data-testid="read-only">
            Read-only
          </Badge>
          {label && (
            <Text size="sm" c="dimmed" style={{ flex: 'none' }}>
              {label}
            </Text>
          )}
          {summary === undefined ? (
            <Skeleton height={18} width={220} />
          ) : summary?.changeRequest ? (
            <RouterAnchor
              to="/spaces/$spaceId/change-requests/$number"
              params={{ spaceId, number: String(summary.changeRequest.number) }}
              fw={600}
              truncate
              data-testid="revision-heading"
            >
              {revisionTitle(summary)}
            </RouterAnchor>
          ) : (
            <Title order={4} fz="md" style={{ overflowWrap: 'anywhere' }} data-testid="revision-heading">
              {summary ? revisionTitle(summary) : 'A revision'}
            </Title>
          )}
        </Group>
        <Group gap={6} wrap="wrap">
          {when && (
            <Text size="sm" data-testid="revision-date">
              {exactTime(when)}{' '}
              <Text span c="dimmed" size="sm">
                ({formatRelative(when)})
              </Text>
            </Text>
          )}
          {author && (
            <>
              <Text size="sm" c="dimmed">
                by
              </Text>
              <Avatar size={20} radius="xl" color="initials" name={author} src={summary?.createdBy?.photoURL}>
                {initials(author)}
              </Avatar>
              <Text size="sm" data-testid="revision-author">
                {author}
              </Text>
            </>
          )}
          {summary && (
            <Badge size="sm" variant="light" color="gray">
              {revisionTypeLabel(summary.type)}
            </Badge>
          )}
        </Group>
      </Stack>
      {actions && <Group gap="xs">{actions}</Group>}
    </div>
  )
}

/** Whether the revision is the space's current content (restoring it would change nothing: the API answers 409). */
export function useIsCurrentRevision(spaceId: string, revisionId: string): boolean {
  const { data: space } = useSuspenseQuery(spaceQuery(spaceId))
  return space.revision === revisionId
}

/** What a restore button of the current revision says instead of restoring. */
export const CURRENT_REVISION_HINT = 'This revision is the space’s current content: nothing to restore'

/** Whether the caller may restore in this space (the API asks `edit` on an unlocked space). */
export function useCanRestore(spaceId: string): boolean {
  const { data: space } = useSuspenseQuery(spaceQuery(spaceId))
  return space.permissions.edit && space.editMode !== 'locked'
}

/**
 * Restores a revision, whole or some of its pages, after a confirmation: the API opens a draft change request
 * holding them, which the screen then opens for review.
 */
export function useRestoreConfirm(spaceId: string): (revisionId: string, when: string, pages?: { id: string; title: string }[]) => void {
  const restore = useRestoreRevision(spaceId)
  const navigate = useNavigate()
  return (revisionId, when, pages) =>
    modals.openConfirmModal({
      title: pages ? `Restore ${plural(pages.length, 'page')}?` : 'Restore the whole space?',
      children: (
        <Stack gap="xs">
          <Text size="sm">
            {pages ? (
              <>
                {pages.length === 1 ? `“${pages[0]!.title || 'Untitled page'}” goes` : 'These pages go'} back to their text and place as of{' '}
                {exactTime(when)}; other pages stay as they are.
              </>
            ) : (
              <>Every page and file goes back to how it was on {exactTime(when)}.</>
            )}
          </Text>
          {pages && pages.length > 1 && (
            <Text size="sm" c="dimmed" component="ul" m={0} pl="md">
              {pages.slice(0, 8).map((p) => (
                <li key={p.id}>{p.title || 'Untitled page'}</li>
              ))}
              {pages.length > 8 && <li>and {pages.length - 8} more</li>}
            </Text>
          )}
          <Text size="sm">Nothing changes yet: a draft change request holds the restore, to review and merge like any change.</Text>
        </Stack>
      ),
      labels: { confirm: 'Restore', cancel: 'Cancel' },
      confirmProps: { 'data-testid': 'confirm-restore' } as Record<string, unknown>,
      onConfirm: () =>
        restore.mutate(
          { revisionId, ...(pages ? { pages: pages.map((p) => p.id) } : {}) },
          {
            onSuccess: (cr) => {
              notifySuccess(`Change request #${cr.number} holds the restore`)
              void navigate({ to: '/spaces/$spaceId/change-requests/$number', params: { spaceId, number: String(cr.number) } })
            }
          }
        )
    })
}
