import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  EmptyState,
  FileButton,
  Group,
  Menu,
  Modal,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Tooltip
} from '@mantine/core'
import { useForm } from '@mantine/form'
import { modals } from '@mantine/modals'
import {
  IconAlertTriangle,
  IconArrowForwardUp,
  IconDots,
  IconDownload,
  IconPencil,
  IconPlus,
  IconTrash,
  IconUpload
} from '@tabler/icons-react'
import { useQueries, useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import type { SiteRedirect } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { applyFormError, notifyError, notifySuccess } from '../../app/notify.ts'
import { orgQuery } from '../orgs/queries.ts'
import { pagesQuery } from '../pages/queries.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import table from '../common/DataTable.module.css'
import { redirectsQuery, siteStructureQuery, useBulkRedirects, useCreateRedirect, useDeleteRedirect, useUpdateRedirect } from './queries.ts'
import {
  destinationText,
  parseDestination,
  parseRedirectCsv,
  redirectsToCsv,
  redirectWarnings,
  sitePaths,
  sourceError,
  type SitePaths
} from './redirects.ts'
import { siteSpacesOf } from './siteTree.ts'

const ROW_HEIGHT = 56
const COLUMNS = 'minmax(160px, 1fr) minmax(160px, 1.2fr) 200px 48px'

/**
 * Redirects of a site: a path readers used to open (an old page, a renamed section) sends them to a page, site
 * space or section of the site, or to another address. Site admins add, change and delete them, import a CSV
 * (`source,destination`) and export one. Rows whose destination is gone, or whose source is a live page the
 * redirect hides, are marked.
 */
export function RedirectsScreen({ orgId, siteId }: { orgId: string; siteId: string }) {
  const { data: structure } = useSuspenseQuery(siteStructureQuery(orgId, siteId))
  const canManage = useQuery(orgQuery(orgId)).data?.permissions.admin ?? false
  const redirects = useQuery(redirectsQuery(orgId, siteId))
  const spaceIds = useMemo(() => [...new Set(siteSpacesOf(structure).flatMap((ss) => (ss.space ? [ss.space.id] : [])))], [structure])
  const pageTrees = useQueries({ queries: spaceIds.map((spaceId) => pagesQuery({ spaceId })) })
  const pagesLoaded = pageTrees.every((q) => !q.isPending)
  const pageData = pageTrees.map((q) => q.data)
  const paths = useMemo(
    () => sitePaths(structure, new Map(spaceIds.flatMap((id, i) => (pageData[i] ? [[id, pageData[i]] as const] : [])))),
    // The page lists are new arrays only when refetched.
    [structure, spaceIds, ...pageData]
  )
  const list = redirects.data ?? []
  const [editing, setEditing] = useState<SiteRedirect | 'new' | null>(null)
  const [importing, setImporting] = useState(false)
  useReportAppState(redirects.data && pagesLoaded ? 'ready' : 'loading')
  const warnings = useMemo(() => new Map(list.map((r) => [r.id, redirectWarnings(r, paths)])), [list, paths])
  const missing = [...warnings.values()].filter((w) => w.missingDestination).length
  const shadowing = [...warnings.values()].filter((w) => w.shadowsPage).length

  const { listRef, virtualizer, scrollMargin } = usePageVirtualizer({
    count: list.length,
    rowHeight: ROW_HEIGHT,
    getItemKey: (i) => list[i]!.id
  })

  const exportCsv = () => {
    const url = URL.createObjectURL(new Blob([redirectsToCsv(list, paths)], { type: 'text/csv' }))
    const link = document.createElement('a')
    link.href = url
    link.download = 'redirects.csv'
    document.body.append(link)
    link.click()
    link.remove()
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" style={{ maxWidth: 560 }}>
          A redirect sends readers of a path of the published site to a page, a site space, a section or another address. It applies before
          any page at that path.
        </Text>
        <Group gap="xs">
          {canManage && (
            <>
              <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="add-redirect">
                Add redirect
              </Button>
              <Button
                variant="default"
                leftSection={<IconUpload size={16} />}
                onClick={() => setImporting(true)}
                disabled={!pagesLoaded}
                data-testid="import-redirects"
              >
                Import CSV
              </Button>
            </>
          )}
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            onClick={exportCsv}
            disabled={!list.length}
            data-testid="export-redirects"
          >
            Export CSV
          </Button>
        </Group>
      </Group>
      {!canManage && (
        <Text size="sm" c="dimmed" data-testid="redirects-read-only">
          Only the site's admins change its redirects.
        </Text>
      )}
      {pagesLoaded && (missing > 0 || shadowing > 0) && (
        <Alert
          variant="light"
          color="yellow"
          icon={<IconAlertTriangle size={18} />}
          title="Some redirects need a look"
          data-testid="redirect-warnings"
        >
          <Stack gap={2}>
            {missing > 0 && (
              <Text size="sm">
                {missing === 1 ? '1 redirect leads' : `${missing} redirects lead`} to a page, site space or section that no longer exists.
              </Text>
            )}
            {shadowing > 0 && (
              <Text size="sm">
                {shadowing === 1 ? '1 redirect starts' : `${shadowing} redirects start`} at a live page of the site, which readers can no
                longer open.
              </Text>
            )}
          </Stack>
        </Alert>
      )}
      {redirects.isPending ? (
        <RowsSkeleton rows={3} />
      ) : list.length === 0 ? (
        <EmptyState
          mt={16}
          variant="light"
          icon={<IconArrowForwardUp size={28} stroke={1.6} />}
          title="No redirects yet"
          description="When a page moves or a section is renamed, redirect its old path so links to it keep working."
          data-testid="redirects-empty"
        />
      ) : (
        <div className={table.table} style={{ ['--columns' as string]: COLUMNS }}>
          <div className={table.head}>
            <span>Source</span>
            <span>Destination</span>
            <span>Notes</span>
            <span />
          </div>
          <div ref={listRef} className={table.body} style={{ height: virtualizer.getTotalSize() }} data-testid="redirect-list">
            {virtualizer.getVirtualItems().map((item) => {
              const redirect = list[item.index]!
              return (
                <RedirectRow
                  key={item.key}
                  orgId={orgId}
                  siteId={siteId}
                  redirect={redirect}
                  paths={paths}
                  pagesLoaded={pagesLoaded}
                  canManage={canManage}
                  top={item.start - scrollMargin}
                  onEdit={() => setEditing(redirect)}
                />
              )
            })}
          </div>
        </div>
      )}
      <RedirectDialog orgId={orgId} siteId={siteId} redirect={editing} paths={paths} onClose={() => setEditing(null)} />
      <ImportDialog orgId={orgId} siteId={siteId} opened={importing} paths={paths} onClose={() => setImporting(false)} />
    </Stack>
  )
}

interface RowProps {
  orgId: string
  siteId: string
  redirect: SiteRedirect
  paths: SitePaths
  pagesLoaded: boolean
  canManage: boolean
  top: number
  onEdit(): void
}

function RedirectRow({ orgId, siteId, redirect, paths, pagesLoaded, canManage, top, onEdit }: RowProps) {
  const remove = useDeleteRedirect(orgId, siteId)
  const destination = destinationText(redirect.destination, paths)
  const warn = pagesLoaded ? redirectWarnings(redirect, paths) : { missingDestination: false, shadowsPage: false }
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete redirect?',
      children: <Text size="sm">Readers who open {redirect.source} will no longer be sent on.</Text>,
      labels: { confirm: 'Delete redirect', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(redirect.id, { onSuccess: () => notifySuccess(`Redirect from ${redirect.source} deleted`) })
    })
  return (
    <div className={table.row} style={{ transform: `translateY(${top}px)` }} data-testid="redirect-row">
      <Text className={table.cell} ff="monospace" size="sm" truncate data-testid="redirect-source">
        {redirect.source}
      </Text>
      <Text
        className={table.cell}
        ff={destination ? 'monospace' : undefined}
        size="sm"
        truncate
        c={destination ? undefined : 'dimmed'}
        data-testid="redirect-destination"
      >
        {destination ?? (pagesLoaded ? 'Not in the site any more' : '…')}
      </Text>
      <Group gap={4} className={table.cell} wrap="nowrap">
        {redirect.permanent && (
          <Tooltip label="Permanent (308) for readers of a public site">
            <Badge color="gray" variant="light">
              Permanent
            </Badge>
          </Tooltip>
        )}
        {warn.missingDestination && (
          <Badge color="red" variant="light" data-testid="redirect-missing-destination">
            Destination gone
          </Badge>
        )}
        {warn.shadowsPage && (
          <Tooltip label="A page of the site lives at this path: readers get the redirect instead">
            <Badge color="yellow" variant="light" data-testid="redirect-shadows-page">
              Hides a page
            </Badge>
          </Tooltip>
        )}
      </Group>
      <Group gap={4} justify="flex-end" wrap="nowrap" className={table.cell}>
        {canManage && (
          <Menu>
            <Menu.Target>
              <ActionIcon aria-label={`Actions for ${redirect.source}`} data-testid="redirect-menu">
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconPencil size={16} />} onClick={onEdit}>
                Edit…
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={confirmDelete}>
                Delete…
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
    </div>
  )
}

/** Adds a redirect, or changes one: the destination is typed as a URL or a path of the site. */
function RedirectDialog(props: {
  orgId: string
  siteId: string
  redirect: SiteRedirect | 'new' | null
  paths: SitePaths
  onClose(): void
}) {
  const { orgId, siteId, redirect, paths, onClose } = props
  const create = useCreateRedirect(orgId, siteId)
  const update = useUpdateRedirect(orgId, siteId)
  const form = useForm({
    initialValues: { source: '', destination: '', permanent: false },
    validate: {
      source: (v) => sourceError(v.trim()),
      destination: (v) => {
        const parsed = parseDestination(v, paths)
        return 'error' in parsed ? parsed.error : undefined
      }
    }
  })
  useEffect(() => {
    if (!redirect) return
    form.setValues(
      redirect === 'new'
        ? { source: '', destination: '', permanent: false }
        : { source: redirect.source, destination: destinationText(redirect.destination, paths) ?? '', permanent: redirect.permanent }
    )
    form.clearErrors()
  }, [redirect])
  const done = (verb: string) => (r: SiteRedirect) => {
    notifySuccess(`Redirect from ${r.source} ${verb}`)
    onClose()
  }
  return (
    <Modal opened={!!redirect} onClose={onClose} title={redirect === 'new' ? 'Add redirect' : 'Edit redirect'}>
      <form
        onSubmit={form.onSubmit((values) => {
          const parsed = parseDestination(values.destination, paths)
          if ('error' in parsed || !redirect) return
          const body = { source: values.source.trim(), destination: parsed.destination, permanent: values.permanent }
          const onError = (e: unknown) => applyFormError(form, e)
          if (redirect === 'new') create.mutate(body, { onSuccess: done('added'), onError })
          else update.mutate({ id: redirect.id, ...body }, { onSuccess: done('saved'), onError })
        })}
      >
        <Stack>
          <TextInput
            label="Source"
            description="A path of the site, like /old/page; end it with * for every path under it"
            data-autofocus
            {...form.getInputProps('source')}
            data-testid="redirect-source-input"
          />
          <TextInput
            label="Destination"
            description="A path of the site (/section/space/page) or an address (https://…)"
            {...form.getInputProps('destination')}
            data-testid="redirect-destination-input"
          />
          <Switch
            label="Permanent (308 for readers of a public site; else 307)"
            {...form.getInputProps('permanent', { type: 'checkbox' })}
          />
          <DialogActions onCancel={onClose} submit={redirect === 'new' ? 'Add' : 'Save'} loading={create.isPending || update.isPending} />
        </Stack>
      </form>
    </Modal>
  )
}

/**
 * Imports a CSV of `source,destination` lines, pasted or picked from a file. Every line is checked before
 * anything is sent; lines with errors are listed by number and left out. Rows go in batches of 500.
 */
function ImportDialog({
  orgId,
  siteId,
  opened,
  paths,
  onClose
}: {
  orgId: string
  siteId: string
  opened: boolean
  paths: SitePaths
  onClose(): void
}) {
  const [text, setText] = useState('')
  const bulk = useBulkRedirects(orgId, siteId)
  const parsed = useMemo(() => parseRedirectCsv(text, paths), [text, paths])
  useEffect(() => {
    if (opened) setText('')
  }, [opened])
  const send = () =>
    bulk.mutate(
      parsed.rows.map((r) => ({ source: r.source, destination: r.destination })),
      {
        onSuccess: (written) => {
          notifySuccess(`${written} ${written === 1 ? 'redirect' : 'redirects'} imported`)
          onClose()
        },
        onError: (e) => notifyError(e, 'The import stopped')
      }
    )
  return (
    <Modal opened={opened} onClose={onClose} title="Import redirects" size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          One redirect a line: <code>source,destination</code>. The destination is a path of the site or an https:// address; a redirect
          that exists for a source is replaced.
        </Text>
        <Group gap="xs">
          <FileButton accept=".csv,text/csv,text/plain" onChange={(file) => void file?.text().then(setText)}>
            {(props) => (
              <Button {...props} variant="default" size="xs" leftSection={<IconUpload size={14} />} data-testid="redirects-csv-file">
                Choose a file…
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            or paste it below
          </Text>
        </Group>
        <Textarea
          aria-label="CSV of redirects"
          placeholder={'source,destination\n/old/page,/docs/guides/new-page\n/blog/*,https://blog.example.com'}
          autosize
          minRows={6}
          maxRows={14}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          data-testid="redirects-csv"
        />
        {text.trim() !== '' && (
          <Text size="sm" data-testid="redirects-csv-summary">
            {parsed.rows.length} {parsed.rows.length === 1 ? 'redirect' : 'redirects'} ready
            {parsed.errors.length > 0 &&
              `, ${parsed.errors.length} ${parsed.errors.length === 1 ? 'line' : 'lines'} with errors (left out)`}
          </Text>
        )}
        {parsed.errors.length > 0 && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="redirects-csv-errors">
            <Stack gap={2} style={{ maxHeight: 160, overflowY: 'auto' }}>
              {parsed.errors.map((e) => (
                <Text size="sm" key={e.line}>
                  Line {e.line}: {e.message}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={send} disabled={!parsed.rows.length} loading={bulk.isPending} data-testid="redirects-csv-send">
            Import {parsed.rows.length || ''} {parsed.rows.length === 1 ? 'redirect' : 'redirects'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
