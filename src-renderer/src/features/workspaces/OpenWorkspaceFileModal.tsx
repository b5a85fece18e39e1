import { useState } from 'react'
import { FileInput, Modal, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconFileDatabase } from '@tabler/icons-react'
import type { Workspace } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { SwitchNowActions } from './SwitchNowActions.tsx'
import { nameFieldError } from './names.ts'
import { useOpenWorkspaceFile } from './queries.ts'
import { WORKSPACE_FILE_ACCEPT, workspaceNameFromFile } from './workspaceFiles.ts'

/**
 * "Open workspace file…": a workspace file (a backup made with "Back up workspace…" or `quire backup`) added as a
 * new workspace. The app checks it and keeps a copy; the file picked is not changed. Once added, offer to switch.
 */
export function OpenWorkspaceFileModal({
  opened,
  onClose,
  onSwitch
}: {
  opened: boolean
  onClose: () => void
  onSwitch: (workspace: Workspace) => void
}) {
  const open = useOpenWorkspaceFile()
  const [added, setAdded] = useState<Workspace | null>(null)
  const form = useForm<{ file: File | null; name: string }>({
    initialValues: { file: null, name: '' },
    validate: {
      file: (value) => (value ? null : 'Choose a workspace file'),
      name: (value) => nameFieldError(value)
    }
  })
  const close = () => {
    form.reset()
    open.reset()
    setAdded(null)
    onClose()
  }
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={added ? 'Workspace opened' : 'Open workspace file'}
      data-testid="open-workspace-file-dialog"
    >
      {added ? (
        <Stack>
          <Text size="sm">
            “{added.name}” is a workspace of its own now, with the organizations and spaces the file holds. The file you picked was not
            changed.
          </Text>
          <SwitchNowActions workspace={added} onClose={close} onSwitch={onSwitch} />
        </Stack>
      ) : (
        <form
          onSubmit={form.onSubmit(({ file, name }) => {
            open.mutate(
              { name: name.trim(), file: file! },
              {
                onSuccess: (workspace) => {
                  notifySuccess(`Workspace “${workspace.name}” opened from ${file!.name}`)
                  setAdded(workspace)
                },
                onError: (error) => applyFormError(form, error)
              }
            )
          })}
        >
          <Stack>
            <Text size="sm" c="dimmed">
              Adds a workspace from a Quire workspace file, such as a backup (<code>.quire.db</code>). Quire checks the file and keeps a
              copy of it; the file itself is not changed.
            </Text>
            <FileInput
              label="Workspace file"
              placeholder="Choose a file…"
              accept={WORKSPACE_FILE_ACCEPT}
              leftSection={<IconFileDatabase size={16} stroke={1.6} />}
              required
              clearable
              {...form.getInputProps('file')}
              onChange={(file) => {
                form.setFieldValue('file', file)
                // A name from the file, unless one was typed.
                if (file && !form.isDirty('name')) form.setFieldValue('name', workspaceNameFromFile(file.name))
                form.resetDirty({ ...form.getValues(), file })
              }}
              data-testid="workspace-file-input"
            />
            <TextInput
              label="Name"
              placeholder="Handbook"
              required
              {...form.getInputProps('name')}
              data-testid="workspace-file-name-input"
            />
            <DialogActions onCancel={close} submit="Open file" loading={open.isPending} submitTestId="workspace-file-submit" />
          </Stack>
        </form>
      )}
    </Modal>
  )
}
