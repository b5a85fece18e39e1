import { useState } from 'react'
import {
  ActionIcon,
  Badge,
  Button,
  EmptyState,
  Group,
  Menu,
  Modal,
  MultiSelect,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput
} from '@mantine/core'
import { useForm } from '@mantine/form'
import { useDebouncedValue } from '@mantine/hooks'
import { modals } from '@mantine/modals'
import { IconDots, IconExternalLink, IconPlus, IconSearch, IconTrash, IconWorld } from '@tabler/icons-react'
import { keepPreviousData, useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { Site } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { formatDate } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { PageHeader } from '../common/PageHeader.tsx'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import { spacesQuery } from '../content/queries.ts'
import { orgQuery } from '../orgs/queries.ts'
import { VISIBILITY_DESCRIPTIONS, VISIBILITY_LABELS, visibilityOptions } from './labels.ts'
import { sitesQuery, useCreateSite, useDeleteSite, type SiteFilters, type SiteVisibility } from './queries.ts'
import { openPreview, previewTarget } from './preview.ts'
import classes from '../common/DataTable.module.css'
import { DialogActions } from '../common/DialogActions.tsx'
import { withEmoji } from '../common/emoji.ts'
import { useFormReset } from '../common/useFormReset.ts'

const ROW_HEIGHT = 56
const COLUMNS = 'minmax(220px, 2fr) 170px 120px 90px 120px 36px'
type Status = 'all' | 'published' | 'unpublished'

/** The organization's sites: find one, see at a glance what is live and for whom, create a new one. */
export function SitesScreen({ orgId }: { orgId: string }) {
  const { data: org } = useSuspenseQuery(orgQuery(orgId))
  const canManage = org.permissions.createContent
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 250)
  const [status, setStatus] = useState<Status>('all')
  const filters: SiteFilters = {}
  // The API takes titles of at most 128 characters; no site title is longer.
  if (debounced) filters.title = debounced.slice(0, 128)
  if (status !== 'all') filters.published = status === 'published'
  const query = useQuery({ ...sitesQuery(orgId, filters), placeholderData: keepPreviousData })
  const sites = query.data ?? []
  const filtered = !!debounced || status !== 'all'
  const [creating, setCreating] = useState(false)
  const navigate = useNavigate()
  useReportAppState(query.data ? 'ready' : 'loading')

  const { listRef, virtualizer, scrollMargin } = usePageVirtualizer({
    count: sites.length,
    rowHeight: ROW_HEIGHT,
    getItemKey: (i) => sites[i]!.id
  })

  return (
    <>
      <PageHeader
        title="Sites"
        description="Published documentation sites built from your spaces."
        actions={
          canManage && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-site">
              New site
            </Button>
          )
        }
      />
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          <TextInput
            placeholder="Search by title"
            leftSection={<IconSearch size={15} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: 1, maxWidth: 360 }}
            aria-label="Search sites"
            data-testid="site-search"
          />
          <SegmentedControl
            value={status}
            onChange={(v) => setStatus(v as Status)}
            data={[
              { value: 'all', label: 'All' },
              { value: 'published', label: 'Published' },
              { value: 'unpublished', label: 'Unpublished' }
            ]}
            aria-label="Filter by status"
            data-testid="site-status-filter"
          />
        </Group>
        {!query.data ? (
          <RowsSkeleton rows={5} />
        ) : sites.length === 0 ? (
          <EmptyState
            mt={32}
            variant="light"
            icon={<IconWorld size={28} stroke={1.6} />}
            title={filtered ? 'No site matches' : 'No sites yet'}
            description={
              filtered
                ? 'Try another title or status.'
                : 'A site publishes one or more spaces for readers: public docs, a help centre, an internal handbook. Create one to choose its spaces and how it looks.'
            }
            data-testid="sites-empty"
          />
        ) : (
          <div className={classes.table} style={{ ['--columns' as string]: COLUMNS }}>
            <div className={classes.head}>
              <span>Site</span>
              <span>Visibility</span>
              <span>Status</span>
              <span>Spaces</span>
              <span>Created</span>
              <span />
            </div>
            <div ref={listRef} className={classes.body} style={{ height: virtualizer.getTotalSize() }} data-testid="site-list">
              {virtualizer.getVirtualItems().map((item) => {
                const site = sites[item.index]!
                return <SiteRow key={item.key} orgId={orgId} site={site} canManage={canManage} top={item.start - scrollMargin} />
              })}
            </div>
            <div className={classes.footer}>
              {sites.length} {sites.length === 1 ? 'site' : 'sites'}
              {query.isFetching && ' · updating…'}
            </div>
          </div>
        )}
      </Stack>
      <CreateSiteDialog
        orgId={orgId}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(site) => void navigate({ to: '/orgs/$orgId/sites/$siteId', params: { orgId, siteId: site.id } })}
      />
    </>
  )
}

function SiteRow({ orgId, site, canManage, top }: { orgId: string; site: Site; canManage: boolean; top: number }) {
  const remove = useDeleteSite(orgId)
  const preview = previewTarget(site, [])
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete site?',
      children: <Text size="sm">“{site.title}” is deleted with its structure and share links. Its spaces and their content stay.</Text>,
      labels: { confirm: 'Delete site', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(site.id, { onSuccess: () => notifySuccess(`Site “${site.title}” deleted`) })
    })
  return (
    <div className={classes.row} style={{ transform: `translateY(${top}px)` }} data-testid="site-row">
      <Group gap="sm" wrap="nowrap" className={classes.cell}>
        <IconWorld size={20} stroke={1.5} color="var(--mantine-color-indigo-5)" style={{ flex: 'none' }} />
        <RouterAnchor
          to="/orgs/$orgId/sites/$siteId"
          params={{ orgId, siteId: site.id }}
          fw={500}
          size="sm"
          truncate
          data-testid="site-title"
        >
          {site.title}
        </RouterAnchor>
      </Group>
      <Text className={classes.cell} c="dimmed" title={VISIBILITY_DESCRIPTIONS[site.visibility]} data-testid="site-visibility">
        {VISIBILITY_LABELS[site.visibility]}
      </Text>
      <div className={classes.cell}>
        <Badge color={site.published ? 'teal' : 'gray'} data-testid="site-status">
          {site.published ? 'Published' : 'Unpublished'}
        </Badge>
      </div>
      <Text className={classes.cell} c="dimmed" data-testid="site-space-count">
        {site.siteSpaces}
      </Text>
      <Text className={classes.cell} c="dimmed">
        {formatDate(site.createdAt)}
      </Text>
      <div className={classes.cell}>
        <Menu>
          <Menu.Target>
            <ActionIcon aria-label={`Actions for ${site.title}`} data-testid="site-row-menu">
              <IconDots size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              leftSection={<IconExternalLink size={16} />}
              disabled={!preview.url}
              onClick={() => preview.url && openPreview(preview.url)}
            >
              Open preview
            </Menu.Item>
            {canManage && (
              <>
                <Menu.Divider />
                <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={confirmDelete}>
                  Delete…
                </Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      </div>
    </div>
  )
}

/** New site: a title, who may read it, and optionally the spaces it starts with (in the order picked). */
export function CreateSiteDialog({
  orgId,
  opened,
  onClose,
  onCreated
}: {
  orgId: string
  opened: boolean
  onClose(): void
  onCreated?(site: Site): void
}) {
  const create = useCreateSite(orgId)
  const spaces = useQuery({ ...spacesQuery(orgId), enabled: opened })
  const form = useForm({
    initialValues: { title: '', visibility: 'public' as SiteVisibility, spaces: [] as string[] },
    validate: { title: (v) => (v.trim().length < 2 ? 'Give the site a title of at least 2 characters' : null) }
  })
  useFormReset(form, opened ? {} : null, opened)
  const close = () => {
    form.reset()
    onClose()
  }
  return (
    <Modal opened={opened} onClose={close} title="New site" size="lg" data-testid="site-dialog">
      <form
        onSubmit={form.onSubmit(({ title, visibility, spaces: picked }) =>
          create.mutate(
            { title: title.trim(), visibility, spaces: picked.length ? picked : undefined },
            {
              onSuccess: (site) => {
                notifySuccess(`Site “${site.title}” created`)
                close()
                onCreated?.(site)
              },
              // `spaces.0: no space …` names the list; put it under the picker.
              onError: (e) => applyFormError(form, e)
            }
          )
        )}
      >
        <Stack>
          <TextInput
            label="Title"
            placeholder="e.g. Developer docs"
            data-autofocus
            {...form.getInputProps('title')}
            data-testid="site-title-input"
          />
          <Select
            label="Visibility"
            description={VISIBILITY_DESCRIPTIONS[form.values.visibility]}
            data={visibilityOptions()}
            {...form.getInputProps('visibility')}
            comboboxProps={{ withinPortal: true }}
            data-testid="site-visibility-input"
          />
          <MultiSelect
            label="Spaces"
            description="Optional: the spaces the site shows, in this order. You can add, remove and arrange them later."
            placeholder={spaces.isPending ? 'Loading spaces…' : 'Pick spaces'}
            data={(spaces.data ?? []).map((s) => ({ value: s.id, label: withEmoji(s.emoji, s.title || 'Untitled space') }))}
            searchable
            nothingFoundMessage="No space matches"
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('spaces')}
            data-testid="site-spaces-input"
          />
          <DialogActions onCancel={close} submit="Create site" loading={create.isPending} submitTestId="site-dialog-submit" />
        </Stack>
      </form>
    </Modal>
  )
}
