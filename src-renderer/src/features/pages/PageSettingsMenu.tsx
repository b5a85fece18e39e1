import { useMemo } from 'react'
import { ActionIcon, Divider, Popover, Stack, Switch, Text, Tooltip } from '@mantine/core'
import { IconLayoutSidebarRight } from '@tabler/icons-react'
import { usePagesUi } from './pagesUiStore.ts'
import { LAYOUT_PARTS, type LayoutPart } from '../../../../src-shared/pageSettings.ts'
import { readPageSettings, withPageSetting, type PageSetting } from './pageSettingsEdit.ts'

const PART_LABELS: Record<LayoutPart, { label: string; description: string }> = {
  title: { label: 'Title', description: 'The page title at the top' },
  description: { label: 'Description', description: 'The line under the title' },
  tableOfContents: { label: 'Table of contents', description: 'The list of pages beside the page' },
  outline: { label: 'Page outline', description: 'Its headings, on the right' },
  pagination: { label: 'Next and previous links', description: 'At the bottom of the page' },
}

/**
 * What readers of the published page see of it, and whether search engines index it. The settings are the
 * page's front matter (the hosted service's Git format): a switch rewrites that block in the text, where the
 * edit saves like any other and one undo takes it back.
 */
export function PageSettingsMenu({ pageId, markdown, disabled, onChange }: { pageId: string; markdown: string; disabled: boolean; onChange(next: string): void }) {
  const settings = useMemo(() => readPageSettings(markdown), [markdown])
  const opened = usePagesUi((s) => s.layoutOpenFor === pageId)
  const setOpenFor = usePagesUi((s) => s.setLayoutOpenFor)
  const locked = disabled || !settings.writable
  const set = (setting: PageSetting) => onChange(withPageSetting(markdown, setting))
  return (
    <Popover position="bottom-end" shadow="md" width={280} withinPortal opened={opened} onClose={() => setOpenFor(null)}>
      <Popover.Target>
        <Tooltip label="Page layout">
          <ActionIcon
            variant={opened ? 'light' : 'default'}
            size={28}
            aria-label="Page layout"
            aria-expanded={opened}
            onClick={() => setOpenFor(opened ? null : pageId)}
            data-testid="page-settings"
          >
            <IconLayoutSidebarRight size={16} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown data-testid="page-settings-panel">
        <Stack gap="xs">
          <Text size="xs" fw={600} c="dimmed" tt="uppercase">
            Show on the published page
          </Text>
          {LAYOUT_PARTS.map((part) => (
            <Switch
              key={part}
              size="xs"
              label={PART_LABELS[part].label}
              description={PART_LABELS[part].description}
              checked={settings.layout[part]}
              disabled={locked}
              onChange={(e) => set({ part, visible: e.currentTarget.checked })}
              data-testid={`layout-${part}`}
            />
          ))}
          <Divider />
          <Switch
            size="xs"
            label="Hide from search engines"
            description="Asks search engines not to index this page"
            checked={settings.noIndex}
            disabled={locked}
            onChange={(e) => set({ noIndex: e.currentTarget.checked })}
            data-testid="layout-noIndex"
          />
          {!settings.writable && (
            <Text size="xs" c="red">
              The front matter is not a list of “key: value” lines; fix it in the text to change these here.
            </Text>
          )}
          {settings.writable && (
            <Text size="xs" c="dimmed">
              Saved in the page’s front matter, as Git sync writes it.
            </Text>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  )
}
