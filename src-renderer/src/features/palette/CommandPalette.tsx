import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import { Text, useComputedColorScheme, useMantineColorScheme } from '@mantine/core'
import { Spotlight, spotlight } from '@mantine/spotlight'
import {
  IconBuilding,
  IconCloud,
  IconDatabase,
  IconFileText,
  IconFiles,
  IconFolder,
  IconFolderPlus,
  IconForms,
  IconGitPullRequest,
  IconHistory,
  IconKeyboard,
  IconLayoutSidebar,
  IconLink,
  IconMessageCircle,
  IconPalette,
  IconPlus,
  IconSearch,
  IconSettings,
  IconShieldLock,
  IconStack2,
  IconTrash,
  IconUsers,
  IconUsersGroup,
  IconWorld
} from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useNavigate, useParams } from '@tanstack/react-router'
import { useUiStore } from '../../stores/uiStore.ts'
import { NewChangeRequestDialog } from '../changeRequests/NewChangeRequestDialog.tsx'
import { spaceQuery } from '../content/queries.ts'
import { orgsQuery } from '../orgs/queries.ts'
import { usePageActions } from '../pages/pageActions.tsx'
import { usePagesUi } from '../pages/pagesUiStore.ts'
import { useSwitchWorkspace, workspacesQuery } from '../workspaces/queries.ts'
import { COMMANDS, matchesHotkey, paletteCommands, type CommandActions, type CommandContext } from './commands.ts'
import { groupItems, useContentSearch, useLoadedContent, workspaceItems, type PaletteItem } from './paletteSources.ts'
import { Keys, ShortcutsSheet } from './ShortcutsSheet.tsx'
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
  'connected-workspace': IconCloud
} as const

const COMMAND_ICONS: Record<string, typeof IconUsers> = {
  'go-sites': IconWorld,
  'go-members': IconUsers,
  'go-teams': IconUsersGroup,
  'go-invites': IconLink,
  'go-settings': IconSettings,
  'go-sso': IconShieldLock,
  'go-fields': IconForms,
  'go-trash': IconTrash,
  'space-pages': IconFileText,
  'space-change-requests': IconGitPullRequest,
  'space-comments': IconMessageCircle,
  'space-files': IconFiles,
  'space-links': IconLink,
  'space-history': IconHistory,
  'new-collection': IconFolderPlus,
  shortcuts: IconKeyboard,
  palette: IconSearch,
  'toggle-theme': IconPalette,
  'toggle-sidebar': IconLayoutSidebar,
  'toggle-comments': IconMessageCircle
}

/**
 * The command palette (Ctrl/Cmd+K, F1, Ctrl/Cmd+Shift+P): every command of the registry that applies where the
 * user is (`commands.ts`), any loaded space or collection, pages by their text, other organizations and
 * workspaces. It also owns the keyboard shortcuts sheet and the registry's global keys.
 */
export function CommandPalette({ orgId }: { orgId: string | undefined }) {
  const navigate = useNavigate()
  const [query, setQuery] = useState('')
  const [opened, setOpened] = useState(false)
  const [sheetOpen, setSheetOpen] = useState(false)
  const [creatingCr, setCreatingCr] = useState(false)
  const openDialog = useUiStore((s) => s.openContentDialog)
  const toggleSidebar = useUiStore((s) => s.toggleSidebar)
  const { setColorScheme } = useMantineColorScheme()
  const scheme = useComputedColorScheme('light')
  const orgsData = useQuery(orgsQuery()).data
  const orgs = useMemo(() => orgsData ?? [], [orgsData])
  const { spaces, collections } = useLoadedContent(orgId, opened)
  const toPage = useCallback(
    (spaceId: string, pageId: string, section?: string) =>
      void navigate({ to: '/spaces/$spaceId/pages/$pageId', params: { spaceId, pageId }, hash: section }),
    [navigate]
  )
  const search = useContentSearch(orgId, query, toPage)
  const workspaces = useQuery({ ...workspacesQuery(), retry: false }).data
  const switchWorkspace = useSwitchWorkspace()
  const workspaceList = useMemo(() => workspaceItems(workspaces, (w) => void switchWorkspace(w)), [workspaces, switchWorkspace])

  // Where the user is: the address's space, page and change request.
  const params = useParams({ strict: false }) as { spaceId?: string; pageId?: string; number?: string }
  const spaceId = params.spaceId
  const space = useQuery({ ...spaceQuery(spaceId ?? ''), enabled: !!spaceId }).data
  const scope = useMemo(
    () => ({ spaceId: spaceId ?? '', changeRequest: params.number ? Number(params.number) : undefined }),
    [spaceId, params.number]
  )
  const pageActions = usePageActions(scope, params.pageId)
  const ctx: CommandContext = {
    orgId: orgId ?? space?.organization,
    spaceId,
    pageId: params.pageId,
    changeRequest: params.number,
    canEditSpace: !!space?.permissions.edit
  }
  const actions: CommandActions = {
    go: (to, goParams) => void navigate({ to, params: goParams } as never),
    newSpace: () => {
      if (!ctx.orgId) return
      void navigate({ to: '/orgs/$orgId', params: { orgId: ctx.orgId } })
      openDialog({ kind: 'create-space', parent: null })
    },
    newCollection: () => {
      if (!ctx.orgId) return
      void navigate({ to: '/orgs/$orgId', params: { orgId: ctx.orgId } })
      openDialog({ kind: 'create-collection', parent: null })
    },
    newPage: () => pageActions.add(null),
    newChangeRequest: () => setCreatingCr(true),
    togglePalette: () => spotlight.toggle(),
    openShortcuts: () => {
      spotlight.close()
      setSheetOpen(true)
    },
    toggleTheme: () => setColorScheme(scheme === 'dark' ? 'light' : 'dark'),
    toggleSidebar,
    toggleComments: () => usePagesUi.getState().toggleComments()
  }
  // The key listener is installed once and reads the latest context and actions.
  const latest = useRef({ ctx, actions })
  latest.current = { ctx, actions }
  useCommandKeys(latest)

  // The commands that apply here, by id (the palette does not list itself): their items are made again only when
  // that list changes, and each runs with the latest context and actions.
  const commandKey = paletteCommands(ctx)
    .filter((command) => command.id !== 'palette')
    .map((command) => command.id)
    .join()
  const commandItems = useMemo(() => {
    const ids = new Set(commandKey.split(','))
    return COMMANDS.filter((command) => ids.has(command.id)).map<PaletteItem>((command) => ({
      id: command.id,
      group: command.group,
      label: command.title,
      keywords: command.keywords,
      keys: command.keys,
      command: true,
      icon: command.group === 'Go to' || command.group === 'Space' ? 'screen' : 'action',
      run: () => command.run!(latest.current.ctx, latest.current.actions)
    }))
  }, [commandKey])

  const items = useMemo<PaletteItem[]>(() => {
    if (!orgId) return [...commandItems, ...workspaceList]
    const collectionTitle = new Map(collections.map((c) => [c.id, c.title]))
    return [
      ...commandItems,
      ...spaces.map<PaletteItem>((s) => ({
        id: `space-${s.id}`,
        group: 'Spaces',
        label: s.title || 'Untitled space',
        description: s.parent ? collectionTitle.get(s.parent) : undefined,
        icon: 'space',
        emoji: emojiText(s.emoji) || undefined,
        run: () => void navigate({ to: '/spaces/$spaceId', params: { spaceId: s.id } })
      })),
      ...collections.map<PaletteItem>((c) => ({
        id: `collection-${c.id}`,
        group: 'Collections',
        label: c.title || 'Untitled collection',
        description: c.parent ? collectionTitle.get(c.parent) : undefined,
        icon: 'collection',
        run: () => void navigate({ to: '/collections/$collectionId', params: { collectionId: c.id } })
      })),
      ...search.items,
      ...orgs
        .filter((o) => o.id !== orgId)
        .map<PaletteItem>((o) => ({
          id: `org-${o.id}`,
          group: 'Switch organization',
          label: o.title,
          icon: 'org',
          run: () => void navigate({ to: '/orgs/$orgId', params: { orgId: o.id } })
        })),
      ...workspaceList
    ]
  }, [orgId, spaces, collections, orgs, search.items, workspaceList, navigate, commandItems])

  // With no query, show the commands and the first spaces; typing searches everything loaded.
  const quiet = new Set(['Collections', 'Switch organization', 'Switch workspace', 'View'])
  const groups = groupItems(query ? items : items.filter((i) => !quiet.has(i.group)), query.trim())

  return (
    <>
      <Spotlight.Root
        query={query}
        onQueryChange={setQuery}
        // The registry's keys open it (`useCommandKeys`), so one listener decides for every command.
        shortcut={null}
        tagsToIgnore={[]}
        lockScroll={false}
        scrollable
        maxHeight={480}
        onSpotlightOpen={() => setOpened(true)}
        onSpotlightClose={() => setOpened(false)}
        data-testid="palette"
      >
        <Spotlight.Search
          placeholder="Type a command, or search spaces and pages…"
          leftSection={<IconSearch size={18} stroke={1.6} />}
          data-testid="palette-input"
        />
        <Spotlight.ActionsList>
          {groups.map(({ group, items: groupItemsList }) => (
            <Spotlight.ActionsGroup key={group} label={group}>
              {groupItemsList.map((item) => {
                const Icon = iconFor(item)
                return (
                  <Spotlight.Action
                    key={item.id}
                    onClick={item.run}
                    data-testid="palette-item"
                    data-command={item.command ? item.id : undefined}
                    leftSection={
                      item.emoji ? (
                        <span className={classes.emoji}>{item.emoji}</span>
                      ) : (
                        <Icon size={18} stroke={1.6} color="var(--mantine-color-dimmed)" />
                      )
                    }
                    rightSection={item.keys?.[0] ? <Keys hotkey={item.keys[0]} size="xs" /> : undefined}
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
      <ShortcutsSheet opened={sheetOpen} onClose={() => setSheetOpen(false)} />
      {spaceId && (
        <NewChangeRequestDialog
          spaceId={spaceId}
          opened={creatingCr}
          onClose={() => setCreatingCr(false)}
          onCreated={(cr) => {
            setCreatingCr(false)
            void navigate({ to: '/spaces/$spaceId/change-requests/$number', params: { spaceId, number: String(cr.number) } })
          }}
        />
      )}
    </>
  )
}

/** Where a key press lands while typing: a field, or editable content (inside a shadow root too). */
function isTyping(event: KeyboardEvent): boolean {
  const target = event.composedPath()[0]
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

/**
 * The registry's global keys: a command runs when one of its keys is pressed where it applies. A key something
 * else already handled (the editor's Mod-/ toggles a comment) is left to it; keys not meant for typing are ignored
 * in fields and editors.
 */
function useCommandKeys(latest: RefObject<{ ctx: CommandContext; actions: CommandActions }>) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat) return
      const { ctx, actions } = latest.current
      for (const command of paletteCommands(ctx)) {
        if (!command.keys?.some((hotkey) => matchesHotkey(hotkey, event))) continue
        if (!command.inText && isTyping(event)) return
        event.preventDefault()
        command.run!(ctx, actions)
        return
      }
    }
    document.documentElement.addEventListener('keydown', onKeyDown)
    return () => document.documentElement.removeEventListener('keydown', onKeyDown)
  }, [latest])
}

function iconFor(item: PaletteItem) {
  return COMMAND_ICONS[item.id] ?? ICONS[item.icon]
}
