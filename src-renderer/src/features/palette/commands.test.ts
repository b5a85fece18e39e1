import { describe, expect, it, vi } from 'vitest'
import { COMMANDS, keyLabels, matchesHotkey, paletteCommands, shortcutSheet, type CommandActions, type KeyPress } from './commands.ts'

const press = (key: string, mods: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods
})
const ids = (ctx: Parameters<typeof paletteCommands>[0]) => paletteCommands(ctx).map((c) => c.id)

describe('paletteCommands', () => {
  it('offers a page and a change request only in a space the caller may edit', () => {
    expect(ids({ orgId: 'o' })).not.toContain('new-page')
    expect(ids({ orgId: 'o', spaceId: 's', canEditSpace: false })).not.toContain('new-page')
    expect(ids({ orgId: 'o', spaceId: 's', canEditSpace: true })).toEqual(expect.arrayContaining(['new-page', 'new-change-request']))
  })

  it("offers the space's sections inside a space, the comments panel with a page open, and the organization's screens in one", () => {
    expect(ids({ orgId: 'o' })).toEqual(
      expect.arrayContaining([
        'go-spaces',
        'go-sites',
        'go-integrations',
        'go-members',
        'go-trash',
        'new-space',
        'toggle-theme',
        'shortcuts'
      ])
    )
    expect(ids({ orgId: 'o' })).not.toContain('space-files')
    expect(ids({ orgId: 'o', spaceId: 's' })).toEqual(
      expect.arrayContaining(['space-pages', 'space-change-requests', 'space-comments', 'space-files', 'space-links', 'space-history'])
    )
    expect(ids({ orgId: 'o', spaceId: 's' })).not.toContain('toggle-comments')
    expect(ids({ orgId: 'o', spaceId: 's', pageId: 'p' })).toContain('toggle-comments')
    expect(ids({})).not.toContain('go-members')
    expect(ids({ orgId: 'o', canCreate: false })).not.toContain('new-space')
  })

  it('leaves out keys that only a screen handles (no run)', () => {
    expect(ids({ orgId: 'o', spaceId: 's', pageId: 'p', canEditSpace: true })).not.toContain('editor-bold')
  })

  it('runs navigation with the ids of where the user is', () => {
    const actions = { go: vi.fn() } as unknown as CommandActions
    COMMANDS.find((c) => c.id === 'space-files')!.run!({ orgId: 'o', spaceId: 's1' }, actions)
    COMMANDS.find((c) => c.id === 'go-sites')!.run!({ orgId: 'o1' }, actions)
    expect(vi.mocked(actions.go).mock.calls).toEqual([
      ['/spaces/$spaceId/files', { spaceId: 's1' }],
      ['/orgs/$orgId/sites', { orgId: 'o1' }]
    ])
  })
})

describe('shortcutSheet', () => {
  it('lists every command with keys, grouped, the palette and the sheet themselves included', () => {
    const sheet = shortcutSheet()
    const all = sheet.flatMap((g) => g.commands.map((c) => c.id))
    expect(all).toEqual(expect.arrayContaining(['palette', 'shortcuts', 'editor-bold', 'editor-comment', 'comment-send']))
    expect(all).not.toContain('go-members')
    expect(sheet.find((g) => g.group === 'Help')!.commands[0]!.keys).toEqual(['mod+K', 'F1', 'mod+shift+P'])
    expect(new Set(sheet.map((g) => g.group)).size).toBe(sheet.length)
  })

  it('has unique ids', () => {
    expect(new Set(COMMANDS.map((c) => c.id)).size).toBe(COMMANDS.length)
  })
})

describe('keyLabels', () => {
  it('names the keys for the platform', () => {
    expect(keyLabels('mod+shift+P', false)).toEqual(['Ctrl', 'Shift', 'P'])
    expect(keyLabels('mod+shift+P', true)).toEqual(['⌘', '⇧', 'P'])
    expect(keyLabels('mod+/', false)).toEqual(['Ctrl', '/'])
    expect(keyLabels('?', false)).toEqual(['?'])
    expect(keyLabels('F1', true)).toEqual(['F1'])
    expect(keyLabels('mod+Enter', false)).toEqual(['Ctrl', 'Enter'])
    expect(keyLabels('mod++', false)).toEqual(['Ctrl', '+'])
  })
})

describe('matchesHotkey', () => {
  it('matches mod as Ctrl or ⌘, and letters in either case', () => {
    expect(matchesHotkey('mod+K', press('k', { ctrlKey: true }))).toBe(true)
    expect(matchesHotkey('mod+K', press('k', { metaKey: true }))).toBe(true)
    expect(matchesHotkey('mod+shift+P', press('P', { ctrlKey: true, shiftKey: true }))).toBe(true)
    expect(matchesHotkey('mod+K', press('k'))).toBe(false)
  })

  it('needs exactly the modifiers named', () => {
    expect(matchesHotkey('mod+shift+P', press('p', { ctrlKey: true }))).toBe(false)
    expect(matchesHotkey('mod+K', press('K', { ctrlKey: true, shiftKey: true }))).toBe(false)
    expect(matchesHotkey('F1', press('F1'))).toBe(true)
    expect(matchesHotkey('F1', press('F1', { altKey: true }))).toBe(false)
  })

  it('takes a symbol alone with or without Shift (layouts differ), but not with Ctrl', () => {
    expect(matchesHotkey('?', press('?', { shiftKey: true }))).toBe(true)
    expect(matchesHotkey('?', press('?'))).toBe(true)
    expect(matchesHotkey('?', press('?', { ctrlKey: true }))).toBe(false)
    expect(matchesHotkey('mod+/', press('/', { ctrlKey: true }))).toBe(true)
    expect(matchesHotkey('mod+/', press('/', { ctrlKey: true, shiftKey: true }))).toBe(false)
  })
})
