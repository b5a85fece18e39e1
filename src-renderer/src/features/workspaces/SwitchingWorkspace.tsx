import { Group, Loader, Text } from '@mantine/core'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { useReportAppState } from '../../app/appState.ts'
import classes from './Workspaces.module.css'

/** Stands in for the screen while the app switches workspaces (nothing of the old one stays on show). */
export function SwitchingWorkspace({ name }: { name: string }) {
  useReportAppState('loading')
  return (
    <div className={classes.switching} aria-busy="true" data-testid="switching-workspace">
      <Group gap="sm">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          Switching to “{name}”…
        </Text>
      </Group>
      <RowsSkeleton rows={6} />
    </div>
  )
}
