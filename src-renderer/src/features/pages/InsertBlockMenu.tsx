import { useState } from 'react'
import { Button, Menu, Text } from '@mantine/core'
import { IconChevronDown, IconLayoutGridAdd } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { BLOCK_SNIPPETS, includeSnippet, includeTargets, insertBlock, type BlockSnippet } from './blockTagCompletion.ts'
import type { PageSession } from './pageSession.ts'
import { reusableContentsQuery, type ContentScope } from './queries.ts'

/**
 * The toolbar's Insert menu: GitBook's blocks (hints, tabs, titled code…) and includes of the revision's reusable
 * contents, put on a line of their own at the cursor, as typing `{%` offers them. The reusable contents are read
 * when the menu first opens.
 */
export function InsertBlockMenu({ session, scope, pagePath }: { session: PageSession; scope: ContentScope; pagePath?: string }) {
  const [opened, setOpened] = useState(false)
  const [asked, setAsked] = useState(false)
  const reusable = useQuery({ ...reusableContentsQuery(scope), enabled: asked }).data
  const insert = (block: BlockSnippet) => {
    const view = session.view
    if (!view) return
    insertBlock(view, block)
    // Typing goes on in the block once the menu has closed (it would give focus back to its button).
    requestAnimationFrame(() => view.focus())
  }
  return (
    <Menu
      opened={opened}
      onChange={(open) => {
        setOpened(open)
        if (open) setAsked(true)
      }}
      position="bottom-start"
      returnFocus={false}
      shadow="md"
      withinPortal
    >
      <Menu.Target>
        <Button size="compact-sm" variant="default" leftSection={<IconLayoutGridAdd size={14} />} rightSection={<IconChevronDown size={12} />} data-testid="insert-block">
          Insert
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="insert-block-menu">
        <Menu.Label>Blocks</Menu.Label>
        {BLOCK_SNIPPETS.map((block) => (
          <Menu.Item key={block.label} onClick={() => insert(block)}>
            {block.displayLabel}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Label>Reusable content</Menu.Label>
        {reusable === undefined ? (
          <Text size="xs" c="dimmed" px="sm" py={4}>
            Loading…
          </Text>
        ) : reusable.length === 0 ? (
          <Text size="xs" c="dimmed" px="sm" py={4} maw={260}>
            None in this space yet (Git sync brings them from .gitbook/includes).
          </Text>
        ) : (
          includeTargets(reusable, pagePath).map((target) => {
            const block = includeSnippet(target)
            return (
              <Menu.Item key={target.path} onClick={() => insert(block)}>
                {block.displayLabel}
              </Menu.Item>
            )
          })
        )}
      </Menu.Dropdown>
    </Menu>
  )
}
