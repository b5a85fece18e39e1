import { Button, EmptyState, Paper, Text } from '@mantine/core'
import { IconFolderPlus, IconPlus, IconStack2 } from '@tabler/icons-react'
import { useSuspenseQuery } from '@tanstack/react-query'
import { PageHeader } from '../common/PageHeader.tsx'
import { useScreenReady } from '../common/screen.ts'
import { orgQuery } from '../orgs/queries.ts'
import { useUiStore } from '../../stores/uiStore.ts'
import { ContentDialogs } from './ContentDialogs.tsx'
import { ContentTree } from './ContentTree.tsx'
import { collectionsQuery, spacesQuery } from './queries.ts'

/** The organization home: every space and collection as a tree, and what to do with them. */
export function OrgHomeScreen({ orgId }: { orgId: string }) {
  const { data: org } = useSuspenseQuery(orgQuery(orgId))
  const { data: spaces } = useSuspenseQuery(spacesQuery(orgId))
  const { data: collections } = useSuspenseQuery(collectionsQuery(orgId))
  const openDialog = useUiStore((s) => s.openContentDialog)
  useScreenReady()

  const canCreate = org.permissions.createContent
  const summary = `${plural(spaces.length, 'space')} in ${plural(collections.length, 'collection')}`

  return (
    <>
      <PageHeader
        title="Spaces"
        description={`${org.title} · ${summary}`}
        actions={
          canCreate && (
            <>
              <Button
                variant="default"
                leftSection={<IconFolderPlus size={16} />}
                onClick={() => openDialog({ kind: 'create-collection', parent: null })}
                data-testid="new-collection"
              >
                New collection
              </Button>
              <Button
                leftSection={<IconPlus size={16} />}
                onClick={() => openDialog({ kind: 'create-space', parent: null })}
                data-testid="new-space"
              >
                New space
              </Button>
            </>
          )
        }
      />
      {spaces.length + collections.length === 0 ? (
        <EmptyState
          mt={48}
          variant="light"
          icon={<IconStack2 size={28} stroke={1.6} />}
          title="No spaces yet"
          description="A space holds one body of documentation: a product's docs, a handbook, an API reference. Group spaces into collections."
          data-testid="content-empty"
        >
          {canCreate && (
            <EmptyState.Actions>
              <Button leftSection={<IconPlus size={16} />} onClick={() => openDialog({ kind: 'create-space', parent: null })}>
                Create the first space
              </Button>
            </EmptyState.Actions>
          )}
        </EmptyState>
      ) : (
        <>
          <Paper p={6}>
            <ContentTree orgId={orgId} collections={collections} spaces={spaces} />
          </Paper>
          <Text size="xs" c="dimmed" mt="sm">
            Drag a space onto a collection to move it there, or use a row's menu. Arrow keys move through the tree, Enter opens, F2 renames.
          </Text>
        </>
      )}
      <ContentDialogs orgId={orgId} />
    </>
  )
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}
