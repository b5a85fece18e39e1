import { Group, Skeleton, Stack } from '@mantine/core'
import { useReportAppState } from '../../app/appState.ts'

/** Shown while a screen's first data loads: the shape of what is coming, not a spinner. */
export function ScreenSkeleton({ rows = 8 }: { rows?: number }) {
  useReportAppState('loading')
  return (
    <Stack gap="lg" aria-busy="true" aria-label="Loading" data-testid="loading">
      <Group justify="space-between">
        <Stack gap={8}>
          <Skeleton height={22} width={220} />
          <Skeleton height={12} width={340} />
        </Stack>
        <Skeleton height={32} width={120} />
      </Group>
      <RowsSkeleton rows={rows} />
    </Stack>
  )
}

export function RowsSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <Stack gap={10}>
      {Array.from({ length: rows }, (_, i) => (
        <Group key={i} gap="sm" wrap="nowrap">
          <Skeleton height={24} circle />
          <Skeleton height={12} width={`${40 + ((i * 17) % 45)}%`} />
        </Group>
      ))}
    </Stack>
  )
}

/** A route's pending view below a header that is already there (a tab of Team or Settings). */
export function PendingRows({ rows = 6 }: { rows?: number }) {
  useReportAppState('loading')
  return <RowsSkeleton rows={rows} />
}
