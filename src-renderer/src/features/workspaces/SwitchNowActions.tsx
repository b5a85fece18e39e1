import { Button, Group } from '@mantine/core'
import type { Workspace } from '../../api/types.ts'

/** The end of a dialog that added a workspace: stay in the current one, or switch to the new one now. */
export function SwitchNowActions({
  workspace,
  onClose,
  onSwitch
}: {
  workspace: Workspace
  onClose: () => void
  onSwitch: (workspace: Workspace) => void
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onClose} data-testid="workspace-stay">
        Stay here
      </Button>
      <Button
        data-autofocus
        onClick={() => {
          onClose()
          onSwitch(workspace)
        }}
        data-testid="workspace-switch-now"
      >
        Switch now
      </Button>
    </Group>
  )
}
