import { useEffect, useState } from 'react'
import { ActionIcon, Badge, Breadcrumbs, Button, CloseButton, Group, Menu, Text, Tooltip } from '@mantine/core'
import {
  IconArrowsExchange,
  IconArrowsMove,
  IconBrandGit,
  IconCopy,
  IconDots,
  IconFileImport,
  IconFiles,
  IconFileText,
  IconFileTypePdf,
  IconGitPullRequest,
  IconHistory,
  IconLink,
  IconMessageCircle,
  IconPencil,
  IconPuzzle,
  IconSettings,
  IconShare,
  IconTrash
} from '@tabler/icons-react'
import { useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { Outlet, useMatches, useNavigate } from '@tanstack/react-router'
import type { Collection, Space } from '../../api/types.ts'
import { useUiStore } from '../../stores/uiStore.ts'
import { formatDate, formatRelative, plural } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { PageHeader } from '../common/PageHeader.tsx'
import { SectionTabs, type SectionTab } from '../common/SectionTabs.tsx'
import { orgQuery } from '../orgs/queries.ts'
import { ImportDialog } from '../pages/ImportDialog.tsx'
import { downloadPdf } from '../pages/queries.ts'
import { ShareDialog } from '../access/ShareDialog.tsx'
import { PdfExportProgress } from '../pages/PdfExportProgress.tsx'
import { newJobId } from '../common/jobs.ts'
import { ContentDialogs } from './ContentDialogs.tsx'
import { useContentActions } from './contentActions.tsx'
import { EmojiPicker } from './EmojiPicker.tsx'
import { collectionsQuery, spaceQuery } from './queries.ts'
import classes from './SpaceScreen.module.css'
import { emojiText } from '../common/emoji.ts'

const VISIBILITY_LABELS: Record<Space['visibility'], string> = {
  public: 'Public',
  unlisted: 'Unlisted',
  'share-link': 'Share link',
  'visitor-auth': 'Visitor authentication',
  'in-collection': 'Inherits from collection',
  private: 'Private'
}

function shareTarget(space: Space) {
  return {
    kind: 'space' as const,
    id: space.id,
    title: space.title,
    organization: space.organization,
    canAdmin: space.permissions.admin,
    visibility: VISIBILITY_LABELS[space.visibility],
    defaultLevel: space.defaultLevel ?? null
  }
}

/** Collection ancestors of an item, outermost first. */
export function collectionPath(collections: Collection[], parent: string | undefined): Collection[] {
  const byId = new Map(collections.map((c) => [c.id, c]))
  const path: Collection[] = []
  const seen = new Set<string>()
  for (let cur = parent ? byId.get(parent) : undefined; cur && !seen.has(cur.id); cur = cur.parent ? byId.get(cur.parent) : undefined) {
    seen.add(cur.id)
    path.unshift(cur)
  }
  return path
}

const SPACE_TABS: SectionTab[] = [
  // A page open in a change request is still the Pages tab (the editor), not the change request's review.
  {
    to: '/spaces/$spaceId',
    label: 'Pages',
    icon: <IconFileText size={16} />,
    testId: 'tab-pages',
    claims: /\/change-requests\/[^/]+\/pages\//
  },
  {
    to: '/spaces/$spaceId/change-requests',
    label: 'Change requests',
    icon: <IconGitPullRequest size={16} />,
    testId: 'tab-change-requests'
  },
  { to: '/spaces/$spaceId/comments', label: 'Comments', icon: <IconMessageCircle size={16} />, testId: 'tab-comments' },
  { to: '/spaces/$spaceId/files', label: 'Files', icon: <IconFiles size={16} />, testId: 'tab-files' },
  { to: '/spaces/$spaceId/links', label: 'Links', icon: <IconLink size={16} />, testId: 'tab-links' },
  { to: '/spaces/$spaceId/reusable-contents', label: 'Reusable', icon: <IconPuzzle size={16} />, testId: 'tab-reusable-contents' },
  { to: '/spaces/$spaceId/history', label: 'History', icon: <IconHistory size={16} />, testId: 'tab-history' },
  { to: '/spaces/$spaceId/git', label: 'Git', icon: <IconBrandGit size={16} />, testId: 'tab-git' },
  { to: '/spaces/$spaceId/settings', label: 'Settings', icon: <IconSettings size={16} />, testId: 'tab-settings' }
]

/** The tree pane's icon tabs: Settings is in the space's menu there, so the icons keep one row at the pane's narrowest. */
const COMPACT_TABS = SPACE_TABS.filter((t) => t.testId !== 'tab-settings')

/** The Pages tab's routes: there the page editor takes the whole screen (`SpacePaneHeader` tops its tree). */
const WRITING_ROUTES = new Set<string>([
  '/spaces/$spaceId/',
  '/spaces/$spaceId/pages/$pageId',
  '/spaces/$spaceId/change-requests/$number/pages/$pageId'
])

/**
 * A space: where it sits, what it is (visibility, lock, counters), its actions, and tabs for its pages,
 * change requests, comments, files, links, reusable contents and history (child routes render below the tabs). The Pages tab draws
 * none of this above the editor: its tree pane starts with the space's compact header instead.
 */
export function SpaceScreen({ spaceId }: { spaceId: string }) {
  const { data: space } = useSuspenseQuery(spaceQuery(spaceId))
  const orgId = space.organization
  const org = useQuery(orgQuery(orgId)).data
  const collections = useQuery(collectionsQuery(orgId)).data ?? []
  const setLastOrgId = useUiStore((s) => s.setLastOrgId)
  const actions = useContentActions(orgId)
  // The routes drawn, not the address: while another tab's route loads, the editor stays in its own layout.
  const writing = useMatches({ select: (matches) => matches.some((m) => WRITING_ROUTES.has(m.routeId)) })
  useEffect(() => setLastOrgId(orgId), [orgId, setLastOrgId])

  const [sharing, setSharing] = useState(false)
  const row = { kind: 'space' as const, id: space.id, title: space.title, childCount: 0 }
  const title = space.title || 'Untitled space'
  if (writing) {
    return (
      <>
        <Outlet />
        <ContentDialogs orgId={orgId} />
      </>
    )
  }
  return (
    <>
      <Breadcrumbs mb="md" separatorMargin={6} className={classes.crumbs}>
        <RouterAnchor to="/orgs/$orgId" params={{ orgId }} size="sm" c="dimmed">
          {org?.title ?? 'Organization'}
        </RouterAnchor>
        {collectionPath(collections, space.parent).map((c) => (
          <RouterAnchor key={c.id} to="/collections/$collectionId" params={{ collectionId: c.id }} size="sm" c="dimmed">
            {c.title || 'Untitled collection'}
          </RouterAnchor>
        ))}
        <Text size="sm">{title}</Text>
      </Breadcrumbs>
      <PageHeader
        icon={
          <EmojiPicker value={emojiText(space.emoji)} onChange={(emoji) => actions.setEmoji(space.id, emoji)}>
            <button type="button" className={classes.emoji} aria-label="Change emoji">
              {emojiText(space.emoji) || <IconFileText size={24} stroke={1.5} />}
            </button>
          </EmojiPicker>
        }
        title={title}
        description={`Updated ${formatRelative(space.updatedAt)} · created ${formatDate(space.createdAt)}`}
        actions={
          <>
            {space.permissions.admin && (
              <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => actions.rename(row)}>
                Rename
              </Button>
            )}
            <Button variant="default" leftSection={<IconShare size={16} />} onClick={() => setSharing(true)} data-testid="space-share">
              Share
            </Button>
            <SpaceMenu space={space} />
          </>
        }
      />
      <Group gap="xs" mb="md">
        {space.visibility === 'in-collection' ? (
          // Where the access comes from is the Share dialog's to show.
          <Badge
            component="button"
            type="button"
            color="gray"
            style={{ cursor: 'pointer' }}
            onClick={() => setSharing(true)}
            data-testid="space-visibility"
          >
            {VISIBILITY_LABELS[space.visibility]}
          </Badge>
        ) : (
          <Badge color="gray" data-testid="space-visibility">
            {VISIBILITY_LABELS[space.visibility]}
          </Badge>
        )}
        {space.editMode === 'locked' && <Badge color="orange">Locked</Badge>}
        <Badge color="indigo">{plural(space.changeRequestsOpen, 'open change request')}</Badge>
        {space.changeRequestsDraft > 0 && <Badge color="gray">{plural(space.changeRequestsDraft, 'draft')}</Badge>}
        <Badge color="gray">{plural(space.comments, 'open comment')}</Badge>
      </Group>
      <SectionTabs params={{ spaceId }} tabs={SPACE_TABS} />
      <Outlet />
      <ContentDialogs orgId={orgId} />
      <ShareDialog target={shareTarget(space)} opened={sharing} onClose={() => setSharing(false)} />
    </>
  )
}

/**
 * The top of the Pages tab's tree pane: the space's emoji, title (its organization and collections in a tooltip),
 * its menu, and its tabs as icons; one header's height, beside the editor's. `onClose`: a close button (the tree
 * drawn over the editor).
 */
export function SpacePaneHeader({ spaceId, onClose }: { spaceId: string; onClose?: () => void }) {
  const { data: space } = useSuspenseQuery(spaceQuery(spaceId))
  const orgId = space.organization
  const org = useQuery(orgQuery(orgId)).data
  const collections = useQuery(collectionsQuery(orgId)).data ?? []
  const actions = useContentActions(orgId)
  const title = space.title || 'Untitled space'
  const where = [
    org?.title ?? 'Organization',
    ...collectionPath(collections, space.parent).map((c) => c.title || 'Untitled collection')
  ].join(' / ')
  return (
    <div className={classes.paneHeader}>
      <div className={classes.paneTitleRow}>
        <EmojiPicker value={emojiText(space.emoji)} onChange={(emoji) => actions.setEmoji(space.id, emoji)}>
          <button type="button" className={classes.paneEmoji} aria-label="Change emoji">
            {emojiText(space.emoji) || <IconFileText size={16} stroke={1.6} />}
          </button>
        </EmojiPicker>
        <Tooltip label={`${where} / ${title}`} openDelay={600}>
          <Text component="h2" className={classes.paneTitle} data-testid="space-title">
            {title}
          </Text>
        </Tooltip>
        <SpaceMenu space={space} compact />
        {onClose && <CloseButton aria-label="Hide pages" onClick={onClose} data-testid="hide-tree" />}
      </div>
      <SectionTabs params={{ spaceId }} tabs={COMPACT_TABS} compact />
    </div>
  )
}

/** The space's menu: import, PDF, and for admins duplicate, move and delete (and rename, in the compact header). */
function SpaceMenu({ space, compact }: { space: Space; compact?: boolean }) {
  const orgId = space.organization
  const navigate = useNavigate()
  const actions = useContentActions(orgId)
  // The whole space's main content as a PDF (a failure says why in a toast, as every failed action does),
  // followed by its job while the server draws it.
  const [pdfJob, setPdfJob] = useState<string | undefined>()
  const pdf = useMutation({
    mutationFn: async () => {
      const job = newJobId()
      await downloadPdf({ spaceId: space.id }, undefined, job)
      setPdfJob(job)
    }
  })
  const [importing, setImporting] = useState(false)
  const [sharing, setSharing] = useState(false)
  const row = { kind: 'space' as const, id: space.id, title: space.title, childCount: 0 }
  return (
    <>
      <PdfExportProgress job={pdfJob} onDone={() => setPdfJob(undefined)} />
      <Menu>
        <Menu.Target>
          {compact ? (
            <ActionIcon aria-label="More actions" data-testid="space-menu">
              <IconDots size={16} />
            </ActionIcon>
          ) : (
            <Button variant="default" px={8} aria-label="More actions" data-testid="space-menu">
              <IconDots size={16} />
            </Button>
          )}
        </Menu.Target>
        <Menu.Dropdown>
          {compact && space.permissions.admin && (
            <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => actions.rename(row)}>
              Rename…
            </Menu.Item>
          )}
          {compact && (
            <Menu.Item
              leftSection={<IconSettings size={16} />}
              onClick={() => void navigate({ to: '/spaces/$spaceId/settings', params: { spaceId: space.id } })}
              data-testid="space-settings-item"
            >
              Settings
            </Menu.Item>
          )}
          {space.permissions.edit && space.editMode !== 'locked' && (
            <Menu.Item leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)} data-testid="space-import">
              Import pages…
            </Menu.Item>
          )}
          {compact && (
            <Menu.Item leftSection={<IconShare size={16} />} onClick={() => setSharing(true)} data-testid="space-menu-share">
              Share…
            </Menu.Item>
          )}
          <Menu.Item leftSection={<IconFileTypePdf size={16} />} onClick={() => pdf.mutate()} data-testid="space-export-pdf">
            Export as PDF
          </Menu.Item>
          {space.permissions.admin && (
            <>
              <Menu.Divider />
              <Menu.Item leftSection={<IconCopy size={16} />} onClick={() => actions.duplicate(row)}>
                Duplicate
              </Menu.Item>
              <Menu.Item leftSection={<IconArrowsMove size={16} />} onClick={() => actions.move(row)}>
                Move to…
              </Menu.Item>
              <Menu.Item leftSection={<IconArrowsExchange size={16} />} onClick={() => actions.transfer(row)} data-testid="space-transfer">
                Transfer to organization…
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => actions.remove(row, () => void navigate({ to: '/orgs/$orgId', params: { orgId } }))}
              >
                Delete
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <ImportDialog spaceId={space.id} opened={importing} onClose={() => setImporting(false)} />
      {compact && <ShareDialog target={shareTarget(space)} opened={sharing} onClose={() => setSharing(false)} />}
    </>
  )
}
