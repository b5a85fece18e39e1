import { useState } from 'react'
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  CopyButton,
  EmptyState,
  Group,
  Paper,
  Select,
  Stack,
  TagsInput,
  Text,
  Title,
  Tooltip
} from '@mantine/core'
import { useForm } from '@mantine/form'
import { modals } from '@mantine/modals'
import { IconCheck, IconCopy, IconLink, IconMailPlus, IconPlus, IconTrash } from '@tabler/icons-react'
import { useSuspenseQuery } from '@tanstack/react-query'
import type { Invite, Organization } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { RouterAnchor } from '../common/links.tsx'
import { ROLE_LABELS, fromRoleValue, roleOptions, toRoleValue } from '../common/roles.ts'
import { useScreenReady } from '../common/screen.ts'
import { orgQuery } from '../orgs/queries.ts'
import { inviteLinksQuery, useCreateInviteLink, useDeleteInviteLink, useInviteByEmail, useUpdateInviteLink } from './queries.ts'
import classes from '../common/DataTable.module.css'

export function InvitesScreen({ orgId }: { orgId: string }) {
  const { data: org } = useSuspenseQuery(orgQuery(orgId))
  const { data: links } = useSuspenseQuery(inviteLinksQuery(orgId))
  useScreenReady()
  return (
    <Stack gap="xl">
      <InviteByEmail org={org} />
      <InviteLinks org={org} links={links} />
    </Stack>
  )
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

function InviteByEmail({ org }: { org: Organization }) {
  const invite = useInviteByEmail(org.id)
  const form = useForm({
    initialValues: { emails: [] as string[], role: toRoleValue(org.defaultRole ?? 'read') },
    validate: {
      emails: (emails) =>
        emails.length === 0
          ? 'Add at least one e-mail address'
          : emails.find((e) => !EMAIL.test(e))
            ? `Not an e-mail address: ${emails.find((e) => !EMAIL.test(e))}`
            : null
    }
  })
  return (
    <Paper p="lg">
      <Group gap="xs" mb={4}>
        <IconMailPlus size={18} stroke={1.6} />
        <Title order={4}>Invite by e-mail</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Each address becomes a member right away, with the role you choose.
      </Text>
      <form
        onSubmit={form.onSubmit(({ emails, role }) =>
          invite.mutate(
            { emails, role: fromRoleValue(role) },
            {
              onSuccess: () => {
                notifySuccess(emails.length === 1 ? `${emails[0]} was invited` : `${emails.length} people were invited`)
                form.setFieldValue('emails', [])
              },
              onError: (error) => applyFormError(form, error)
            }
          )
        )}
      >
        <Group align="flex-start" gap="sm" wrap="nowrap">
          <TagsInput
            placeholder="name@example.com — press Enter to add more"
            aria-label="E-mail addresses"
            splitChars={[',', ' ', ';']}
            acceptValueOnBlur
            clearable
            style={{ flex: 1 }}
            {...form.getInputProps('emails')}
            data-testid="invite-emails"
          />
          <Select aria-label="Role" data={roleOptions(true)} w={170} {...form.getInputProps('role')} data-testid="invite-role" />
          <Button type="submit" loading={invite.isPending} data-testid="invite-submit">
            Send invites
          </Button>
        </Group>
      </form>
    </Paper>
  )
}

function InviteLinks({ org, links }: { org: Organization; links: Invite[] }) {
  const create = useCreateInviteLink(org.id)
  const [role, setRole] = useState(toRoleValue(org.defaultRole ?? 'read'))
  return (
    <Paper p="lg">
      <Group justify="space-between" mb={4}>
        <Group gap="xs">
          <IconLink size={18} stroke={1.6} />
          <Title order={4}>Invite links</Title>
        </Group>
        <Group gap="xs">
          <Select
            aria-label="Role for the new link"
            data={roleOptions(true)}
            value={role}
            onChange={(v) => setRole(v ?? role)}
            w={170}
            size="xs"
          />
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            loading={create.isPending}
            onClick={() => create.mutate(fromRoleValue(role), { onSuccess: () => notifySuccess('Invite link created') })}
            data-testid="create-invite-link"
          >
            Create link
          </Button>
        </Group>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Anyone with a link joins the organization with the link's role.
      </Text>
      {!org.inviteLinks && (
        <Alert color="orange" mb="md" title="Invite links are turned off">
          Links below do not work until they are turned on in{' '}
          <RouterAnchor to="/orgs/$orgId/settings" params={{ orgId: org.id }} size="sm">
            organization settings
          </RouterAnchor>
          .
        </Alert>
      )}
      {links.length === 0 ? (
        <EmptyState
          size="sm"
          icon={<IconLink size={22} stroke={1.5} />}
          withIndicatorBackground
          title="No invite links"
          description="Create one to share with a group of people."
        />
      ) : (
        <div className={`${classes.table} ${classes.static}`} style={{ ['--columns' as string]: '170px minmax(0, 1fr) 90px' }}>
          <div className={classes.head}>
            <span>Role</span>
            <span>Link</span>
            <span />
          </div>
          {links.map((link) => (
            <InviteLinkRow key={link.id} org={org} link={link} />
          ))}
        </div>
      )}
    </Paper>
  )
}

/** The app address that accepts an invite link (the invite object itself carries no URL). */
export function inviteUrl(org: Organization, inviteId: string): string {
  return `${org.urls.app.replace(/\/$/, '')}/join/${inviteId}`
}

function InviteLinkRow({ org, link }: { org: Organization; link: Invite }) {
  const update = useUpdateInviteLink(org.id)
  const remove = useDeleteInviteLink(org.id)
  const url = inviteUrl(org, link.id)
  return (
    <div className={classes.row} data-testid="invite-link-row">
      <div className={classes.cell}>
        <Select
          size="xs"
          aria-label="Role of this link"
          data={roleOptions(true)}
          value={toRoleValue(link.role)}
          onChange={(v) =>
            update.mutate(
              { inviteId: link.id, role: fromRoleValue(v) },
              { onSuccess: (l) => notifySuccess(`Link now grants ${l.role ? ROLE_LABELS[l.role] : 'guest access'}`) }
            )
          }
          data-testid="invite-link-role"
        />
      </div>
      <Group gap="xs" wrap="nowrap" className={classes.cell}>
        <Text size="xs" ff="monospace" c="dimmed" truncate>
          {url}
        </Text>
        {link.redundant && (
          <Tooltip label="Same role as the organization's default role">
            <Badge size="xs" color="gray">
              Default role
            </Badge>
          </Tooltip>
        )}
      </Group>
      <Group gap={4} justify="flex-end" className={classes.cell}>
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy link'}>
              <ActionIcon color={copied ? 'teal' : 'gray'} onClick={copy} aria-label="Copy link" data-testid="copy-invite-link">
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
        <Tooltip label="Delete link">
          <ActionIcon
            color="red"
            aria-label="Delete link"
            onClick={() =>
              modals.openConfirmModal({
                title: 'Delete invite link?',
                children: <Text size="sm">People who have not used it yet can no longer join with it.</Text>,
                labels: { confirm: 'Delete', cancel: 'Cancel' },
                confirmProps: { color: 'red' },
                onConfirm: () => remove.mutate(link.id, { onSuccess: () => notifySuccess('Invite link deleted') })
              })
            }
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </div>
  )
}
