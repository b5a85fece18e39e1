import { Badge, Button, EmptyState, Group, Paper, Stack, Text } from '@mantine/core'
import { IconRestore, IconTrash } from '@tabler/icons-react'
import { useSuspenseQuery } from '@tanstack/react-query'
import type { Space } from '../../api/types.ts'
import { notifySuccess } from '../../app/notify.ts'
import { useUiStore } from '../../stores/uiStore.ts'
import { formatRelative } from '../common/format.ts'
import { PageHeader } from '../common/PageHeader.tsx'
import { useScreenReady } from '../common/screen.ts'
import { RESTORE_DAYS, daysLeft } from './trash.ts'
import { trashQuery, useRestoreSpace } from './queries.ts'
import classes from './TrashScreen.module.css'
import { emojiText } from '../common/emoji.ts'

export function TrashScreen({ orgId }: { orgId: string }) {
  const { data: spaces } = useSuspenseQuery(trashQuery(orgId))
  useScreenReady()
  const sorted = [...spaces].sort((a, b) => (b.deletedAt ?? '').localeCompare(a.deletedAt ?? ''))

  return (
    <>
      <PageHeader
        title="Trash"
        description={`Deleted spaces stay here for ${RESTORE_DAYS} days. Restore one to bring it back where it was.`}
      />
      {sorted.length === 0 ? (
        <EmptyState
          mt={48}
          icon={<IconTrash size={28} stroke={1.6} />}
          withIndicatorBackground
          title="The trash is empty"
          description="Spaces you delete show up here."
          data-testid="trash-empty"
        />
      ) : (
        <Paper>
          <Stack gap={0} data-testid="trash-list">
            {sorted.map((space) => (
              <TrashRow key={space.id} orgId={orgId} space={space} />
            ))}
          </Stack>
        </Paper>
      )}
    </>
  )
}

function TrashRow({ orgId, space }: { orgId: string; space: Space }) {
  const restore = useRestoreSpace(orgId)
  const select = useUiStore((s) => s.select)
  const left = space.deletedAt ? daysLeft(space.deletedAt) : RESTORE_DAYS
  const title = space.title || 'Untitled space'
  return (
    <Group className={classes.row} justify="space-between" wrap="nowrap" data-testid="trash-row">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <span className={classes.emoji}>{emojiText(space.emoji) || '📄'}</span>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" fw={500} truncate data-testid="trash-row-title">
            {title}
          </Text>
          <Text size="xs" c="dimmed">
            Deleted {formatRelative(space.deletedAt)}
          </Text>
        </Stack>
      </Group>
      <Group gap="md" wrap="nowrap">
        <Badge color={left <= 1 ? 'red' : left <= 3 ? 'orange' : 'gray'} variant="light">
          {left} {left === 1 ? 'day' : 'days'} left
        </Badge>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRestore size={14} />}
          loading={restore.isPending}
          onClick={() =>
            restore.mutate(space.id, {
              onSuccess: () => {
                notifySuccess(`“${title}” restored`)
                // The Spaces screen shows it selected, scrolled into view.
                select(`space:${space.id}`)
              }
            })
          }
          data-testid="restore"
        >
          Restore
        </Button>
      </Group>
    </Group>
  )
}
