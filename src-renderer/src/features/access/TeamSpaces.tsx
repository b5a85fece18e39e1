import { useState } from 'react'
import { ActionIcon, Badge, Button, Drawer, Group, Select, Stack, Text, Tooltip } from '@mantine/core'
import { IconTrash } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { Role, Team, TeamSpacePermission } from '../../api/types.ts'
import { notifySuccess } from '../../app/notify.ts'
import { ROLE_COLORS, ROLE_LABELS, roleOptions } from '../common/roles.ts'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { RouterAnchor } from '../common/links.tsx'
import { spacesQuery } from '../content/queries.ts'
import { teamSpacesQuery, useRemoveGrant, useSetGrant } from './queries.ts'

const ROLE_OPTIONS = roleOptions(false)

/** A team's spaces (its grants) and, for admins of a space, giving the team a role on it or taking it back. */
export function TeamSpacesDrawer({ orgId, team, onClose }: { orgId: string; team: Team | null; onClose(): void }) {
  return (
    <Drawer opened={!!team} onClose={onClose} position="right" size={480} title={team ? `${team.title} · spaces` : ''}>
      {team && <TeamSpacesPanel orgId={orgId} team={team} />}
    </Drawer>
  )
}

function TeamSpacesPanel({ orgId, team }: { orgId: string; team: Team }) {
  const granted = useQuery(teamSpacesQuery(orgId, team.id))
  const spaces = useQuery(spacesQuery(orgId)).data ?? []
  const [spaceId, setSpaceId] = useState<string | null>(null)
  const [role, setRole] = useState<Role>('read')
  const grant = useSetGrant({ kind: 'space', id: spaceId ?? '', organization: orgId })
  const current = granted.data ?? []
  const has = new Set(current.map((g) => g.space.id))
  // Only a space's admins manage who has access to it.
  const adminOf = new Set(spaces.filter((s) => s.permissions.admin).map((s) => s.id))
  const choices = spaces
    .filter((s) => adminOf.has(s.id) && !has.has(s.id))
    .map((s) => ({ value: s.id, label: s.title || 'Untitled space' }))
  return (
    <Stack gap="lg" data-testid="team-spaces">
      {choices.length > 0 && (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Select
            label="Give access to a space"
            placeholder="Pick a space"
            searchable
            data={choices}
            value={spaceId}
            onChange={setSpaceId}
            comboboxProps={{ withinPortal: true }}
            style={{ flex: 1 }}
            data-testid="team-space-picker"
          />
          <Select
            aria-label="Role for the team"
            data={ROLE_OPTIONS}
            value={role}
            onChange={(v) => v && setRole(v as Role)}
            allowDeselect={false}
            w={130}
            comboboxProps={{ withinPortal: true }}
            data-testid="team-space-role"
          />
          <Button
            disabled={!spaceId}
            loading={grant.isPending}
            onClick={() =>
              grant.mutate(
                { principal: { type: 'team', id: team.id }, role },
                {
                  onSuccess: () => {
                    notifySuccess(`${team.title} is ${ROLE_LABELS[role]} on the space`)
                    setSpaceId(null)
                  }
                }
              )
            }
            data-testid="team-space-submit"
          >
            Grant
          </Button>
        </Group>
      )}
      <Stack gap={0}>
        <Text size="xs" fw={600} c="dimmed" tt="uppercase" mb={6}>
          {current.length} {current.length === 1 ? 'space' : 'spaces'}
        </Text>
        {granted.isPending ? (
          <RowsSkeleton rows={3} />
        ) : current.length === 0 ? (
          <Text size="sm" c="dimmed" py="md">
            This team has no access to any space yet.
          </Text>
        ) : (
          current.map((g) => <TeamSpaceRow key={g.space.id} orgId={orgId} team={team} grant={g} canAdmin={adminOf.has(g.space.id)} />)
        )}
      </Stack>
    </Stack>
  )
}

function TeamSpaceRow({ orgId, team, grant, canAdmin }: { orgId: string; team: Team; grant: TeamSpacePermission; canAdmin: boolean }) {
  const subject = { kind: 'space' as const, id: grant.space.id, organization: orgId }
  const setGrant = useSetGrant(subject)
  const remove = useRemoveGrant(subject)
  const title = grant.space.title || 'Untitled space'
  const principal = { type: 'team' as const, id: team.id }
  return (
    <Group justify="space-between" wrap="nowrap" py={6} data-testid="team-space-row" data-name={title}>
      <RouterAnchor to="/spaces/$spaceId" params={{ spaceId: grant.space.id }} size="sm" fw={500} truncate>
        {title}
      </RouterAnchor>
      {canAdmin ? (
        <Group gap="xs" wrap="nowrap">
          <Select
            aria-label={`Role of ${team.title} on ${title}`}
            data={ROLE_OPTIONS}
            value={grant.permission}
            allowDeselect={false}
            w={130}
            size="xs"
            comboboxProps={{ withinPortal: true }}
            onChange={(v) => v && v !== grant.permission && setGrant.mutate({ principal, role: v as Role })}
          />
          <Tooltip label="Remove the team's access">
            <ActionIcon
              color="red"
              variant="subtle"
              aria-label={`Remove ${team.title} from ${title}`}
              loading={remove.isPending}
              onClick={() => remove.mutate(principal)}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ) : (
        <Badge color={ROLE_COLORS[grant.permission]} variant="light">
          {ROLE_LABELS[grant.permission]}
        </Badge>
      )}
    </Group>
  )
}
