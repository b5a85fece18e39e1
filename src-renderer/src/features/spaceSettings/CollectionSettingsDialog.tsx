import { Modal, Select, Stack, Text } from '@mantine/core'
import { useForm } from '@mantine/form'
import type { Collection } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { fromRoleValue, roleOptions } from '../common/roles.ts'
import { useUpdateCollectionSettings } from './queries.ts'
import { useFormReset } from '../common/useFormReset.ts'

const NO_ACCESS = 'none'

/** A collection's general access (`defaultLevel`, the one setting the API keeps on a collection beyond its title). */
export function CollectionSettingsDialog({ collection, opened, onClose }: { collection: Collection; opened: boolean; onClose(): void }) {
  const update = useUpdateCollectionSettings(collection.id)
  const form = useForm({ initialValues: { defaultLevel: collection.defaultLevel ?? NO_ACCESS } })
  useFormReset(form, opened ? { defaultLevel: collection.defaultLevel ?? NO_ACCESS } : null, opened)
  const submit = form.onSubmit((v) => {
    const defaultLevel = v.defaultLevel === NO_ACCESS ? null : fromRoleValue(v.defaultLevel)
    if (defaultLevel === (collection.defaultLevel ?? null)) return onClose()
    update.mutate(
      { defaultLevel },
      {
        onSuccess: () => {
          notifySuccess('Collection settings saved')
          onClose()
        },
        onError: (e) => applyFormError(form, e)
      }
    )
  })
  return (
    <Modal opened={opened} onClose={onClose} title="Collection settings" data-testid="collection-settings-dialog">
      <form onSubmit={submit}>
        <Stack>
          <Select
            label="General access"
            description="Every member of the organization (not guests) has at least this role on the collection and the spaces in it"
            data={[{ value: NO_ACCESS, label: 'No general access' }, ...roleOptions(false)]}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('defaultLevel')}
            data-testid="collection-default-level"
          />
          <Text size="xs" c="dimmed">
            A space’s own general access and people’s grants can raise a role further, never lower it.
          </Text>
          <DialogActions onCancel={onClose} submit="Save" loading={update.isPending} submitTestId="collection-settings-save" />
        </Stack>
      </form>
    </Modal>
  )
}
