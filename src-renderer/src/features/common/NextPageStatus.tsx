import { Button, Group, Text } from '@mantine/core'

/** What an infinite list shows below its rows: its next page loading, or why it could not be read, with a retry. */
export function NextPageStatus({
  fetching,
  failed,
  error,
  what,
  retry,
  className
}: {
  fetching: boolean
  /** The last request for the next page failed (useLoadMoreNearEnd then stops asking on its own). */
  failed: boolean
  error?: Error | null
  /** What the next page holds, as the error message says it: "More members". */
  what: string
  retry(): void
  className?: string
}) {
  if (!fetching && !failed) return null
  return (
    <div className={className} data-testid="next-page-status">
      {fetching ? (
        <Text size="xs" c="dimmed" ta="center" py={8}>
          Loading more…
        </Text>
      ) : (
        <Group gap="xs" justify="center" py={6}>
          <Text size="xs" c="red">
            {what} could not be read{error?.message ? `: ${error.message}` : ''}
          </Text>
          <Button variant="subtle" size="compact-xs" onClick={retry} data-testid="next-page-retry">
            Try again
          </Button>
        </Group>
      )}
    </div>
  )
}
