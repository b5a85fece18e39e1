import { useState } from 'react'
import { Avatar, Group, Menu, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconCheck, IconPlus, IconSelector } from '@tabler/icons-react'
import { useNavigate } from '@tanstack/react-router'
import type { Organization } from '../../api/types.ts'
import { applyFormError } from '../../app/notify.ts'
import { initials } from '../common/format.ts'
import { useCreateOrg } from '../orgs/queries.ts'
import classes from './AppShell.module.css'
import { DialogActions } from '../common/DialogActions.tsx'

export function OrgAvatar({ org, size = 30 }: { org: Pick<Organization, 'title'>; size?: number }) {
  return (
    <Avatar size={size} radius="md" color="indigo" variant="filled">
      {initials(org.title)}
    </Avatar>
  )
}

/** The sidebar's top: which organization the app shows, and a menu to switch or create one. */
export function OrgSwitcher({ orgs, currentId }: { orgs: Organization[]; currentId: string | undefined }) {
  const navigate = useNavigate()
  const [creating, setCreating] = useState(false)
  const current = orgs.find((o) => o.id === currentId)

  return (
    <>
      <Menu position="bottom-start" width={232} offset={6}>
        <Menu.Target>
          <UnstyledButton className={classes.orgButton} data-testid="org-switcher" aria-label="Switch organization">
            <Group gap={10} wrap="nowrap">
              {current ? <OrgAvatar org={current} /> : <Avatar size={30} radius="md" />}
              <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                <Text size="sm" fw={600} truncate data-testid="current-org">
                  {current?.title ?? 'No organization'}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {current ? `${current.plan === 'free' ? 'Free' : current.plan} plan` : 'Create one to start'}
                </Text>
              </Stack>
              <IconSelector size={16} stroke={1.5} color="var(--mantine-color-dimmed)" />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Organizations</Menu.Label>
          {orgs.map((org) => (
            <Menu.Item
              key={org.id}
              data-testid="org-item"
              leftSection={<OrgAvatar org={org} size={22} />}
              rightSection={org.id === currentId ? <IconCheck size={14} /> : null}
              onClick={() => void navigate({ to: '/orgs/$orgId', params: { orgId: org.id } })}
            >
              {org.title}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Create organization
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <CreateOrgModal opened={creating} onClose={() => setCreating(false)} />
    </>
  )
}

function CreateOrgModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate()
  const create = useCreateOrg()
  const form = useForm({ initialValues: { title: '' } })
  const close = () => {
    form.reset()
    onClose()
  }
  return (
    <Modal opened={opened} onClose={close} title="Create organization">
      <form
        onSubmit={form.onSubmit((values) =>
          create.mutate(values, {
            onSuccess: (org) => {
              close()
              void navigate({ to: '/orgs/$orgId', params: { orgId: org.id } })
            },
            onError: (error) => applyFormError(form, error)
          })
        )}
      >
        <Stack>
          <TextInput label="Name" placeholder="Acme Docs" data-autofocus required {...form.getInputProps('title')} />
          <DialogActions onCancel={close} submit="Create" loading={create.isPending} />
        </Stack>
      </form>
    </Modal>
  )
}
