import { useEffect, useState } from 'react'
import { Badge, Breadcrumbs, Button, EmptyState, Group, Paper, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core'
import { IconArrowsExchange, IconFolder, IconPencil, IconPlus, IconSettings, IconShare, IconTrash } from '@tabler/icons-react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useUiStore } from '../../stores/uiStore.ts'
import { formatRelative } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { PageHeader } from '../common/PageHeader.tsx'
import { useScreenReady } from '../common/screen.ts'
import { orgQuery } from '../orgs/queries.ts'
import { ShareDialog } from '../access/ShareDialog.tsx'
import { ContentDialogs } from './ContentDialogs.tsx'
import { useContentActions } from './contentActions.tsx'
import { collectionQuery, collectionSpacesQuery, collectionsQuery } from './queries.ts'
import { collectionPath } from './SpaceScreen.tsx'
import classes from '../content/TrashScreen.module.css'
import { emojiText } from '../common/emoji.ts'
import { CollectionSettingsDialog } from '../spaceSettings/CollectionSettingsDialog.tsx'

/** A collection, the collections in it and the spaces directly in it (GET /collections/{id}/spaces). */
export function CollectionScreen({ collectionId }: { collectionId: string }) {
  const { data: collection } = useSuspenseQuery(collectionQuery(collectionId))
  const { data: spaces } = useSuspenseQuery(collectionSpacesQuery(collectionId))
  const orgId = collection.organization
  const org = useQuery(orgQuery(orgId)).data
  const { data: collections } = useSuspenseQuery(collectionsQuery(orgId))
  const children = collections.filter((c) => c.parent === collection.id)
  const setLastOrgId = useUiStore((s) => s.setLastOrgId)
  const navigate = useNavigate()
  const actions = useContentActions(orgId)
  const [settingsOpen, setSettingsOpen] = useState(false)
  useEffect(() => setLastOrgId(orgId), [orgId, setLastOrgId])
  const [sharing, setSharing] = useState(false)
  useScreenReady()

  const title = collection.title || 'Untitled collection'
  const row = { kind: 'collection' as const, id: collection.id, title: collection.title, childCount: spaces.length }
  return (
    <>
      <Breadcrumbs mb="md" separatorMargin={6}>
        <RouterAnchor to="/orgs/$orgId" params={{ orgId }} size="sm" c="dimmed">
          {org?.title ?? 'Organization'}
        </RouterAnchor>
        {collectionPath(collections, collection.parent).map((c) => (
          <RouterAnchor key={c.id} to="/collections/$collectionId" params={{ collectionId: c.id }} size="sm" c="dimmed">
            {c.title || 'Untitled collection'}
          </RouterAnchor>
        ))}
        <Text size="sm">{title}</Text>
      </Breadcrumbs>
      <PageHeader
        icon={
          <ThemeIcon size={48} variant="light" radius="md">
            <IconFolder size={26} stroke={1.5} />
          </ThemeIcon>
        }
        title={title}
        description={collection.description || 'A collection of spaces'}
        actions={
          <>
            <Button variant="default" leftSection={<IconShare size={16} />} onClick={() => setSharing(true)} data-testid="collection-share">
              Share
            </Button>
            {collection.permissions.admin && (
              <>
                <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => actions.rename(row)}>
                  Edit
                </Button>
                <Button
                  variant="default"
                  leftSection={<IconSettings size={16} />}
                  onClick={() => setSettingsOpen(true)}
                  data-testid="collection-settings"
                >
                  Settings
                </Button>
                <Button
                  variant="default"
                  leftSection={<IconArrowsExchange size={16} />}
                  onClick={() => actions.transfer(row)}
                  data-testid="collection-transfer"
                >
                  Transfer…
                </Button>
                <Button
                  variant="default"
                  color="red"
                  leftSection={<IconTrash size={16} />}
                  onClick={() => actions.remove(row, () => void navigate({ to: '/orgs/$orgId', params: { orgId } }))}
                >
                  Delete
                </Button>
                <Button leftSection={<IconPlus size={16} />} onClick={() => actions.createSpaceIn(collection.id)}>
                  New space here
                </Button>
              </>
            )}
          </>
        }
      />
      {spaces.length === 0 && children.length === 0 ? (
        <EmptyState
          mt={32}
          icon={<IconFolder size={28} stroke={1.5} />}
          withIndicatorBackground
          title="No spaces in this collection"
          description="Create one here, or drag spaces into it on the Spaces screen."
        />
      ) : (
        <Paper>
          <Stack gap={0} aria-label="In this collection" data-testid="collection-items">
            {children.map((child) => (
              <RouterAnchor
                key={child.id}
                to="/collections/$collectionId"
                params={{ collectionId: child.id }}
                underline="never"
                c="inherit"
                data-testid="collection-child"
              >
                <Group className={classes.row} gap="sm" wrap="nowrap">
                  <ThemeIcon size={32} variant="light" radius="md">
                    <IconFolder size={18} stroke={1.5} />
                  </ThemeIcon>
                  <Stack gap={0}>
                    <Text size="sm" fw={500}>
                      {child.title || 'Untitled collection'}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {child.description || 'Collection'}
                    </Text>
                  </Stack>
                </Group>
              </RouterAnchor>
            ))}
            {spaces.map((space) => (
              <UnstyledButton key={space.id} onClick={() => void navigate({ to: '/spaces/$spaceId', params: { spaceId: space.id } })}>
                <Group className={classes.row} justify="space-between" wrap="nowrap">
                  <Group gap="sm" wrap="nowrap">
                    <span className={classes.emoji} style={{ filter: 'none' }}>
                      {emojiText(space.emoji) || '📄'}
                    </span>
                    <Stack gap={0}>
                      <Text size="sm" fw={500}>
                        {space.title || 'Untitled space'}
                      </Text>
                      <Text size="xs" c="dimmed">
                        Updated {formatRelative(space.updatedAt)}
                      </Text>
                    </Stack>
                  </Group>
                  {space.changeRequestsOpen > 0 && <Badge>{space.changeRequestsOpen} open change requests</Badge>}
                </Group>
              </UnstyledButton>
            ))}
          </Stack>
        </Paper>
      )}
      <ContentDialogs orgId={orgId} />
      <ShareDialog
        target={{
          kind: 'collection',
          id: collection.id,
          title: collection.title,
          organization: orgId,
          canAdmin: collection.permissions.admin,
          defaultLevel: collection.defaultLevel ?? null
        }}
        opened={sharing}
        onClose={() => setSharing(false)}
      />
      <CollectionSettingsDialog collection={collection} opened={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </>
  )
}
