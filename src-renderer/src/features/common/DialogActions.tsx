import { Button, Group } from '@mantine/core'
import type { ReactNode } from 'react'

/** The footer of a form dialog: Cancel, then the button that submits the form, at the right. */
export function DialogActions({
  onCancel,
  submit,
  loading,
  submitTestId
}: {
  onCancel: () => void
  /** The submit button's label: what the dialog does ("Create", "Move", "Save"). */
  submit: ReactNode
  loading?: boolean
  submitTestId?: string
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={loading} data-testid={submitTestId}>
        {submit}
      </Button>
    </Group>
  )
}
