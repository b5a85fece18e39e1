import { useState } from 'react'
import { ActionIcon, Button, Menu, Text, Tooltip } from '@mantine/core'
import { IconChevronDown, IconLayoutGridAdd } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { IncludeSource } from '../../../../src-shared/blockTags.ts'
import { BLOCK_SNIPPETS, includeSnippet, includeTargets, insertBlock, type BlockSnippet } from './blockTagCompletion.ts'
import type { PageSession } from './pageSession.ts'
import { reusableContentsQuery, type ContentScope } from './queries.ts'

interface InsertProps {
  session: PageSession
  scope: ContentScope
  pagePath?: string
}

/**
 * The toolbar's Insert menu: GitBook's blocks (hints, tabs, titled code…) and includes of the revision's reusable
 * contents, put on a line of their own at the cursor, as typing `{%` offers them. The reusable contents are read
 * when the menu first opens. `iconOnly`: a narrower toolbar's button, named by its tooltip.
 */
export function InsertBlockMenu({ session, scope, pagePath, iconOnly }: InsertProps & { iconOnly?: boolean }) {
  const [opened, setOpened] = useState(false)
  const [asked, setAsked] = useState(false)
  const reusable = useQuery({ ...reusableContentsQuery(scope), enabled: asked }).data
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
        {iconOnly ? (
          <Tooltip label="Insert a block">
            <ActionIcon variant="default" size={28} aria-label="Insert" data-testid="insert-block">
              <IconLayoutGridAdd size={16} />
            </ActionIcon>
          </Tooltip>
        ) : (
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconLayoutGridAdd size={14} />}
            rightSection={<IconChevronDown size={12} />}
            data-testid="insert-block"
          >
            Insert
          </Button>
        )}
      </Menu.Target>
      <Menu.Dropdown data-testid="insert-block-menu">
        <InsertItems session={session} reusable={reusable} pagePath={pagePath} />
      </Menu.Dropdown>
    </Menu>
  )
}

/** The same blocks as a submenu (the narrow toolbar's More menu). */
export function InsertBlockSubmenu({ session, scope, pagePath }: InsertProps) {
  const [asked, setAsked] = useState(false)
  const reusable = useQuery({ ...reusableContentsQuery(scope), enabled: asked }).data
  return (
    <Menu.Sub onChange={(open) => open && setAsked(true)}>
      <Menu.Sub.Target>
        <Menu.Sub.Item leftSection={<IconLayoutGridAdd size={14} />} data-testid="more-insert">
          Insert a block
        </Menu.Sub.Item>
      </Menu.Sub.Target>
      <Menu.Sub.Dropdown data-testid="insert-block-menu">
        <InsertItems session={session} reusable={reusable} pagePath={pagePath} />
      </Menu.Sub.Dropdown>
    </Menu.Sub>
  )
}

function InsertItems({
  session,
  reusable,
  pagePath
}: {
  session: PageSession
  reusable: readonly IncludeSource[] | undefined
  pagePath?: string
}) {
  const insert = (block: BlockSnippet) => {
    const view = session.view
    if (!view) return
    insertBlock(view, block)
    // Typing goes on in the block once the menu has closed (it would give focus back to its button).
    requestAnimationFrame(() => view.focus())
  }
  return (
    <>
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
    </>
  )
}
