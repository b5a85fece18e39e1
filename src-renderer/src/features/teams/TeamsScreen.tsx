import { useState } from 'react'
import { ActionIcon, Avatar, Button, Drawer, EmptyState, Group, Menu, Modal, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core'
import { useForm } from '@mantine/form'
import { modals } from '@mantine/modals'
import { IconDots, IconPencil, IconPlus, IconTrash, IconUserMinus, IconUsersGroup } from '@tabler/icons-react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import type { Team } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { formatDate, initials } from '../common/format.ts'
import { useScreenReady } from '../common/screen.ts'
import { usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import { TeamSpacesDrawer } from '../access/TeamSpaces.tsx'
import { MemberPicker } from '../members/MemberPicker.tsx'
import { userQuery } from '../orgs/queries.ts'
import {
  teamMembersQuery,
  teamsQuery,
  useAddTeamMembers,
  useCreateTeam,
  useDeleteTeam,
  useRemoveTeamMember,
  useRenameTeam,
  useSetTeamRole
} from './queries.ts'
import classes from '../common/DataTable.module.css'
import { DialogActions } from '../common/DialogActions.tsx'
import { useFormReset } from '../common/useFormReset.ts'

const COLUMNS = 'minmax(200px, 1fr) 100px 100px 120px 240px'

/** Teams of the organization: create, rename, delete, and manage who is in each (with owners). */
export function TeamsScreen({ orgId, canAdmin }: { orgId: string; canAdmin: boolean }) {
  const { data: teams } = useSuspenseQuery(teamsQuery(orgId))
  const [creating, setCreating] = useState(false)
  const [renaming, setRenaming] = useState<Team | null>(null)
  const [managingId, setManagingId] = useState<string | null>(null)
  const [spacesOfId, setSpacesOfId] = useState<string | null>(null)
  const remove = useDeleteTeam(orgId)
  useScreenReady()
  const { listRef, virtualizer, scrollMargin } = usePageVirtualizer({ count: teams.length, rowHeight: 56, getItemKey: (i) => teams[i]!.id })
  const managing = teams.find((t) => t.id === managingId) ?? null

  const confirmDelete = (team: Team) =>
    modals.openConfirmModal({
      title: 'Delete team?',
      children: (
        <Text size="sm">
          “{team.title}” is deleted. Its {team.members} members stay in the organization but lose the access the team gave them.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(team.id, { onSuccess: () => notifySuccess(`Team “${team.title}” deleted`) })
    })

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Teams give a group of members access to spaces together.
        </Text>
        {canAdmin && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-team">
            New team
          </Button>
        )}
      </Group>
      {teams.length === 0 ? (
        <EmptyState
          mt={32}
          variant="light"
          icon={<IconUsersGroup size={28} stroke={1.6} />}
          title="No teams yet"
          description="Create a team for each group that works on the same spaces: writers, reviewers, a product squad."
          data-testid="teams-empty"
        />
      ) : (
        <div className={classes.table} style={{ ['--columns' as string]: COLUMNS }}>
          <div className={classes.head}>
            <span>Team</span>
            <span>Members</span>
            <span>Spaces</span>
            <span>Created</span>
            <span />
          </div>
          <div ref={listRef} className={classes.body} style={{ height: virtualizer.getTotalSize() }} data-testid="team-list">
            {virtualizer.getVirtualItems().map((item) => {
              const team = teams[item.index]!
              return (
                <div
                  key={item.key}
                  className={classes.row}
                  style={{ transform: `translateY(${item.start - scrollMargin}px)` }}
                  data-testid="team-row"
                >
                  <Group gap="sm" wrap="nowrap" className={classes.cell}>
                    <Avatar size={32} radius="md" color="initials" name={team.title}>
                      {initials(team.title)}
                    </Avatar>
                    <Text size="sm" fw={500} truncate data-testid="team-title">
                      {team.title}
                    </Text>
                  </Group>
                  <Text className={classes.cell} c="dimmed" data-testid="team-member-count">
                    {team.members}
                  </Text>
                  <Text className={classes.cell} c="dimmed">
                    {team.spaces}
                  </Text>
                  <Text className={classes.cell} c="dimmed">
                    {formatDate(team.createdAt)}
                  </Text>
                  <Group gap={4} justify="flex-end" wrap="nowrap" className={classes.cell}>
                    <Button size="xs" variant="default" onClick={() => setManagingId(team.id)} data-testid="manage-team">
                      Members
                    </Button>
                    <Button size="xs" variant="default" onClick={() => setSpacesOfId(team.id)} data-testid="team-spaces-open">
                      Spaces
                    </Button>
                    {team.permissions.admin && (
                      <Menu>
                        <Menu.Target>
                          <ActionIcon aria-label={`Actions for ${team.title}`}>
                            <IconDots size={16} />
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setRenaming(team)}>
                            Rename…
                          </Menu.Item>
                          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => confirmDelete(team)}>
                            Delete
                          </Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    )}
                  </Group>
                </div>
              )
            })}
          </div>
        </div>
      )}
      <TeamFormModal orgId={orgId} opened={creating} onClose={() => setCreating(false)} onCreated={(team) => setManagingId(team.id)} />
      <TeamFormModal orgId={orgId} opened={!!renaming} team={renaming ?? undefined} onClose={() => setRenaming(null)} />
      <TeamMembersDrawer orgId={orgId} team={managing} onClose={() => setManagingId(null)} />
      <TeamSpacesDrawer orgId={orgId} team={teams.find((t) => t.id === spacesOfId) ?? null} onClose={() => setSpacesOfId(null)} />
    </Stack>
  )
}

function TeamFormModal({
  orgId,
  opened,
  team,
  onClose,
  onCreated
}: {
  orgId: string
  opened: boolean
  team?: Team
  onClose(): void
  onCreated?(team: Team): void
}) {
  const create = useCreateTeam(orgId)
  const rename = useRenameTeam(orgId)
  const form = useForm({ initialValues: { title: '', members: [] as string[] } })
  // Fill the form each time the dialog opens (or opens on another team), not on every render.
  useFormReset(form, opened ? { title: team?.title ?? '', members: [] } : null, opened && team)
  const close = () => {
    form.reset()
    onClose()
  }
  return (
    <Modal opened={opened} onClose={close} title={team ? 'Rename team' : 'New team'} data-testid="team-dialog">
      <form
        onSubmit={form.onSubmit(({ title, members }) => {
          if (team)
            rename.mutate(
              { teamId: team.id, title: title.trim() },
              { onSuccess: () => (notifySuccess('Team renamed'), close()), onError: (e) => applyFormError(form, e) }
            )
          else
            create.mutate(
              { title: title.trim(), members: members.length ? members : undefined },
              {
                onSuccess: (created) => {
                  notifySuccess(`Team “${created.title}” created`)
                  close()
                  onCreated?.(created)
                },
                onError: (e) => applyFormError(form, e)
              }
            )
        })}
      >
        <Stack>
          <TextInput
            label="Name"
            placeholder="e.g. Technical writers"
            data-autofocus
            {...form.getInputProps('title')}
            data-testid="team-title-input"
          />
          {!team && (
            <MemberPicker
              orgId={orgId}
              label="Members"
              description="Optional: you can add members later too."
              value={form.values.members}
              onChange={(ids) => form.setFieldValue('members', ids)}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <DialogActions
            onCancel={close}
            submit={team ? 'Save' : 'Create team'}
            loading={create.isPending || rename.isPending}
            submitTestId="team-dialog-submit"
          />
        </Stack>
      </form>
    </Modal>
  )
}

function TeamMembersDrawer({ orgId, team, onClose }: { orgId: string; team: Team | null; onClose(): void }) {
  return (
    <Drawer opened={!!team} onClose={onClose} position="right" size={460} title={team ? `${team.title} · members` : ''}>
      {team && <TeamMembersPanel orgId={orgId} team={team} />}
    </Drawer>
  )
}

function TeamMembersPanel({ orgId, team }: { orgId: string; team: Team }) {
  const members = useQuery(teamMembersQuery(orgId, team.id))
  const add = useAddTeamMembers(orgId, team.id)
  const setRole = useSetTeamRole(orgId, team.id)
  const remove = useRemoveTeamMember(orgId, team.id)
  const [adding, setAdding] = useState<string[]>([])
  const canManage = team.permissions.admin
  const current = members.data ?? []
  const me = useQuery(userQuery()).data
  const setOwner = (userId: string, owner: boolean) => {
    const change = () => setRole.mutate({ userId, role: owner ? 'owner' : 'member' })
    // Giving up one's own ownership cannot be taken back alone: say so first.
    if (owner || userId !== me?.id) return change()
    modals.openConfirmModal({
      title: `Stop owning ${team.title}?`,
      children: (
        <Text size="sm">
          You will no longer rename this team or manage its members. Unless you are an organization admin, another owner has to make you an
          owner again.
        </Text>
      ),
      labels: { confirm: 'Stop owning', cancel: 'Cancel' },
      confirmProps: { color: 'red', 'data-testid': 'confirm-self-demotion' } as Record<string, unknown>,
      onConfirm: change
    })
  }

  return (
    <Stack gap="lg" data-testid="team-drawer">
      {canManage && (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <MemberPicker
            orgId={orgId}
            label="Add members"
            value={adding}
            onChange={setAdding}
            exclude={current.map((m) => m.organization.id)}
            comboboxProps={{ withinPortal: true }}
            style={{ flex: 1 }}
            data-testid="team-add-picker"
          />
          <Button
            disabled={adding.length === 0}
            loading={add.isPending}
            onClick={() =>
              add.mutate(adding, {
                onSuccess: () => {
                  notifySuccess(adding.length === 1 ? 'Member added' : `${adding.length} members added`)
                  setAdding([])
                }
              })
            }
            data-testid="team-add-submit"
          >
            Add
          </Button>
        </Group>
      )}
      <Stack gap={0}>
        <Text size="xs" fw={600} c="dimmed" tt="uppercase" mb={6}>
          {current.length} {current.length === 1 ? 'member' : 'members'}
        </Text>
        {members.isPending ? (
          <RowsSkeleton rows={4} />
        ) : current.length === 0 ? (
          <Text size="sm" c="dimmed" py="md">
            Nobody is in this team yet.
          </Text>
        ) : (
          current.map(({ organization: member, team: membership }) => {
            const name = member.user.displayName || member.user.email || member.id
            return (
              <Group key={member.id} justify="space-between" wrap="nowrap" py={8} data-testid="team-member-row">
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                  <Avatar size={30} radius="xl" color="initials" name={name}>
                    {initials(name)}
                  </Avatar>
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text size="sm" fw={500} truncate data-testid="team-member-name">
                      {name}
                    </Text>
                    <Text size="xs" c="dimmed" truncate>
                      {member.user.email}
                    </Text>
                  </Stack>
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <Tooltip label="Owners manage the team's members">
                    <Switch
                      size="xs"
                      label="Owner"
                      checked={membership.role === 'owner'}
                      disabled={!canManage || setRole.isPending}
                      onChange={(e) => setOwner(member.id, e.currentTarget.checked)}
                      data-testid="team-owner-toggle"
                    />
                  </Tooltip>
                  {canManage && (
                    <Tooltip label="Remove from team">
                      <ActionIcon
                        color="red"
                        aria-label={`Remove ${name} from the team`}
                        onClick={() => remove.mutate(member.id, { onSuccess: () => notifySuccess(`${name} left ${team.title}`) })}
                      >
                        <IconUserMinus size={16} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
              </Group>
            )
          })
        )}
      </Stack>
    </Stack>
  )
}
