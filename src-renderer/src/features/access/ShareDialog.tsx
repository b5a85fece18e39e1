import { useState, type ReactNode } from 'react'
import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Tooltip,
  UnstyledButton
} from '@mantine/core'
import { IconInfoCircle, IconTrash, IconUsersGroup } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { AggregatePermission, Role } from '../../api/types.ts'
import { notifySuccess } from '../../app/notify.ts'
import { initials } from '../common/format.ts'
import { ROLE_COLORS, ROLE_LABELS, roleOptions } from '../common/roles.ts'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { MemberPicker } from '../members/MemberPicker.tsx'
import { teamsQuery } from '../teams/queries.ts'
import {
  accessAggregateQuery,
  accessTeamsQuery,
  accessUsersQuery,
  useInvite,
  useRemoveGrant,
  useSetGrant,
  type Principal
} from './queries.ts'
import { explainRole, isDirect, sourceLabel, type AccessKind } from './sources.ts'

export interface ShareTarget {
  kind: AccessKind
  id: string
  title: string
  organization: string
  /** The caller manages access (admin on the object). */
  canAdmin: boolean
  /** How the object is published (spaces, sites) and its general access (`defaultLevel`), shown here, set in its settings. */
  visibility?: string
  /** Undefined for a site: its readers in the organization are the organization's roles. */
  defaultLevel?: Role | null
}

const ROLE_OPTIONS = roleOptions(false)

/**
 * Who has access to a space or collection: what it shows to everyone (visibility, general access), the people
 * and teams it is shared with (change role, remove, invite more), and everyone's effective role with where it
 * comes from, each explained in words on request.
 */
export function ShareDialog({ target, opened, onClose }: { target: ShareTarget; opened: boolean; onClose(): void }) {
  const [view, setView] = useState<'shared' | 'everyone'>('shared')
  const name = target.title || `Untitled ${target.kind}`
  // Sites have no aggregate: who holds a role there is the organization's roles and these grants.
  const shown = target.kind === 'site' ? 'shared' : view
  return (
    <Modal opened={opened} onClose={onClose} title={`Share “${name}”`} size="lg" data-testid="share-dialog">
      {opened && (
        <Stack gap="md">
          <Group gap="xs" data-testid="share-general">
            {target.visibility && (
              <Badge color="gray" variant="light">
                {target.visibility}
              </Badge>
            )}
            {target.defaultLevel !== undefined && (
              <Badge
                color={target.defaultLevel ? ROLE_COLORS[target.defaultLevel] : 'gray'}
                variant="light"
                data-testid="share-general-access"
              >
                {target.defaultLevel ? `Everyone in the organization: ${ROLE_LABELS[target.defaultLevel]}` : 'No general access'}
              </Badge>
            )}
            <Text size="xs" c="dimmed">
              {target.kind === 'site'
                ? 'Members of the organization have their organization role here; visibility is set in the site’s settings.'
                : `Visibility and general access are set in the ${target.kind}’s settings.`}
            </Text>
          </Group>
          {target.canAdmin && <InviteForm target={target} />}
          {target.kind !== 'site' && (
            <SegmentedControl
              value={view}
              onChange={(v) => setView(v as typeof view)}
              data={[
                { value: 'shared', label: 'Shared with' },
                { value: 'everyone', label: 'Everyone with access' }
              ]}
              aria-label="Which access to show"
            />
          )}
          {shown === 'shared' ? <DirectGrants target={target} /> : <EveryoneWithAccess target={target} />}
        </Stack>
      )}
    </Modal>
  )
}

function InviteForm({ target }: { target: ShareTarget }) {
  const [users, setUsers] = useState<string[]>([])
  const [teams, setTeams] = useState<string[]>([])
  const [role, setRole] = useState<Role>('read')
  const allTeams = useQuery(teamsQuery(target.organization)).data ?? []
  const invite = useInvite(target)
  const count = users.length + teams.length
  return (
    <Stack gap="xs" data-testid="share-invite">
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <MemberPicker
          orgId={target.organization}
          label="Invite people"
          value={users}
          onChange={setUsers}
          comboboxProps={{ withinPortal: true }}
          style={{ flex: 1 }}
          data-testid="share-people"
        />
        <MultiSelect
          label="Teams"
          placeholder="Pick teams"
          searchable
          clearable
          hidePickedOptions
          data={allTeams.map((t) => ({ value: t.id, label: t.title }))}
          value={teams}
          onChange={setTeams}
          comboboxProps={{ withinPortal: true }}
          style={{ flex: 1 }}
          data-testid="share-teams"
        />
      </Group>
      <Group gap="xs" justify="flex-end">
        <Select
          aria-label="Role to give"
          data={ROLE_OPTIONS}
          value={role}
          onChange={(v) => v && setRole(v as Role)}
          allowDeselect={false}
          w={160}
          comboboxProps={{ withinPortal: true }}
          data-testid="share-role"
        />
        <Button
          disabled={count === 0}
          loading={invite.isPending}
          onClick={() =>
            invite.mutate(
              { role, users, teams },
              {
                onSuccess: () => {
                  notifySuccess(count === 1 ? `Shared as ${ROLE_LABELS[role]}` : `Shared with ${count} as ${ROLE_LABELS[role]}`)
                  setUsers([])
                  setTeams([])
                }
              }
            )
          }
          data-testid="share-submit"
        >
          Share
        </Button>
      </Group>
    </Stack>
  )
}

function GrantRow({
  target,
  principal,
  name,
  detail,
  role,
  avatar
}: {
  target: ShareTarget
  principal: Principal
  name: string
  detail: string
  role: Role
  avatar: ReactNode
}) {
  const setGrant = useSetGrant(target)
  const remove = useRemoveGrant(target)
  return (
    <Group justify="space-between" wrap="nowrap" py={6} data-testid="share-grant" data-name={name}>
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        {avatar}
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" fw={500} truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {detail}
          </Text>
        </Stack>
      </Group>
      {target.canAdmin ? (
        <Group gap="xs" wrap="nowrap">
          <Select
            aria-label={`Role of ${name}`}
            data={ROLE_OPTIONS}
            value={role}
            allowDeselect={false}
            w={140}
            size="xs"
            comboboxProps={{ withinPortal: true }}
            onChange={(v) => v && v !== role && setGrant.mutate({ principal, role: v as Role })}
          />
          <Tooltip label="Remove access">
            <ActionIcon
              color="red"
              variant="subtle"
              aria-label={`Remove ${name}`}
              loading={remove.isPending}
              onClick={() => remove.mutate(principal)}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ) : (
        <Badge color={ROLE_COLORS[role]} variant="light">
          {ROLE_LABELS[role]}
        </Badge>
      )}
    </Group>
  )
}

function DirectGrants({ target }: { target: ShareTarget }) {
  const users = useQuery(accessUsersQuery(target))
  const teams = useQuery(accessTeamsQuery(target))
  if (users.isPending || teams.isPending) return <RowsSkeleton rows={3} />
  const userRows = users.data ?? []
  const teamRows = teams.data ?? []
  if (!userRows.length && !teamRows.length) {
    return (
      <Text size="sm" c="dimmed" py="sm">
        {target.kind === 'site'
          ? 'Not shared with anyone directly: access comes from the organization roles.'
          : 'Not shared with anyone directly: access comes from the organization and the collections above.'}
      </Text>
    )
  }
  return (
    <Stack gap={0} aria-label="Shared with" data-testid="share-direct">
      {teamRows.map(({ team, permission }) => (
        <GrantRow
          key={team.id}
          target={target}
          principal={{ type: 'team', id: team.id }}
          name={team.title}
          detail={`Team · ${team.members} ${team.members === 1 ? 'member' : 'members'}`}
          role={permission}
          avatar={
            <Avatar size={30} radius="md" color="initials" name={team.title}>
              <IconUsersGroup size={16} />
            </Avatar>
          }
        />
      ))}
      {userRows.map(({ user, permission }) => {
        const name = user.displayName || user.email || user.id
        return (
          <GrantRow
            key={user.id}
            target={target}
            principal={{ type: 'user', id: user.id }}
            name={name}
            detail={user.email ?? ''}
            role={permission}
            avatar={
              <Avatar size={30} radius="xl" color="initials" name={name}>
                {initials(name)}
              </Avatar>
            }
          />
        )
      })}
    </Stack>
  )
}

function EveryoneWithAccess({ target }: { target: ShareTarget }) {
  const everyone = useQuery(accessAggregateQuery(target))
  const [explained, setExplained] = useState<string | null>(null)
  if (everyone.isPending) return <RowsSkeleton rows={4} />
  return (
    <Stack gap={0} aria-label="Everyone with access" data-testid="share-everyone">
      {(everyone.data ?? []).map((item) => (
        <AggregateRow
          key={item.user.id}
          item={item}
          kind={target.kind}
          open={explained === item.user.id}
          onToggle={() => setExplained(explained === item.user.id ? null : item.user.id)}
        />
      ))}
    </Stack>
  )
}

function AggregateRow({ item, kind, open, onToggle }: { item: AggregatePermission; kind: AccessKind; open: boolean; onToggle(): void }) {
  const name = item.user.displayName || item.user.email || item.user.id
  const inherited = !item.sources.some(isDirect)
  return (
    <Stack gap={2} py={6} data-testid="share-person" data-name={name}>
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Avatar size={30} radius="xl" color="initials" name={name}>
            {initials(name)}
          </Avatar>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} truncate>
              {name}
            </Text>
            <Text size="xs" c="dimmed" truncate data-testid="share-person-sources">
              {(inherited ? 'Inherited: ' : '') + item.sources.map((s) => sourceLabel(s, kind)).join(' · ')}
            </Text>
          </Stack>
        </Group>
        <Group gap={4} wrap="nowrap">
          <Badge color={ROLE_COLORS[item.permission]} variant="light" data-testid="share-person-role">
            {ROLE_LABELS[item.permission]}
          </Badge>
          <Tooltip label="Why this role?">
            <ActionIcon
              variant="subtle"
              aria-label={`Why is ${name} ${ROLE_LABELS[item.permission]}?`}
              aria-expanded={open}
              onClick={onToggle}
            >
              <IconInfoCircle size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {open && (
        <UnstyledButton onClick={onToggle} pl={42}>
          <Text size="sm" data-testid="share-explanation">
            {explainRole(item, kind)}
          </Text>
        </UnstyledButton>
      )}
    </Stack>
  )
}
