import { useState } from 'react'
import {
  ActionIcon,
  Badge,
  Button,
  EmptyState,
  Group,
  Menu,
  Modal,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Textarea
} from '@mantine/core'
import { useForm } from '@mantine/form'
import { modals } from '@mantine/modals'
import { IconDots, IconForms, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react'
import { useSuspenseQuery } from '@tanstack/react-query'
import type { CustomField, CustomFieldType } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { useScreenReady } from '../common/screen.ts'
import { customFieldsQuery, useDeleteCustomField, useSaveCustomField } from './queries.ts'
import classes from '../common/DataTable.module.css'
import { DialogActions } from '../common/DialogActions.tsx'
import { useFormReset } from '../common/useFormReset.ts'

const TYPE_LABELS: Record<CustomFieldType, string> = {
  text: 'Text',
  number: 'Number',
  boolean: 'Yes / no',
  select: 'Single choice',
  'multi-select': 'Multiple choice'
}
const withOptions = (type: string) => type === 'select' || type === 'multi-select'

/** Custom fields: the metadata every space of the organization can carry. */
export function CustomFieldsScreen({ orgId, canAdmin }: { orgId: string; canAdmin: boolean }) {
  const { data: fields } = useSuspenseQuery(customFieldsQuery(orgId))
  const [editing, setEditing] = useState<CustomField | 'new' | null>(null)
  const remove = useDeleteCustomField(orgId)
  useScreenReady()

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Fields every space can fill in: an owner, an audience, a review date, a product area.
        </Text>
        {canAdmin && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="new-custom-field">
            New field
          </Button>
        )}
      </Group>
      {fields.length === 0 ? (
        <EmptyState
          mt={32}
          variant="light"
          icon={<IconForms size={28} stroke={1.6} />}
          title="No custom fields"
          description="Create a field to describe spaces in a way your organization cares about."
        />
      ) : (
        <div
          className={`${classes.table} ${classes.static}`}
          style={{ ['--columns' as string]: 'minmax(180px, 1.2fr) 140px minmax(160px, 1.5fr) 40px' }}
        >
          <div className={classes.head}>
            <span>Field</span>
            <span>Type</span>
            <span>Options</span>
            <span />
          </div>
          {fields.map((field) => (
            <div key={field.id} className={classes.row} data-testid="custom-field-row">
              <Stack gap={0} className={classes.cell}>
                <Text size="sm" fw={500} truncate>
                  {field.title || field.name}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace" truncate>
                  {field.name}
                </Text>
              </Stack>
              <div className={classes.cell}>
                <Badge color="gray">{TYPE_LABELS[field.type]}</Badge>
              </div>
              <Group gap={4} className={classes.cell} wrap="nowrap" style={{ overflow: 'hidden' }}>
                {field.options?.length ? (
                  field.options.slice(0, 4).map((o) => (
                    <Badge key={o} variant="outline" color="gray" tt="none">
                      {o}
                    </Badge>
                  ))
                ) : (
                  <Text size="xs" c="dimmed">
                    —
                  </Text>
                )}
                {(field.options?.length ?? 0) > 4 && (
                  <Text size="xs" c="dimmed">
                    +{field.options!.length - 4}
                  </Text>
                )}
              </Group>
              <div className={classes.cell}>
                {field.permissions.edit && (
                  <Menu>
                    <Menu.Target>
                      <ActionIcon aria-label={`Actions for ${field.name}`}>
                        <IconDots size={16} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setEditing(field)}>
                        Edit…
                      </Menu.Item>
                      <Menu.Item
                        color="red"
                        leftSection={<IconTrash size={16} />}
                        onClick={() =>
                          modals.openConfirmModal({
                            title: 'Delete custom field?',
                            children: <Text size="sm">“{field.title || field.name}” and its value on every space are deleted.</Text>,
                            labels: { confirm: 'Delete', cancel: 'Cancel' },
                            confirmProps: { color: 'red' },
                            onConfirm: () => remove.mutate(field.name, { onSuccess: () => notifySuccess('Custom field deleted') })
                          })
                        }
                      >
                        Delete
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                )}
              </div>
            </div>
          ))}
        </div>
      )}
      <CustomFieldModal orgId={orgId} editing={editing} onClose={() => setEditing(null)} />
    </Stack>
  )
}

function CustomFieldModal({ orgId, editing, onClose }: { orgId: string; editing: CustomField | 'new' | null; onClose(): void }) {
  const save = useSaveCustomField(orgId)
  const existing = editing && editing !== 'new' ? editing : undefined
  const form = useForm({
    initialValues: { name: '', type: 'text' as string, title: '', description: '', placeholder: '', options: [] as string[] },
    validate: {
      name: (v) => (/^[a-z_\-0-9]+$/.test(v) ? null : 'Lower-case letters, digits, - and _ only'),
      options: (v, values) => (withOptions(values.type) && v.length === 0 ? 'Add at least one option' : null)
    }
  })
  useFormReset(
    form,
    editing && {
      name: existing?.name ?? '',
      type: existing?.type ?? 'text',
      title: existing?.title ?? '',
      description: existing?.description ?? '',
      placeholder: existing?.placeholder ?? '',
      options: existing?.options ?? []
    },
    editing
  )

  return (
    <Modal opened={!!editing} onClose={onClose} title={existing ? `Edit ${existing.title || existing.name}` : 'New custom field'}>
      <form
        onSubmit={form.onSubmit((v) =>
          save.mutate(
            {
              existing: existing?.name,
              body: {
                name: v.name,
                type: v.type as CustomFieldType,
                // On update an empty box clears the member (null); on create it is left out.
                title: v.title.trim() || (existing ? null : undefined),
                description: v.description.trim() || (existing ? null : undefined),
                placeholder: v.placeholder.trim() || (existing ? null : undefined),
                options: withOptions(v.type) ? v.options : undefined
              }
            },
            {
              onSuccess: () => (notifySuccess(existing ? 'Custom field saved' : 'Custom field created'), onClose()),
              onError: (e) => applyFormError(form, e)
            }
          )
        )}
      >
        <Stack>
          <Group grow align="flex-start">
            <TextInput
              label="Name"
              description={existing ? 'Cannot change' : 'Used in the API'}
              placeholder="audience"
              disabled={!!existing}
              data-autofocus
              {...form.getInputProps('name')}
              onChange={(e) => form.setFieldValue('name', e.currentTarget.value.toLowerCase().replace(/\s+/g, '-'))}
            />
            <Select
              label="Type"
              description={existing ? 'Cannot change' : ' '}
              data={Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }))}
              disabled={!!existing}
              {...form.getInputProps('type')}
            />
          </Group>
          <TextInput label="Title" placeholder="Audience" {...form.getInputProps('title')} />
          <Textarea
            label="Description"
            placeholder="Who the space is written for"
            autosize
            minRows={2}
            {...form.getInputProps('description')}
          />
          <TextInput label="Placeholder" placeholder="Shown in an empty field" {...form.getInputProps('placeholder')} />
          {withOptions(form.values.type) && (
            <TagsInput
              label="Options"
              description="Press Enter after each option"
              placeholder="Add an option"
              {...form.getInputProps('options')}
            />
          )}
          <DialogActions onCancel={onClose} submit={existing ? 'Save' : 'Create field'} loading={save.isPending} />
        </Stack>
      </form>
    </Modal>
  )
}
