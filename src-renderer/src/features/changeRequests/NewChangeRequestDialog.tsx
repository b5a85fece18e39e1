import { Modal, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import type { ChangeRequest } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { useCreateChangeRequest } from './queries.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { useFormReset } from '../common/useFormReset.ts'

export const SUBJECT_MAX = 100

/** Local check with the API's own wording; the API's answer still lands by the field if it refuses. */
export function validateSubject(subject: string): string | null {
  return subject.trim().length > SUBJECT_MAX ? `Must be at most ${SUBJECT_MAX} characters` : null
}

/** Starts a change request (a draft branch of the space's content) and hands it back to open it. */
export function NewChangeRequestDialog({
  spaceId,
  opened,
  onClose,
  onCreated
}: {
  spaceId: string
  opened: boolean
  onClose(): void
  onCreated(cr: ChangeRequest): void
}) {
  const create = useCreateChangeRequest(spaceId)
  const form = useForm({ initialValues: { subject: '' }, validate: { subject: validateSubject } })
  useFormReset(form, opened ? {} : null, opened)

  return (
    <Modal opened={opened} onClose={onClose} title="New change request" data-testid="cr-dialog">
      <form
        onSubmit={form.onSubmit(({ subject }) =>
          create.mutate(
            { subject: subject.trim() },
            {
              onSuccess: (cr) => {
                notifySuccess(`Change request #${cr.number} started`)
                onClose()
                onCreated(cr)
              },
              onError: (e) => applyFormError(form, e)
            }
          )
        )}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            Edits in a change request stay out of the live content until it is merged. It starts as a draft.
          </Text>
          <TextInput
            label="Subject"
            placeholder="e.g. Rewrite the installation guide"
            description={`What the change is about, in a line (at most ${SUBJECT_MAX} characters).`}
            data-autofocus
            {...form.getInputProps('subject')}
            data-testid="cr-subject-input"
          />
          <DialogActions onCancel={onClose} submit="Create" loading={create.isPending} submitTestId="cr-dialog-submit" />
        </Stack>
      </form>
    </Modal>
  )
}
