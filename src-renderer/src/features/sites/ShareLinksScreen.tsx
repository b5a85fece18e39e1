import { ActionIcon, Alert, Badge, Button, Group, Menu, Modal, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core'
import { useForm } from '@mantine/form'
import { modals } from '@mantine/modals'
import { IconCopy, IconDots, IconInfoCircle, IconLink, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { ShareLink } from '../../api/types.ts'
import { applyFormError, notifyError, notifySuccess } from '../../app/notify.ts'
import { formatDate } from '../common/format.ts'
import { useReportAppState } from '../../app/appState.ts'
import { DataTable, tableCell, type DataTableColumn, type RowPlacement } from '../common/DataTable.tsx'
import { VISIBILITY_LABELS } from './labels.ts'
import { shareLinksQuery, siteQuery, useCreateShareLink, useDeleteShareLink, useUpdateShareLink, useUpdateSite } from './queries.ts'
import { useCanManageSites } from './SiteScreen.tsx'
import classes from './Sites.module.css'
import { DialogActions } from '../common/DialogActions.tsx'
import { useFormReset } from '../common/useFormReset.ts'

const COLUMNS: DataTableColumn[] = [{ header: 'Name' }, { header: 'Status' }, { header: 'Created' }, { header: '' }]
const TEMPLATE = 'minmax(200px, 1fr) 90px 110px 72px'

/** Copies a text; says so, or why not (a browser may refuse clipboard access). */
export async function copyText(text: string, message: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    notifySuccess(message)
  } catch (e) {
    notifyError(e, 'Could not copy the link')
  }
}

/**
 * Share links of a site: secret addresses that open a share-link site. Create one per audience and copy its
 * address then (the API shows its key only once), turn it off when that audience should lose access, delete it
 * for good.
 */
export function ShareLinksScreen({ orgId, siteId }: { orgId: string; siteId: string }) {
  const canManage = useCanManageSites(orgId)
  const { data: site } = useSuspenseQuery(siteQuery(orgId, siteId))
  // Listing links is management (their keys open the site): readers see an explanation instead.
  const links = useQuery({ ...shareLinksQuery(orgId, siteId), enabled: canManage })
  const create = useCreateShareLink(orgId, siteId)
  const makeShareLink = useUpdateSite(orgId, siteId)
  const form = useForm({ initialValues: { name: '' } })
  const [renaming, setRenaming] = useState<ShareLink | null>(null)
  const [created, setCreated] = useState<ShareLink | null>(null)
  useReportAppState(links.data || !canManage ? 'ready' : 'loading')

  if (!canManage)
    return (
      <Text size="sm" c="dimmed">
        Share links carry the secret keys that open the site; only members who may create content manage them.
      </Text>
    )

  return (
    <Stack gap="md">
      {site.visibility !== 'share-link' && (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} data-testid="share-link-hint">
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              This site is <b>{VISIBILITY_LABELS[site.visibility]}</b>: share links only matter when its visibility is <b>Share link</b>.
              You can prepare links now.
            </Text>
            <Button
              size="xs"
              variant="default"
              loading={makeShareLink.isPending}
              onClick={() =>
                makeShareLink.mutate({ visibility: 'share-link' }, { onSuccess: () => notifySuccess('Visibility: Share link') })
              }
            >
              Switch to share link
            </Button>
          </Group>
        </Alert>
      )}
      <DataTable
        items={links.data}
        itemKey={(link) => link.id}
        columns={COLUMNS}
        template={TEMPLATE}
        testId="share-link-list"
        empty={{
          icon: <IconLink size={28} stroke={1.6} />,
          title: 'No share links yet',
          description:
            'Each link opens the published site for whoever has it. Create one per audience, so you can turn one off without affecting the others.',
          testId: 'share-links-empty'
        }}
        toolbar={{
          start: (
            <form
              style={{ flex: 1 }}
              onSubmit={form.onSubmit(({ name }) =>
                create.mutate(
                  { name: name.trim() },
                  {
                    onSuccess: (link) => {
                      notifySuccess(`Share link “${link.name ?? 'Untitled'}” created`)
                      form.reset()
                      setCreated(link)
                    },
                    onError: (e) => applyFormError(form, e)
                  }
                )
              )}
            >
              <Group gap="xs" align="flex-start" wrap="nowrap">
                <TextInput
                  placeholder="Name, e.g. Beta customers"
                  aria-label="Share link name"
                  style={{ flex: 1, maxWidth: 360 }}
                  {...form.getInputProps('name')}
                  data-testid="share-link-name"
                />
                <Button
                  type="submit"
                  leftSection={<IconPlus size={16} />}
                  loading={create.isPending}
                  disabled={!form.values.name.trim()}
                  data-testid="create-share-link"
                >
                  Create link
                </Button>
              </Group>
            </form>
          )
        }}
        renderRow={(link, placement) => (
          <ShareLinkRow orgId={orgId} siteId={siteId} link={link} placement={placement} onRename={() => setRenaming(link)} />
        )}
      />
      <RenameLinkDialog orgId={orgId} siteId={siteId} link={renaming} onClose={() => setRenaming(null)} />
      <CreatedLinkDialog link={created} onClose={() => setCreated(null)} />
    </Stack>
  )
}

function ShareLinkRow({
  orgId,
  siteId,
  link,
  placement,
  onRename
}: {
  orgId: string
  siteId: string
  link: ShareLink
  placement: RowPlacement
  onRename(): void
}) {
  const update = useUpdateShareLink(orgId, siteId)
  const remove = useDeleteShareLink(orgId, siteId)
  const name = link.name || 'Untitled link'
  const active = !!link.active
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete share link?',
      children: (
        <Text size="sm">
          Whoever has “{name}” can no longer open the site with it. This cannot be undone; to pause a link, turn it off instead.
        </Text>
      ),
      labels: { confirm: 'Delete link', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(link.id, { onSuccess: () => notifySuccess(`Share link “${name}” deleted`) })
    })
  return (
    <div {...placement} data-testid="share-link-row">
      <Text className={tableCell} fw={500} truncate data-testid="share-link-title">
        {name}
      </Text>
      <div className={tableCell}>
        <Badge color={active ? 'teal' : 'gray'} data-testid="share-link-status">
          {active ? 'Active' : 'Off'}
        </Badge>
      </div>
      <Text className={tableCell} c="dimmed">
        {formatDate(link.createdAt)}
      </Text>
      <Group gap={4} justify="flex-end" wrap="nowrap" className={tableCell}>
        <Tooltip label={active ? 'Turn off: the link stops opening the site' : 'Turn on'}>
          <Switch
            size="xs"
            checked={active}
            disabled={update.isPending}
            aria-label={active ? `Turn off ${name}` : `Turn on ${name}`}
            onChange={(e) => {
              const next = e.currentTarget.checked
              update.mutate(
                { linkId: link.id, active: next },
                { onSuccess: () => notifySuccess(next ? `“${name}” is active again` : `“${name}” is turned off`) }
              )
            }}
            data-testid="share-link-active"
          />
        </Tooltip>
        <Menu>
          <Menu.Target>
            <ActionIcon aria-label={`Actions for ${name}`} data-testid="share-link-menu">
              <IconDots size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconPencil size={16} />} onClick={onRename}>
              Rename…
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={confirmDelete}>
              Delete…
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </div>
  )
}

/** The address of a link just created, with its key: shown this once (the API keeps only the key's hash). */
function CreatedLinkDialog({ link, onClose }: { link: ShareLink | null; onClose(): void }) {
  const url = link?.urls.published ?? ''
  return (
    <Modal opened={!!link} onClose={onClose} title={`Share link “${link?.name || 'Untitled link'}” created`}>
      <Stack>
        <Group gap="xs" wrap="nowrap">
          <TextInput
            readOnly
            value={url}
            aria-label="Share link address"
            style={{ flex: 1 }}
            classNames={{ input: classes.mono }}
            onFocus={(e) => e.currentTarget.select()}
            data-testid="created-share-link-url"
          />
          <Tooltip label="Copy link">
            <ActionIcon
              size="lg"
              variant="default"
              aria-label="Copy link"
              onClick={() => void copyText(url, 'Link copied')}
              data-testid="copy-share-link"
            >
              <IconCopy size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Alert variant="light" color="yellow" icon={<IconInfoCircle size={18} />} data-testid="share-link-once">
          Copy this address now: it cannot be shown again. Quire keeps only a fingerprint of its key; if the address is lost, create a new
          link.
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onClose} data-testid="created-share-link-done">
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

function RenameLinkDialog({ orgId, siteId, link, onClose }: { orgId: string; siteId: string; link: ShareLink | null; onClose(): void }) {
  const update = useUpdateShareLink(orgId, siteId, { inline: true })
  const form = useForm({ initialValues: { name: '' } })
  useFormReset(form, link && { name: link.name ?? '' }, link)
  return (
    <Modal opened={!!link} onClose={onClose} title="Rename share link">
      <form
        onSubmit={form.onSubmit(({ name }) => {
          if (!link) return
          update.mutate(
            { linkId: link.id, name: name.trim() },
            {
              onSuccess: (l) => {
                notifySuccess(`Share link renamed to “${l.name}”`)
                onClose()
              },
              onError: (e) => applyFormError(form, e)
            }
          )
        })}
      >
        <Stack>
          <TextInput label="Name" description="Up to 50 characters" data-autofocus {...form.getInputProps('name')} />
          <DialogActions onCancel={onClose} submit="Rename" loading={update.isPending} />
        </Stack>
      </form>
    </Modal>
  )
}
