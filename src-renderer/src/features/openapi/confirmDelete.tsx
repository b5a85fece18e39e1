import { Text } from '@mantine/core'
import { modals } from '@mantine/modals'

/** Asks before a spec goes: its versions go with it, and pages showing it lose it. */
export function confirmDeleteSpec(slug: string, onConfirm: () => void): void {
  modals.openConfirmModal({
    title: 'Delete API spec?',
    children: <Text size="sm">“{slug}” is deleted with all its versions. Pages that show it will no longer find it.</Text>,
    labels: { confirm: 'Delete spec', cancel: 'Cancel' },
    confirmProps: { color: 'red', 'data-testid': 'spec-delete-confirm' } as never,
    onConfirm
  })
}
