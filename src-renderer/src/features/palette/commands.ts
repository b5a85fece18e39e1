// The app's commands: one registry the command palette and the keyboard shortcuts sheet both read. Pure (tested
// under Node): what a command does goes through `CommandActions`, which the shell implements.

/** Where the user is, as far as commands care. */
export interface CommandContext {
  orgId?: string
  spaceId?: string
  /** A page open in the editor. */
  pageId?: string
  /** The change request the screen is in (its number), if any. */
  changeRequest?: string
  /** The caller may edit the space's content (its `permissions.edit`). */
  canEditSpace?: boolean
  /** The caller may create spaces and collections in the organization (role `create` or above). */
  canCreate?: boolean
}

/** What commands may do; the shell provides it. */
export interface CommandActions {
  /** A route path with `$param` placeholders, filled from `params`. */
  go(to: string, params: Record<string, string>): void
  newSpace(): void
  newCollection(): void
  newPage(): void
  newChangeRequest(): void
  togglePalette(): void
  openShortcuts(): void
  toggleTheme(): void
  toggleSidebar(): void
  toggleComments(): void
}

export type CommandGroup = 'Go to' | 'Space' | 'Create' | 'View' | 'Help' | 'Editor' | 'Comments'

export interface Command {
  id: string
  title: string
  group: CommandGroup
  /** Hotkeys as `mod+shift+P` (`mod` is Ctrl, or ⌘ on a Mac); the first is the one shown in the palette. */
  keys?: string[]
  /** Extra words the palette's filter matches. */
  keywords?: string
  /** Whether the command applies where the user is (default: always). */
  when?(ctx: CommandContext): boolean
  /**
   * What it does. A command without `run` is a key that the screen it belongs to handles itself (the editor's
   * formatting keys): the shortcuts sheet lists it, the palette does not.
   */
  run?(ctx: CommandContext, actions: CommandActions): void
  /** Its keys work while typing in a field (default: not, so `?` types a question mark). */
  inText?: boolean
}

const inOrg = (ctx: CommandContext) => !!ctx.orgId
const inSpace = (ctx: CommandContext) => !!ctx.spaceId
const go =
  (to: string, from: 'orgId' | 'spaceId') =>
  (ctx: CommandContext, actions: CommandActions): void => {
    const id = ctx[from]
    if (id) actions.go(to, { [from]: id })
  }

export const COMMANDS: readonly Command[] = [
  // Creating
  {
    id: 'new-page',
    title: 'New page',
    group: 'Create',
    keywords: 'add page document',
    when: (ctx) => !!ctx.spaceId && !!ctx.canEditSpace,
    run: (_c, a) => a.newPage()
  },
  {
    id: 'new-change-request',
    title: 'New change request',
    group: 'Create',
    keywords: 'branch draft review',
    when: (ctx) => !!ctx.spaceId && !!ctx.canEditSpace,
    run: (_c, a) => a.newChangeRequest()
  },
  {
    id: 'new-space',
    title: 'New space',
    group: 'Create',
    when: (ctx) => inOrg(ctx) && ctx.canCreate !== false,
    run: (_c, a) => a.newSpace()
  },
  {
    id: 'new-collection',
    title: 'New collection',
    group: 'Create',
    keywords: 'folder',
    when: (ctx) => inOrg(ctx) && ctx.canCreate !== false,
    run: (_c, a) => a.newCollection()
  },

  // The space on screen
  {
    id: 'space-search',
    title: 'Search this space',
    group: 'Space',
    keys: ['mod+shift+F'],
    keywords: 'find text',
    when: inSpace,
    inText: true
  },
  { id: 'space-pages', title: 'Pages', group: 'Space', keywords: 'editor tree', when: inSpace, run: go('/spaces/$spaceId', 'spaceId') },
  {
    id: 'space-change-requests',
    title: 'Change requests',
    group: 'Space',
    keywords: 'review merge',
    when: inSpace,
    run: go('/spaces/$spaceId/change-requests', 'spaceId')
  },
  {
    id: 'space-comments',
    title: 'Comments',
    group: 'Space',
    keywords: 'discussions threads',
    when: inSpace,
    run: go('/spaces/$spaceId/comments', 'spaceId')
  },
  {
    id: 'space-files',
    title: 'Files',
    group: 'Space',
    keywords: 'uploads images attachments',
    when: inSpace,
    run: go('/spaces/$spaceId/files', 'spaceId')
  },
  {
    id: 'space-links',
    title: 'Links',
    group: 'Space',
    keywords: 'broken links check',
    when: inSpace,
    run: go('/spaces/$spaceId/links', 'spaceId')
  },
  {
    id: 'space-history',
    title: 'Space history',
    group: 'Space',
    keywords: 'revisions versions compare restore rollback',
    when: inSpace,
    run: go('/spaces/$spaceId/history', 'spaceId')
  },
  {
    id: 'space-settings',
    title: 'Space settings',
    group: 'Space',
    keywords: 'lock unlock visibility access custom fields transfer',
    when: inSpace,
    run: go('/spaces/$spaceId/settings', 'spaceId')
  },

  // The organization's screens
  { id: 'go-spaces', title: 'Spaces', group: 'Go to', keywords: 'organization home', when: inOrg, run: go('/orgs/$orgId', 'orgId') },
  { id: 'go-sites', title: 'Sites', group: 'Go to', keywords: 'publish docs site', when: inOrg, run: go('/orgs/$orgId/sites', 'orgId') },
  {
    id: 'go-integrations',
    title: 'Integrations',
    group: 'Go to',
    keywords: 'install apps connect plugins',
    when: inOrg,
    run: go('/orgs/$orgId/integrations', 'orgId')
  },
  {
    id: 'go-openapi',
    title: 'API specs',
    group: 'Go to',
    keywords: 'openapi swagger reference',
    when: inOrg,
    run: go('/orgs/$orgId/openapi', 'orgId')
  },
  {
    id: 'go-members',
    title: 'Members',
    group: 'Go to',
    keywords: 'team people users roles',
    when: inOrg,
    run: go('/orgs/$orgId/team/members', 'orgId')
  },
  { id: 'go-teams', title: 'Teams', group: 'Go to', keywords: 'groups', when: inOrg, run: go('/orgs/$orgId/team/teams', 'orgId') },
  {
    id: 'go-invites',
    title: 'Invites',
    group: 'Go to',
    keywords: 'team invite links e-mail',
    when: inOrg,
    run: go('/orgs/$orgId/team/invites', 'orgId')
  },
  {
    id: 'go-settings',
    title: 'Organization settings',
    group: 'Go to',
    keywords: 'hostname domains default role',
    when: inOrg,
    run: go('/orgs/$orgId/settings', 'orgId')
  },
  {
    id: 'go-sso',
    title: 'Single sign-on',
    group: 'Go to',
    keywords: 'settings saml sso identity provider',
    when: inOrg,
    run: go('/orgs/$orgId/settings/sso', 'orgId')
  },
  {
    id: 'go-fields',
    title: 'Custom fields',
    group: 'Go to',
    keywords: 'settings metadata',
    when: inOrg,
    run: go('/orgs/$orgId/settings/custom-fields', 'orgId')
  },
  {
    id: 'go-trash',
    title: 'Trash',
    group: 'Go to',
    keywords: 'restore deleted spaces',
    when: inOrg,
    run: go('/orgs/$orgId/trash', 'orgId')
  },

  // Help and view
  {
    id: 'palette',
    title: 'Command palette',
    group: 'Help',
    keys: ['mod+K', 'F1', 'mod+shift+P'],
    inText: true,
    run: (_c, a) => a.togglePalette()
  },
  {
    id: 'shortcuts',
    title: 'Keyboard shortcuts',
    group: 'Help',
    keys: ['?', 'mod+/'],
    keywords: 'keys hotkeys help cheat sheet',
    run: (_c, a) => a.openShortcuts()
  },
  {
    id: 'toggle-theme',
    title: 'Toggle light / dark theme',
    group: 'View',
    keywords: 'dark mode light mode appearance colour color scheme',
    run: (_c, a) => a.toggleTheme()
  },
  {
    id: 'toggle-sidebar',
    title: 'Show or hide the sidebar',
    group: 'View',
    keywords: 'navigation panel',
    when: inOrg,
    run: (_c, a) => a.toggleSidebar()
  },
  {
    id: 'toggle-comments',
    title: 'Show or hide comments',
    group: 'View',
    keywords: 'discussion panel',
    when: (ctx) => !!ctx.spaceId && !!ctx.pageId,
    run: (_c, a) => a.toggleComments()
  },

  // Keys of the page editor (CodeMirror handles them; `markdownFormatting.ts`, `MarkdownEditor.tsx`)
  { id: 'editor-save', title: 'Save now', group: 'Editor', keys: ['mod+S'] },
  { id: 'editor-bold', title: 'Bold', group: 'Editor', keys: ['mod+B'] },
  { id: 'editor-italic', title: 'Italic', group: 'Editor', keys: ['mod+I'] },
  { id: 'editor-code', title: 'Inline code', group: 'Editor', keys: ['mod+E'] },
  { id: 'editor-strike', title: 'Strikethrough', group: 'Editor', keys: ['mod+shift+X'] },
  { id: 'editor-comment', title: 'Comment on the selected text', group: 'Editor', keys: ['mod+alt+M'] },
  { id: 'editor-find', title: 'Find and replace in the page', group: 'Editor', keys: ['mod+F'] },

  // Comment composers
  { id: 'comment-send', title: 'Send a comment or reply', group: 'Comments', keys: ['mod+Enter'] },
  { id: 'comment-mention', title: 'Mention a member', group: 'Comments', keys: ['@'] }
]

/** The commands the palette offers where the user is: those that run and apply here, in registry order. */
export function paletteCommands(ctx: CommandContext, commands: readonly Command[] = COMMANDS): Command[] {
  return commands.filter((c) => c.run && (c.when?.(ctx) ?? true))
}

const SHEET_ORDER: CommandGroup[] = ['Help', 'View', 'Space', 'Editor', 'Comments', 'Create', 'Go to']

/** Every command with keys, by group (general keys first), in registry order within one: the shortcuts sheet. */
export function shortcutSheet(commands: readonly Command[] = COMMANDS): { group: CommandGroup; commands: Command[] }[] {
  const groups = new Map<CommandGroup, Command[]>(SHEET_ORDER.map((g) => [g, []]))
  for (const command of commands) {
    if (!command.keys?.length) continue
    groups.set(command.group, [...(groups.get(command.group) ?? []), command])
  }
  return [...groups.entries()].filter(([, list]) => list.length > 0).map(([group, list]) => ({ group, commands: list }))
}

const MAC_LABELS: Record<string, string> = { mod: '⌘', shift: '⇧', alt: '⌥', ctrl: '⌃', enter: '↩' }
const PC_LABELS: Record<string, string> = { mod: 'Ctrl', shift: 'Shift', alt: 'Alt', ctrl: 'Ctrl', enter: 'Enter' }

/** The keys of a hotkey as shown on key caps: `mod+shift+P` → ["Ctrl", "Shift", "P"] (["⌘", "⇧", "P"] on a Mac). */
export function keyLabels(hotkey: string, mac: boolean): string[] {
  const labels = mac ? MAC_LABELS : PC_LABELS
  return splitHotkey(hotkey).map((part) => labels[part.toLowerCase()] ?? (part.length === 1 ? part.toUpperCase() : part))
}

/** `mod+/` → ["mod", "/"]; a `+` key is written last (`mod++`). */
function splitHotkey(hotkey: string): string[] {
  const parts = hotkey.split('+')
  // "mod++" splits into ["mod", "", ""]: the empty tail is the plus key.
  if (hotkey.endsWith('++')) return [...parts.slice(0, -2).filter(Boolean), '+']
  return parts.filter(Boolean)
}

/** The parts of a key event a hotkey is matched against. */
export interface KeyPress {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  shiftKey: boolean
}

/**
 * Whether a key press is this hotkey. `mod` is Ctrl or ⌘; letters match either case. A printable symbol alone
 * (`?`, `@`) ignores Shift, since keyboard layouts differ in whether it takes Shift.
 */
export function matchesHotkey(hotkey: string, press: KeyPress): boolean {
  const parts = splitHotkey(hotkey).map((p) => p.toLowerCase())
  const key = parts[parts.length - 1] ?? ''
  const mods = new Set(parts.slice(0, -1))
  const mod = mods.has('mod')
  if (mod ? !(press.ctrlKey || press.metaKey) : press.ctrlKey !== mods.has('ctrl') || press.metaKey !== mods.has('meta')) return false
  if (press.altKey !== mods.has('alt')) return false
  const symbol = key.length === 1 && !/[a-z0-9]/.test(key)
  if (!(symbol && mods.size === 0) && press.shiftKey !== mods.has('shift')) return false
  return press.key.toLowerCase() === key
}
