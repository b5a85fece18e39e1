import { useCallback, useMemo, useState } from 'react'
import { Text } from '@mantine/core'
import { Spotlight } from '@mantine/spotlight'
import {
  IconBuilding,
  IconCloud,
  IconDatabase,
  IconFileText,
  IconFolder,
  IconFolderPlus,
  IconForms,
  IconLink,
  IconPlus,
  IconSearch,
  IconSettings,
  IconShieldLock,
  IconStack2,
  IconTrash,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useUiStore } from '../../stores/uiStore.ts'
import { orgsQuery } from '../orgs/queries.ts'
import { useSwitchWorkspace, workspacesQuery } from '../workspaces/queries.ts'
import { groupItems, useContentSearch, useLoadedContent, workspaceItems, type PaletteItem } from './paletteSources.ts'
import classes from './CommandPalette.module.css'
import { emojiText } from '../common/emoji.ts'

const ICONS = {
  screen: IconStack2,
  action: IconPlus,
  org: IconBuilding,
  collection: IconFolder,
  page: IconFileText,
  space: IconFileText,
  workspace: IconDatabase,
  'connected-workspace': IconCloud,
} as const

/** Ctrl/Cmd+K: jump to any loaded space or collection, any screen, or start a common action. */
export function CommandPalette({ orgId }: { orgId: string | undefined }) {
  const navigate = useNavigate()
  const [query, setQuery] = useState('')
  const [opened, setOpened] = useState(false)
  const openDialog = useUiStore((s) => s.openContentDialog)
  const orgs = useQuery(orgsQuery()).data ?? []
  const { spaces, collections } = useLoadedContent(orgId, opened)
  const toPage = useCallback(
    (spaceId: string, pageId: string, section?: string) => void navigate({ to: '/spaces/$spaceId/pages/$pageId', params: { spaceId, pageId }, hash: section }),
    [navigate],
  )
  const search = useContentSearch(orgId, query, toPage)
  const workspaces = useQuery({ ...workspacesQuery(), retry: false }).data
  const switchWorkspace = useSwitchWorkspace()
  const workspaceList = useMemo(() => workspaceItems(workspaces, (w) => void switchWorkspace(w)), [workspaces, switchWorkspace])

  const items = useMemo<PaletteItem[]>(() => {
    if (!orgId) return workspaceList
    const params = { orgId }
    const collectionTitle = new Map(collections.map((c) => [c.id, c.title]))
    const list: PaletteItem[] = [
      { id: 'go-spaces', group: 'Go to', label: 'Spaces', description: 'The organization home', icon: 'screen', run: () => void navigate({ to: '/orgs/$orgId', params }) },
      { id: 'go-members', group: 'Go to', label: 'Members', description: 'Team', icon: 'screen', keywords: 'people users roles', run: () => void navigate({ to: '/orgs/$orgId/team/members', params }) },
      { id: 'go-teams', group: 'Go to', label: 'Teams', description: 'Team', icon: 'screen', keywords: 'groups', run: () => void navigate({ to: '/orgs/$orgId/team/teams', params }) },
      { id: 'go-invites', group: 'Go to', label: 'Invites', description: 'Team', icon: 'screen', keywords: 'invite links e-mail', run: () => void navigate({ to: '/orgs/$orgId/team/invites', params }) },
      { id: 'go-settings', group: 'Go to', label: 'Organization settings', description: 'Settings', icon: 'screen', keywords: 'hostname domains default role', run: () => void navigate({ to: '/orgs/$orgId/settings', params }) },
      { id: 'go-sso', group: 'Go to', label: 'Single sign-on', description: 'Settings', icon: 'screen', keywords: 'saml sso identity provider', run: () => void navigate({ to: '/orgs/$orgId/settings/sso', params }) },
      { id: 'go-fields', group: 'Go to', label: 'Custom fields', description: 'Settings', icon: 'screen', keywords: 'metadata', run: () => void navigate({ to: '/orgs/$orgId/settings/custom-fields', params }) },
      { id: 'go-trash', group: 'Go to', label: 'Trash', description: 'Deleted spaces', icon: 'screen', keywords: 'restore deleted', run: () => void navigate({ to: '/orgs/$orgId/trash', params }) },
      {
        id: 'new-space',
        group: 'Actions',
        label: 'New space',
        icon: 'action',
        run: () => {
          void navigate({ to: '/orgs/$orgId', params })
          openDialog({ kind: 'create-space', parent: null })
        },
      },
      {
        id: 'new-collection',
        group: 'Actions',
        label: 'New collection',
        icon: 'action',
        run: () => {
          void navigate({ to: '/orgs/$orgId', params })
          openDialog({ kind: 'create-collection', parent: null })
        },
      },
      ...spaces.map<PaletteItem>((s) => ({
        id: `space-${s.id}`,
        group: 'Spaces',
        label: s.title || 'Untitled space',
        description: s.parent ? collectionTitle.get(s.parent) : undefined,
        icon: 'space',
        emoji: emojiText(s.emoji) || undefined,
        run: () => void navigate({ to: '/spaces/$spaceId', params: { spaceId: s.id } }),
      })),
      ...collections.map<PaletteItem>((c) => ({
        id: `collection-${c.id}`,
        group: 'Collections',
        label: c.title || 'Untitled collection',
        description: c.parent ? collectionTitle.get(c.parent) : undefined,
        icon: 'collection',
        run: () => void navigate({ to: '/collections/$collectionId', params: { collectionId: c.id } }),
      })),
      ...search.items,
      ...orgs
        .filter((o) => o.id !== orgId)
        .map<PaletteItem>((o) => ({
          id: `org-${o.id}`,
          group: 'Switch organization',
          label: o.title,
          icon: 'org',
          run: () => void navigate({ to: '/orgs/$orgId', params: { orgId: o.id } }),
        })),
      ...workspaceList,
    ]
    return list
  }, [orgId, spaces, collections, orgs, search.items, workspaceList, navigate, openDialog])

  // With no query, show where to go and the first spaces; typing searches everything loaded.
  const quiet = new Set(['Collections', 'Switch organization', 'Switch workspace'])
  const groups = groupItems(query ? items : items.filter((i) => !quiet.has(i.group)), query.trim())

  return (
    <Spotlight.Root
      query={query}
      onQueryChange={setQuery}
      shortcut={['mod + K']}
      tagsToIgnore={[]}
      lockScroll={false}
      scrollable
      maxHeight={440}
      onSpotlightOpen={() => setOpened(true)}
      onSpotlightClose={() => setOpened(false)}
      data-testid="palette"
    >
      <Spotlight.Search placeholder="Search spaces, collections and screens…" leftSection={<IconSearch size={18} stroke={1.6} />} data-testid="palette-input" />
      <Spotlight.ActionsList>
        {groups.map(({ group, items: groupItemsList }) => (
          <Spotlight.ActionsGroup key={group} label={group}>
            {groupItemsList.map((item) => {
              const Icon = item.id === 'new-collection' ? IconFolderPlus : iconFor(item)
              return (
                <Spotlight.Action
                  key={item.id}
                  onClick={item.run}
                  data-testid="palette-item"
                  leftSection={
                    item.emoji ? (
                      <span className={classes.emoji}>{item.emoji}</span>
                    ) : (
                      <Icon size={18} stroke={1.6} color="var(--mantine-color-dimmed)" />
                    )
                  }
                  label={item.label}
                  description={item.description}
                />
              )
            })}
          </Spotlight.ActionsGroup>
        ))}
        {groups.length === 0 && (
          <Spotlight.Empty>
            <Text size="sm" c="dimmed">
              {search.searching ? 'Searching…' : `Nothing matches “${query}”`}
            </Text>
          </Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  )
}

function iconFor(item: PaletteItem) {
  if (item.icon !== 'screen') return ICONS[item.icon]
  const byId: Record<string, typeof IconUsers> = {
    'go-members': IconUsers,
    'go-teams': IconUsersGroup,
    'go-invites': IconLink,
    'go-settings': IconSettings,
    'go-sso': IconShieldLock,
    'go-fields': IconForms,
    'go-trash': IconTrash,
  }
  return byId[item.id] ?? IconStack2
}
