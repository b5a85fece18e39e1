import {
  ActionIcon,
  Alert,
  Badge,
  Button,
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
import { pagesQuery } from '../pages/queries.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { DataTable, tableCell, type DataTableColumn, type RowPlacement } from '../common/DataTable.tsx'
import { saveFile } from '../common/saveFile.ts'
import {
  redirectsQuery,
  siteQuery,
  siteStructureQuery,
  useBulkRedirects,
  useCreateRedirect,
  useDeleteRedirect,
  useUpdateRedirect
} from './queries.ts'
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
import { useFormReset } from '../common/useFormReset.ts'

/** The site's page lists; the answer is shared structurally, so `data` stays the same array while no list changed. */
function combinePageTrees<D>(results: { isPending: boolean; data: D | undefined }[]) {
  return { loaded: results.every((q) => !q.isPending), data: results.map((q) => q.data) }
}

const COLUMNS: DataTableColumn[] = [{ header: 'Source' }, { header: 'Destination' }, { header: 'Notes' }, { header: '' }]
const TEMPLATE = 'minmax(160px, 1fr) minmax(160px, 1.2fr) 200px 48px'

/**
 * Redirects of a site: a path readers used to open (an old page, a renamed section) sends them to a page, site
 * space or section of the site, or to another address. Site admins (the site's `permissions.admin`: organization
 * admins and those granted admin on the site) add, change and delete them, import a CSV (`source,destination`)
 * and export one. Rows whose destination is gone, or whose source is a live page the redirect hides, are marked.
 */
export function RedirectsScreen({ orgId, siteId }: { orgId: string; siteId: string }) {
  const { data: structure } = useSuspenseQuery(siteStructureQuery(orgId, siteId))
  const { data: site } = useSuspenseQuery(siteQuery(orgId, siteId))
  const canManage = site.permissions.admin
  const redirects = useQuery(redirectsQuery(orgId, siteId))
  const spaceIds = useMemo(() => [...new Set(siteSpacesOf(structure).flatMap((ss) => (ss.space ? [ss.space.id] : [])))], [structure])
  const pageTrees = useQueries({ queries: spaceIds.map((spaceId) => pagesQuery({ spaceId })), combine: combinePageTrees })
  const pagesLoaded = pageTrees.loaded
  const pageData = pageTrees.data
  const paths = useMemo(
    () => sitePaths(structure, new Map(spaceIds.flatMap((id, i) => (pageData[i] ? [[id, pageData[i]] as const] : [])))),
    [structure, spaceIds, pageData]
  )
  const list = redirects.data
  const [editing, setEditing] = useState<SiteRedirect | 'new' | null>(null)
  const [importing, setImporting] = useState(false)
  useReportAppState(redirects.data && pagesLoaded ? 'ready' : 'loading')
  const warnings = useMemo(() => (list ?? []).map((r) => redirectWarnings(r, paths)), [list, paths])
  const missing = warnings.filter((w) => w.missingDestination).length
  const shadowing = warnings.filter((w) => w.shadowsPage).length

  const exportCsv = () => saveFile(redirectsToCsv(list ?? [], paths), 'redirects.csv', 'text/csv')

  return (
    <DataTable
      items={list}
      itemKey={(r) => r.id}
      columns={COLUMNS}
      template={TEMPLATE}
      testId="redirect-list"
      empty={{
        icon: <IconArrowForwardUp size={28} stroke={1.6} />,
        title: 'No redirects yet',
        description: 'When a page moves or a section is renamed, redirect its old path so links to it keep working.',
        testId: 'redirects-empty'
      }}
      toolbar={{
        start: (
          <Text size="sm" c="dimmed" style={{ maxWidth: 560 }}>
            A redirect sends readers of a path of the published site to a page, a site space, a section or another address. It applies
            before any page at that path.
          </Text>
        ),
        end: (
          <>
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
              disabled={!list?.length}
              data-testid="export-redirects"
            >
              Export CSV
            </Button>
          </>
        )
      }}
      notices={
        <>
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
                    {missing === 1 ? '1 redirect leads' : `${missing} redirects lead`} to a page, site space or section that no longer
                    exists.
                  </Text>
                )}
                {shadowing > 0 && (
                  <Text size="sm">
                    {shadowing === 1 ? '1 redirect starts' : `${shadowing} redirects start`} at a live page of the site, which readers can
                    no longer open.
                  </Text>
                )}
              </Stack>
            </Alert>
          )}
          <RedirectDialog orgId={orgId} siteId={siteId} redirect={editing} paths={paths} onClose={() => setEditing(null)} />
          <ImportDialog orgId={orgId} siteId={siteId} opened={importing} paths={paths} onClose={() => setImporting(false)} />
        </>
      }
      renderRow={(redirect, placement) => (
        <RedirectRow
          orgId={orgId}
          siteId={siteId}
          redirect={redirect}
          paths={paths}
          pagesLoaded={pagesLoaded}
          canManage={canManage}
          placement={placement}
          onEdit={() => setEditing(redirect)}
        />
      )}
    />
  )
}

interface RowProps {
  orgId: string
  siteId: string
  redirect: SiteRedirect
  paths: SitePaths
  pagesLoaded: boolean
  canManage: boolean
  placement: RowPlacement
  onEdit(): void
}

function RedirectRow({ orgId, siteId, redirect, paths, pagesLoaded, canManage, placement, onEdit }: RowProps) {
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
    <div {...placement} data-testid="redirect-row">
      <Text className={tableCell} ff="monospace" size="sm" truncate data-testid="redirect-source">
        {redirect.source}
      </Text>
      <Text
        className={tableCell}
        ff={destination ? 'monospace' : undefined}
        size="sm"
        truncate
        c={destination ? undefined : 'dimmed'}
        data-testid="redirect-destination"
      >
        {destination ?? (pagesLoaded ? 'Not in the site any more' : '…')}
      </Text>
      <Group gap={4} className={tableCell} wrap="nowrap">
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
      <Group gap={4} justify="flex-end" wrap="nowrap" className={tableCell}>
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
  useFormReset(
    form,
    redirect === 'new'
      ? { source: '', destination: '', permanent: false }
      : redirect && {
          source: redirect.source,
          destination: destinationText(redirect.destination, paths) ?? '',
          permanent: redirect.permanent
        },
    redirect
  )
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
