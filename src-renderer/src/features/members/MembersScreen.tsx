import { useEffect, useEffectEvent, useState } from 'react'
import { ActionIcon, Avatar, Badge, Group, Menu, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { modals } from '@mantine/modals'
import { IconDots, IconSearch, IconSortAscending, IconSortDescending, IconUserMinus, IconUsers } from '@tabler/icons-react'
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import type { Member, Role } from '../../api/types.ts'
import { notifySuccess } from '../../app/notify.ts'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { formatDate, formatRelative, initials } from '../common/format.ts'
import { ROLE_LABELS, fromRoleValue, isLowerRole, roleOptions, selfDemotionConsequence, toRoleValue } from '../common/roles.ts'
import { useReportAppState } from '../../app/appState.ts'
import { NextPageStatus } from '../common/NextPageStatus.tsx'
import { useLoadMoreNearEnd, usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import { userQuery } from '../orgs/queries.ts'
import { membersQuery, useRemoveMember, useUpdateMemberRole, type MemberFilters } from './queries.ts'
import classes from '../common/DataTable.module.css'

const ROW_HEIGHT = 56
const COLUMNS = 'minmax(220px, 2.4fr) 150px 64px 64px 110px 110px 36px'
/** Without Teams, Spaces and Joined: a table under 860 px wide. */
const NARROW_COLUMNS = 'minmax(180px, 1fr) 150px 110px 36px'
const ALL = 'all'

/** Everyone in the organization: search, filter by role, sort; change a role or remove someone in place. */
export function MembersScreen({
  orgId,
  filters,
  onFiltersChange,
  canAdmin
}: {
  orgId: string
  filters: MemberFilters
  onFiltersChange(filters: MemberFilters): void
  canAdmin: boolean
}) {
  const [search, setSearch] = useState(filters.search ?? '')
  const [debounced] = useDebouncedValue(search, 250)
  // Only the typed text drives this (an effect event reads the other filters): filter changes from elsewhere keep the
  // box as it is.
  const applySearch = useEffectEvent((typed: string) => {
    if ((filters.search ?? '') !== typed) onFiltersChange({ ...filters, search: typed || undefined })
  })
  useEffect(() => applySearch(debounced), [debounced])

  const query = useInfiniteQuery({ ...membersQuery(orgId, filters), placeholderData: keepPreviousData })
  const me = useQuery(userQuery()).data
  const members = query.data?.pages.flatMap((p) => p.items) ?? []
  const total = query.data?.pages[0]?.count ?? 0
  useReportAppState(query.data ? 'ready' : 'loading')

  const { listRef, virtualizer, scrollMargin } = usePageVirtualizer({
    count: members.length,
    rowHeight: ROW_HEIGHT,
    getItemKey: (i) => members[i]!.id
  })
  const items = virtualizer.getVirtualItems()
  useLoadMoreNearEnd(items[items.length - 1]?.index, members.length, query)

  const order = filters.order ?? 'desc'
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap">
        <TextInput
          placeholder="Search by name or e-mail"
          leftSection={<IconSearch size={15} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          style={{ flex: 1, maxWidth: 360 }}
          data-testid="member-search"
          aria-label="Search members"
        />
        <Select
          aria-label="Filter by role"
          data={[{ value: ALL, label: 'All roles' }, ...roleOptions(false)]}
          value={filters.role ?? ALL}
          onChange={(v) => onFiltersChange({ ...filters, role: !v || v === ALL ? undefined : (v as Role) })}
          w={150}
          data-testid="member-role-filter"
        />
        <Select
          aria-label="Sort by"
          data={[
            { value: 'joinedAt', label: 'Sort by joined' },
            { value: 'lastSeenAt', label: 'Sort by last seen' }
          ]}
          value={filters.sort ?? 'joinedAt'}
          onChange={(v) => onFiltersChange({ ...filters, sort: (v as MemberFilters['sort']) ?? undefined })}
          w={170}
        />
        <Tooltip label={order === 'desc' ? 'Newest first' : 'Oldest first'}>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Toggle sort order"
            onClick={() => onFiltersChange({ ...filters, order: order === 'desc' ? 'asc' : 'desc' })}
          >
            {order === 'desc' ? <IconSortDescending size={16} /> : <IconSortAscending size={16} />}
          </ActionIcon>
        </Tooltip>
        <span style={{ flex: 1 }} />
        <Text size="sm" c="dimmed" data-testid="member-count">
          {total} {total === 1 ? 'member' : 'members'}
        </Text>
      </Group>
      {filters.sort === 'lastSeenAt' && (
        <Text size="xs" c="dimmed">
          Sorting by last seen lists only members who have been active.
        </Text>
      )}
      <div className={classes.table} style={{ ['--columns' as string]: COLUMNS, ['--columns-narrow' as string]: NARROW_COLUMNS }}>
        <div className={classes.head}>
          <span>Member</span>
          <span>Role</span>
          <span className={classes.wide}>Teams</span>
          <span className={classes.wide}>Spaces</span>
          <span className={classes.wide}>Joined</span>
          <span>Last seen</span>
          <span />
        </div>
        {!query.data ? (
          <div style={{ padding: 16 }}>
            <RowsSkeleton rows={6} />
          </div>
        ) : members.length === 0 ? (
          <Stack align="center" gap={4} py={48}>
            <IconUsers size={28} stroke={1.5} color="var(--mantine-color-dimmed)" />
            <Text fw={500}>No members match</Text>
            <Text size="sm" c="dimmed">
              Try another search or role.
            </Text>
          </Stack>
        ) : (
          <div ref={listRef} className={classes.body} style={{ height: virtualizer.getTotalSize() }} data-testid="member-list">
            {items.map((item) => (
              <MemberRow
                key={item.key}
                orgId={orgId}
                member={members[item.index]!}
                isMe={members[item.index]!.id === me?.id}
                canAdmin={canAdmin}
                top={item.start - scrollMargin}
              />
            ))}
          </div>
        )}
        <NextPageStatus
          className={classes.footer}
          fetching={query.isFetchingNextPage}
          failed={query.isFetchNextPageError}
          error={query.error}
          what="More members"
          retry={() => void query.fetchNextPage()}
        />
      </div>
    </Stack>
  )
}

function confirmSelfDemotion(from: Role | null, to: Role | null, onConfirm: () => void) {
  modals.openConfirmModal({
    title: `Lower your own role to ${to ? ROLE_LABELS[to] : 'guest'}?`,
    children: <Text size="sm">{selfDemotionConsequence(from, to)}</Text>,
    labels: { confirm: 'Lower my role', cancel: 'Cancel' },
    confirmProps: { color: 'red', 'data-testid': 'confirm-self-demotion' } as Record<string, unknown>,
    onConfirm
  })
}

function MemberRow({
  orgId,
  member,
  isMe,
  canAdmin,
  top
}: {
  orgId: string
  member: Member
  isMe: boolean
  canAdmin: boolean
  top: number
}) {
  const updateRole = useUpdateMemberRole(orgId)
  const remove = useRemoveMember(orgId)
  const name = member.user.displayName || member.user.email || member.id
  const confirmRemove = () =>
    modals.openConfirmModal({
      title: 'Remove member?',
      children: <Text size="sm">{name} loses access to the organization and its content. Their spaces and edits stay.</Text>,
      labels: { confirm: 'Remove', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(member.id, { onSuccess: () => notifySuccess(`${name} was removed`) })
    })

  return (
    <div className={classes.row} style={{ transform: `translateY(${top}px)` }} data-testid="member-row" data-member-id={member.id}>
      <Group gap="sm" wrap="nowrap" className={classes.cell}>
        <Avatar size={32} radius="xl" color="initials" name={name} src={member.user.photoURL}>
          {initials(name)}
        </Avatar>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={500} truncate data-testid="member-name">
              {name}
            </Text>
            {isMe && (
              <Badge size="xs" color="gray">
                You
              </Badge>
            )}
            {member.sso && (
              <Badge size="xs" color="cyan">
                SSO
              </Badge>
            )}
            {member.disabled && (
              <Badge size="xs" color="red">
                Disabled
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" truncate data-testid="member-email">
            {member.user.email}
          </Text>
        </Stack>
      </Group>
      <div className={classes.cell}>
        {canAdmin ? (
          <Select
            size="xs"
            aria-label={`Role of ${name}`}
            data={roleOptions(true)}
            value={toRoleValue(member.role)}
            onChange={(v) => {
              const role = fromRoleValue(v)
              if (role === member.role) return
              const change = () =>
                updateRole.mutate(
                  { userId: member.id, role },
                  { onSuccess: () => notifySuccess(`${name} is now ${role ? ROLE_LABELS[role] : 'a guest'}`) }
                )
              // Lowering one's own role cannot be taken back alone: say so first. Others' roles change at once.
              if (isMe && isLowerRole(member.role ?? null, role)) confirmSelfDemotion(member.role ?? null, role, change)
              else change()
            }}
            disabled={updateRole.isPending}
            data-testid="member-role"
            comboboxProps={{ withinPortal: true }}
          />
        ) : (
          <Text size="sm">{member.role ? ROLE_LABELS[member.role] : 'Guest'}</Text>
        )}
      </div>
      <Text className={`${classes.cell} ${classes.wide}`} c="dimmed">
        {member.teams}
      </Text>
      <Text className={`${classes.cell} ${classes.wide}`} c="dimmed">
        {member.spaces}
      </Text>
      <Text className={`${classes.cell} ${classes.wide}`} c="dimmed" title={member.joinedAt}>
        {formatDate(member.joinedAt)}
      </Text>
      <Text className={classes.cell} c="dimmed" title={member.lastSeenAt}>
        {member.lastSeenAt ? formatRelative(member.lastSeenAt) : 'Never'}
      </Text>
      <div className={classes.cell}>
        {canAdmin && (
          <Menu>
            <Menu.Target>
              <ActionIcon aria-label={`Actions for ${name}`} data-testid="member-menu">
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item color="red" leftSection={<IconUserMinus size={16} />} onClick={confirmRemove}>
                Remove from organization
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </div>
    </div>
  )
}
