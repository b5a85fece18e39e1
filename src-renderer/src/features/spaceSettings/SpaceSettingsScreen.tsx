import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { Alert, Button, Checkbox, Divider, Group, Paper, Radio, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconArrowsExchange, IconInfoCircle, IconLock } from '@tabler/icons-react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import type { CustomField, Role, Space } from '../../api/types.ts'
import { applyFormError, notifyError, notifySuccess } from '../../app/notify.ts'
import { RouterAnchor } from '../common/links.tsx'
import { fromRoleValue, roleOptions, toRoleValue } from '../common/roles.ts'
import { useScreenReady } from '../common/screen.ts'
import { spaceQuery } from '../content/queries.ts'
import { customFieldsQuery } from '../customFields/queries.ts'
import { orgQuery } from '../orgs/queries.ts'
import { useUiStore } from '../../stores/uiStore.ts'
import { initialDrafts, valueErrorOf, valuesUpdate, type Draft, type Drafts } from './customFieldForm.ts'
import { MergeRulesForm } from './MergeRulesForm.tsx'
import { spaceCustomFieldsQuery, useSaveCustomFieldValues, useSetEditMode, useUpdateSpaceSettings } from './queries.ts'
import { useFormFollow } from '../common/useFormReset.ts'

export const VISIBILITY_CHOICES: { value: Space['visibility']; label: string; description: string }[] = [
  { value: 'private', label: 'Private', description: 'Members with access' },
  { value: 'in-collection', label: 'Inherits from collection', description: 'Whoever can access its collection' },
  { value: 'public', label: 'Public', description: 'Anyone, indexed by search engines' },
  { value: 'unlisted', label: 'Unlisted', description: 'Anyone with the address, not indexed' },
  { value: 'share-link', label: 'Share link', description: 'Anyone with a secret link' },
  { value: 'visitor-auth', label: 'Visitor authentication', description: 'Visitors signed in through your own service' }
]

/** "No general access" in the select: Select values are strings. */
const NO_ACCESS = 'none'

/** A space's settings: its lock, who it is for, its custom field values, and its transfer to another organization. */
export function SpaceSettingsScreen({ spaceId }: { spaceId: string }) {
  const { data: space } = useSuspenseQuery(spaceQuery(spaceId))
  useScreenReady()
  const admin = space.permissions.admin
  return (
    <Stack gap="lg" maw={760} data-testid="space-settings">
      {!admin && (
        <Alert color="gray" icon={<IconInfoCircle size={18} />}>
          Only admins of this space change its lock, audience and organization.
        </Alert>
      )}
      <Paper p="lg">
        <Stack gap="lg">
          <LockSection space={space} />
          <Divider />
          <AudienceSection space={space} />
        </Stack>
      </Paper>
      <Paper p="lg">
        <CustomFieldsSection space={space} />
      </Paper>
      <Paper p="lg">
        <MergeRulesSection space={space} />
      </Paper>
      {admin && (
        <Paper p="lg">
          <TransferSection space={space} />
        </Paper>
      )}
    </Stack>
  )
}

function MergeRulesSection({ space }: { space: Space }) {
  const update = useUpdateSpaceSettings(space.id)
  return (
    <MergeRulesForm
      value={space.mergeRules}
      orgId={space.organization}
      allowInherit
      disabled={!space.permissions.admin}
      saving={update.isPending}
      onSave={(mergeRules) =>
        update.mutate({ mergeRules }, { onSuccess: () => notifySuccess('Merge rules saved'), onError: (e) => notifyError(e) })
      }
    />
  )
}

function Section({ title, description, children }: { title: string; description: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="md" component="section" aria-label={title}>
      <div>
        <Title order={4}>{title}</Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </div>
      {children}
    </Stack>
  )
}

function LockSection({ space }: { space: Space }) {
  const setEditMode = useSetEditMode(space.id)
  const locked = space.editMode === 'locked'
  return (
    <Section
      title="Editing"
      description="A locked space keeps its content as it is: page edits, imports, change requests’ edits and merges, restores and custom field values are refused until an admin unlocks it. Comments stay open."
    >
      <Switch
        label="Lock the space"
        description={locked ? 'Locked: nobody can change its content.' : 'Unlocked: editors change its content through change requests.'}
        checked={locked}
        disabled={!space.permissions.admin || setEditMode.isPending}
        onChange={(e) =>
          setEditMode.mutate(e.currentTarget.checked ? 'locked' : 'live', {
            onSuccess: (saved) => notifySuccess(saved.editMode === 'locked' ? 'Space locked' : 'Space unlocked')
          })
        }
        data-testid="lock-switch"
      />
    </Section>
  )
}

function audienceValues(space: Space) {
  return { visibility: space.visibility as string, defaultLevel: space.defaultLevel ? toRoleValue(space.defaultLevel) : NO_ACCESS }
}

function AudienceSection({ space }: { space: Space }) {
  const update = useUpdateSpaceSettings(space.id)
  const form = useForm({ initialValues: audienceValues(space) })
  useFormFollow(form, audienceValues(space))
  const admin = space.permissions.admin
  const choices = VISIBILITY_CHOICES.filter((c) => c.value !== 'in-collection' || space.parent || space.visibility === 'in-collection')
  const submit = form.onSubmit((v) => {
    const before = audienceValues(space)
    const body: { visibility?: Space['visibility']; defaultLevel?: Role | null } = {}
    if (v.visibility !== before.visibility) body.visibility = v.visibility as Space['visibility']
    if (v.defaultLevel !== before.defaultLevel) body.defaultLevel = v.defaultLevel === NO_ACCESS ? null : fromRoleValue(v.defaultLevel)
    if (!Object.keys(body).length) return
    update.mutate(body, {
      onSuccess: (saved) => {
        form.setValues(audienceValues(saved))
        form.resetDirty(audienceValues(saved))
        notifySuccess('Settings saved')
      },
      onError: (e) => applyFormError(form, e)
    })
  })
  return (
    <form onSubmit={submit}>
      <Section title="Audience" description="Who the space is for, and the role everyone in the organization has on it.">
        <Select
          label="Visibility"
          data={choices.map((c) => ({ value: c.value, label: `${c.label} — ${c.description}` }))}
          allowDeselect={false}
          disabled={!admin}
          {...form.getInputProps('visibility')}
          maw={460}
          data-testid="visibility-select"
        />
        <Select
          label="General access"
          description="Every member of the organization (not guests) has at least this role on the space"
          data={[{ value: NO_ACCESS, label: 'No general access' }, ...roleOptions(false)]}
          allowDeselect={false}
          disabled={!admin}
          {...form.getInputProps('defaultLevel')}
          maw={460}
          data-testid="default-level-select"
        />
        {admin && (
          <Group justify="flex-end" gap="sm">
            <Button variant="default" disabled={!form.isDirty()} onClick={() => form.setValues(audienceValues(space))}>
              Discard
            </Button>
            <Button type="submit" disabled={!form.isDirty()} loading={update.isPending} data-testid="audience-save">
              Save audience
            </Button>
          </Group>
        )}
      </Section>
    </form>
  )
}

function CustomFieldsSection({ space }: { space: Space }) {
  const orgId = space.organization
  const fields = useQuery(customFieldsQuery(orgId))
  const values = useQuery(spaceCustomFieldsQuery(space.id))
  const org = useQuery(orgQuery(orgId)).data
  const save = useSaveCustomFieldValues(space.id)
  const initial = useMemo(() => (fields.data && values.data ? initialDrafts(fields.data, values.data) : null), [fields.data, values.data])
  const [drafts, setDrafts] = useState<Drafts | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  useEffect(() => {
    setDrafts(initial)
    setErrors({})
  }, [initial])

  const locked = space.editMode === 'locked'
  const editable = space.permissions.edit
  const description = 'The organization’s fields, filled in for this space.'
  if (!fields.data || !values.data || !drafts || !initial) {
    return (
      <Section title="Custom fields" description={description}>
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      </Section>
    )
  }
  if (fields.data.length === 0) {
    return (
      <Section title="Custom fields" description={description}>
        <Text size="sm" c="dimmed" data-testid="no-custom-fields">
          The organization has no custom fields yet.{' '}
          {org?.permissions.admin && (
            <RouterAnchor to="/orgs/$orgId/settings/custom-fields" params={{ orgId }} size="sm">
              Define them in the organization’s settings.
            </RouterAnchor>
          )}
        </Text>
      </Section>
    )
  }
  const dirty = JSON.stringify(drafts) !== JSON.stringify(initial)
  const set = (name: string, draft: Draft) => {
    setDrafts({ ...drafts, [name]: draft })
    if (errors[name]) setErrors(({ [name]: _gone, ...rest }) => rest)
  }
  const submit = () => {
    const result = valuesUpdate(fields.data, initial, drafts)
    if (!result.ok) return setErrors(result.errors)
    if (!Object.keys(result.body.values).length) return
    save.mutate(result.body, {
      onSuccess: () => notifySuccess('Custom fields saved'),
      onError: (e) => {
        const blamed = valueErrorOf(e)
        if (blamed && blamed.name in drafts) setErrors({ [blamed.name]: blamed.message })
        else notifyError(e)
      }
    })
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <Section title="Custom fields" description={description}>
        {!editable && (
          <Alert
            color={locked ? 'orange' : 'gray'}
            icon={locked ? <IconLock size={18} /> : <IconInfoCircle size={18} />}
            data-testid="custom-fields-read-only"
          >
            {locked
              ? 'The space is locked: its custom field values can change once an admin unlocks it.'
              : 'You need the Editor role on this space to change these values.'}
          </Alert>
        )}
        {fields.data.map((field) => (
          <FieldInput
            key={field.id}
            field={field}
            draft={drafts[field.name] ?? null}
            error={errors[field.name]}
            disabled={!editable}
            onChange={(d) => set(field.name, d)}
          />
        ))}
        {editable && (
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              disabled={!dirty}
              onClick={() => {
                setDrafts(initial)
                setErrors({})
              }}
            >
              Discard
            </Button>
            <Button type="submit" disabled={!dirty} loading={save.isPending} data-testid="custom-fields-save">
              Save values
            </Button>
          </Group>
        )}
      </Section>
    </form>
  )
}

/** One field's input, by its type; its title (else its name) is the accessible name. */
function FieldInput({
  field,
  draft,
  error,
  disabled,
  onChange
}: {
  field: CustomField
  draft: Draft
  error?: string
  disabled: boolean
  onChange(d: Draft): void
}) {
  const label = field.title || field.name
  const common = { label, description: field.description, error, disabled, maw: 460 }
  switch (field.type) {
    case 'boolean':
      return (
        <Radio.Group {...common} value={typeof draft === 'string' ? draft : ''} onChange={onChange}>
          <Group gap="lg" mt={6}>
            <Radio value="true" label="Yes" disabled={disabled} />
            <Radio value="false" label="No" disabled={disabled} />
            <Radio value="" label="Not set" disabled={disabled} />
          </Group>
        </Radio.Group>
      )
    case 'select':
      return (
        <Select
          {...common}
          data={field.options ?? []}
          value={typeof draft === 'string' && draft ? draft : null}
          onChange={(v) => onChange(v)}
          placeholder={field.placeholder ?? 'Not set'}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
      )
    case 'multi-select':
      return (
        <Checkbox.Group {...common} value={Array.isArray(draft) ? draft : []} onChange={onChange}>
          <Group gap="lg" mt={6}>
            {(field.options ?? []).map((o) => (
              <Checkbox key={o} value={o} label={o} disabled={disabled} />
            ))}
          </Group>
        </Checkbox.Group>
      )
    default:
      return (
        <TextInput
          {...common}
          value={typeof draft === 'string' ? draft : ''}
          onChange={(e) => onChange(e.currentTarget.value)}
          placeholder={field.placeholder}
          inputMode={field.type === 'number' ? 'decimal' : undefined}
        />
      )
  }
}

function TransferSection({ space }: { space: Space }) {
  const openDialog = useUiStore((s) => s.openContentDialog)
  return (
    <Section
      title="Organization"
      description={
        <>
          Move the space to another organization where you can create content. Its pages and history go with it; its custom field values and
          the grants of people outside that organization do not. The dialog lists everything before you confirm.
        </>
      }
    >
      <Group>
        <Button
          variant="default"
          color="orange"
          leftSection={<IconArrowsExchange size={16} />}
          onClick={() => openDialog({ kind: 'transfer', item: { kind: 'space', id: space.id } })}
          data-testid="settings-transfer"
        >
          Transfer to another organization…
        </Button>
      </Group>
    </Section>
  )
}

/**
 * Where an edit is refused because the space is locked: the API's reason, and Unlock for admins. Nothing for an
 * unlocked space.
 */
export function UnlockButton({ spaceId }: { spaceId: string }) {
  const space = useQuery(spaceQuery(spaceId)).data
  const setEditMode = useSetEditMode(spaceId)
  if (!space || space.editMode !== 'locked' || !space.permissions.admin) return null
  return (
    <Button
      size="compact-sm"
      variant="light"
      color="orange"
      leftSection={<IconLock size={14} />}
      loading={setEditMode.isPending}
      style={{ flex: 'none' }}
      onClick={() => setEditMode.mutate('live', { onSuccess: () => notifySuccess('Space unlocked') })}
      data-testid="unlock-space"
    >
      Unlock
    </Button>
  )
}

/**
 * Above a locked space's change request: why its actions are gone (the API's reason for refusing them), with
 * Unlock for admins. Nothing while the space is unlocked.
 */
export function LockedNotice({ spaceId, what }: { spaceId: string; what: string }) {
  const space = useQuery(spaceQuery(spaceId)).data
  if (space?.editMode !== 'locked') return null
  return (
    <Alert color="orange" variant="light" icon={<IconLock size={18} />} data-testid="locked-notice">
      <Group justify="space-between" gap="sm">
        <Text size="sm">The space is locked: an admin must unlock it before its content can change. {what}</Text>
        <UnlockButton spaceId={spaceId} />
      </Group>
    </Alert>
  )
}
