import { useState } from 'react'
import {
  ActionIcon,
  Badge,
  Button,
  Code,
  CopyButton,
  EmptyState,
  Group,
  Menu,
  Modal,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
  Tooltip
} from '@mantine/core'
import { useForm } from '@mantine/form'
import { modals } from '@mantine/modals'
import { IconCheck, IconCopy, IconDots, IconPencil, IconPlus, IconShieldLock, IconTrash } from '@tabler/icons-react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import type { SamlProvider } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { formatDate } from '../common/format.ts'
import { fromRoleValue, roleLabel, roleOptions, toRoleValue } from '../common/roles.ts'
import { useScreenReady } from '../common/screen.ts'
import { teamsQuery } from '../teams/queries.ts'
import { samlProvidersQuery, useDeleteSamlProvider, useSaveSamlProvider } from './queries.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { useFormReset } from '../common/useFormReset.ts'

const NO_TEAM = 'none'

/** SAML identity providers: the organization's side of single sign-on. */
export function SamlProvidersScreen({ orgId, canAdmin }: { orgId: string; canAdmin: boolean }) {
  const { data: providers } = useSuspenseQuery(samlProvidersQuery(orgId))
  const [editing, setEditing] = useState<SamlProvider | 'new' | null>(null)
  const remove = useDeleteSamlProvider(orgId)
  useScreenReady()

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Members sign in through your identity provider. Give the provider the service URLs shown on each card.
        </Text>
        {canAdmin && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="new-saml">
            Add provider
          </Button>
        )}
      </Group>
      {providers.length === 0 ? (
        <EmptyState
          mt={32}
          variant="light"
          icon={<IconShieldLock size={28} stroke={1.6} />}
          title="No identity providers"
          description="Add a SAML provider (Okta, Entra ID, Google Workspace…) to let members sign in with single sign-on."
        />
      ) : (
        providers.map((provider) => (
          <Paper key={provider.id} p="lg" data-testid="saml-card">
            <Group justify="space-between" align="flex-start" mb="sm">
              <Stack gap={2}>
                <Group gap="xs">
                  <Title order={4}>{provider.label}</Title>
                  <Badge color="gray">Default role: {roleLabel(provider.defaultRole)}</Badge>
                  {provider.defaultTeam && <Badge color="indigo">Team: {provider.defaultTeam.title}</Badge>}
                </Group>
                <Text size="xs" c="dimmed">
                  Added {formatDate(provider.createdAt)} · {provider.ssoURL || 'no sign-in URL yet'}
                </Text>
              </Stack>
              {canAdmin && (
                <Menu>
                  <Menu.Target>
                    <ActionIcon aria-label={`Actions for ${provider.label}`}>
                      <IconDots size={16} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setEditing(provider)}>
                      Edit…
                    </Menu.Item>
                    <Menu.Item
                      color="red"
                      leftSection={<IconTrash size={16} />}
                      onClick={() =>
                        modals.openConfirmModal({
                          title: 'Delete identity provider?',
                          children: <Text size="sm">Members can no longer sign in through “{provider.label}”.</Text>,
                          labels: { confirm: 'Delete', cancel: 'Cancel' },
                          confirmProps: { color: 'red' },
                          onConfirm: () => remove.mutate(provider.id, { onSuccess: () => notifySuccess('Identity provider deleted') })
                        })
                      }
                    >
                      Delete
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              )}
            </Group>
            <Stack gap={6}>
              <ServiceUrl label="ACS URL" value={provider.service.acsURL} />
              <ServiceUrl label="Entity ID" value={provider.service.entityID} />
              <ServiceUrl label="Start URL" value={provider.service.startURL} />
            </Stack>
          </Paper>
        ))
      )}
      <SamlProviderModal orgId={orgId} editing={editing} onClose={() => setEditing(null)} />
    </Stack>
  )
}

function ServiceUrl({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Text size="xs" c="dimmed" w={72} style={{ flex: 'none' }}>
        {label}
      </Text>
      <Code style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : `Copy ${label}`}>
            <ActionIcon size="sm" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy ${label}`}>
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  )
}

function SamlProviderModal({ orgId, editing, onClose }: { orgId: string; editing: SamlProvider | 'new' | null; onClose(): void }) {
  const save = useSaveSamlProvider(orgId)
  const teams = useQuery({ ...teamsQuery(orgId), enabled: !!editing }).data ?? []
  const form = useForm({
    initialValues: { label: '', ssoURL: '', entityID: '', certificate: '', defaultRole: toRoleValue('read'), defaultTeam: NO_TEAM },
    validate: { label: (v) => (v.trim() ? null : 'Give the provider a name') }
  })
  const p = editing === 'new' ? undefined : editing
  useFormReset(
    form,
    editing && {
      label: p?.label ?? '',
      ssoURL: p?.ssoURL ?? '',
      entityID: p?.entityID ?? '',
      certificate: p?.certificate ?? '',
      defaultRole: toRoleValue(p ? p.defaultRole : 'read'),
      defaultTeam: p?.defaultTeam?.id ?? NO_TEAM
    },
    editing
  )

  const existing = editing && editing !== 'new' ? editing : undefined
  return (
    <Modal opened={!!editing} onClose={onClose} title={existing ? `Edit ${existing.label}` : 'Add identity provider'} size="lg">
      <form
        onSubmit={form.onSubmit((v) =>
          save.mutate(
            {
              id: existing?.id,
              body: {
                label: v.label.trim(),
                ssoURL: v.ssoURL.trim() || undefined,
                entityID: v.entityID.trim() || undefined,
                certificate: v.certificate.trim() || undefined,
                defaultRole: fromRoleValue(v.defaultRole),
                defaultTeam: v.defaultTeam === NO_TEAM ? null : v.defaultTeam
              }
            },
            {
              onSuccess: () => (notifySuccess(existing ? 'Identity provider saved' : 'Identity provider added'), onClose()),
              onError: (e) => applyFormError(form, e)
            }
          )
        )}
      >
        <Stack>
          <TextInput
            label="Name"
            description="Shown on the sign-in button"
            placeholder="Okta"
            maxLength={40}
            data-autofocus
            {...form.getInputProps('label')}
          />
          <TextInput label="Sign-in URL (SSO URL)" placeholder="https://idp.example.com/app/sso/saml" {...form.getInputProps('ssoURL')} />
          <TextInput label="Identity provider entity ID" placeholder="http://www.okta.com/exk…" {...form.getInputProps('entityID')} />
          <Textarea
            label="X.509 certificate"
            placeholder={'-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----'}
            autosize
            minRows={4}
            maxRows={10}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
            {...form.getInputProps('certificate')}
          />
          <Group grow>
            <Select
              label="Default role"
              description="For members who first sign in through it"
              data={roleOptions(true)}
              {...form.getInputProps('defaultRole')}
            />
            <Select
              label="Default team"
              description="New members join it"
              data={[{ value: NO_TEAM, label: 'No team' }, ...teams.map((t) => ({ value: t.id, label: t.title }))]}
              searchable
              {...form.getInputProps('defaultTeam')}
            />
          </Group>
          <DialogActions onCancel={onClose} submit={existing ? 'Save' : 'Add provider'} loading={save.isPending} />
        </Stack>
      </form>
    </Modal>
  )
}
