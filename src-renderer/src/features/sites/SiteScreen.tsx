import { useState } from 'react'
import { Badge, Breadcrumbs, Button, Group, Menu, Modal, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core'
import { useForm } from '@mantine/form'
import { modals } from '@mantine/modals'
import {
  IconAdjustments,
  IconBinaryTree,
  IconDots,
  IconEye,
  IconArrowForwardUp,
  IconExternalLink,
  IconLink,
  IconPalette,
  IconPencil,
  IconSettings,
  IconShare,
  IconTrash,
  IconUserQuestion,
  IconWorld,
  IconWorldOff,
  IconWorldUpload
} from '@tabler/icons-react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { Outlet, useNavigate } from '@tanstack/react-router'
import type { Site } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { formatDate } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { PageHeader } from '../common/PageHeader.tsx'
import { SectionTabs, type SectionTab } from '../common/SectionTabs.tsx'
import { orgQuery } from '../orgs/queries.ts'
import { VISIBILITY_DESCRIPTIONS, VISIBILITY_LABELS, visibilityOptions } from './labels.ts'
import { openPreview, previewTarget } from './preview.ts'
import {
  createdShareLinkUrls,
  shareLinksQuery,
  siteQuery,
  useDeleteSite,
  usePublishSite,
  useUpdateSite,
  type SiteVisibility
} from './queries.ts'
import classes from './Sites.module.css'
import { DialogActions } from '../common/DialogActions.tsx'
import { ShareDialog } from '../access/ShareDialog.tsx'
import { useFormReset } from '../common/useFormReset.ts'

const SITE_TABS: SectionTab[] = [
  { to: '/orgs/$orgId/sites/$siteId', label: 'Structure', icon: <IconBinaryTree size={16} />, testId: 'tab-structure' },
  { to: '/orgs/$orgId/sites/$siteId/share-links', label: 'Share links', icon: <IconLink size={16} />, testId: 'tab-share-links' },
  { to: '/orgs/$orgId/sites/$siteId/redirects', label: 'Redirects', icon: <IconArrowForwardUp size={16} />, testId: 'tab-redirects' },
  { to: '/orgs/$orgId/sites/$siteId/preview', label: 'Preview', icon: <IconEye size={16} />, testId: 'tab-preview' },
  { to: '/orgs/$orgId/sites/$siteId/customization', label: 'Customization', icon: <IconPalette size={16} />, testId: 'tab-customization' },
  { to: '/orgs/$orgId/sites/$siteId/adaptive', label: 'Adaptive content', icon: <IconUserQuestion size={16} />, testId: 'tab-adaptive' },
  { to: '/orgs/$orgId/sites/$siteId/settings', label: 'Settings', icon: <IconSettings size={16} />, testId: 'tab-settings' }
]

/** Whether the caller may change the organization's sites (the API asks for the create role). */
export function useCanManageSites(orgId: string): boolean {
  return useQuery(orgQuery(orgId)).data?.permissions.createContent ?? false
}

/**
 * A site: what it is and who reads it (title, visibility, published or not), the preview, and tabs for its
 * structure, share links, redirects, look, adaptive content and settings (child routes render below the tabs).
 */
export function SiteScreen({ orgId, siteId }: { orgId: string; siteId: string }) {
  const { data: site } = useSuspenseQuery(siteQuery(orgId, siteId))
  const canManage = useCanManageSites(orgId)
  const update = useUpdateSite(orgId, siteId)
  const publish = usePublishSite(orgId, siteId)
  const remove = useDeleteSite(orgId)
  const navigate = useNavigate()
  // Share-link sites open with a link's key (known to the window that created the link); listing links needs the create role.
  const links = useQuery({ ...shareLinksQuery(orgId, siteId), enabled: canManage && site.visibility === 'share-link' })
  const preview = previewTarget(site, links.data, createdShareLinkUrls)
  const [renaming, setRenaming] = useState(false)
  const [sharing, setSharing] = useState(false)
  const isOrgAdmin = useQuery(orgQuery(orgId)).data?.permissions.admin ?? false

  const setVisibility = (visibility: SiteVisibility) => {
    if (visibility === site.visibility) return
    update.mutate({ visibility }, { onSuccess: (s) => notifySuccess(`Visibility: ${VISIBILITY_LABELS[s.visibility]}`) })
  }
  const togglePublished = () =>
    publish.mutate(!site.published, {
      onSuccess: (s) => notifySuccess(s.published ? `“${s.title}” is published` : `“${s.title}” is unpublished`)
    })
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete site?',
      children: (
        <Text size="sm">
          “{site.title}” is deleted with its structure and share links{site.published ? ', and readers no longer reach it' : ''}. Its spaces
          and their content stay.
        </Text>
      ),
      labels: { confirm: 'Delete site', cancel: 'Cancel' },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete-site' },
      onConfirm: () =>
        remove.mutate(site.id, {
          onSuccess: () => {
            notifySuccess(`Site “${site.title}” deleted`)
            void navigate({ to: '/orgs/$orgId/sites', params: { orgId } })
          }
        })
    })

  return (
    <>
      <Breadcrumbs mb="md" separatorMargin={6} className={classes.crumbs}>
        <RouterAnchor to="/orgs/$orgId/sites" params={{ orgId }} size="sm" c="dimmed">
          Sites
        </RouterAnchor>
        <Text size="sm">{site.title}</Text>
      </Breadcrumbs>
      <PageHeader
        icon={
          <span className={classes.siteIcon} aria-hidden>
            {site.published ? <IconWorld size={24} stroke={1.5} /> : <IconWorldOff size={24} stroke={1.5} />}
          </span>
        }
        title={
          <Group gap="sm" wrap="nowrap" component="span">
            <span>{site.title}</span>
            <Badge color={site.published ? 'teal' : 'gray'} className={classes.titleBadge} data-testid="site-published-badge">
              {site.published ? 'Published' : 'Unpublished'}
            </Badge>
          </Group>
        }
        description={`${site.siteSpaces} ${site.siteSpaces === 1 ? 'space' : 'spaces'} · created ${formatDate(site.createdAt)}`}
        actions={
          <>
            <Tooltip label={preview.reason ?? preview.url} disabled={!preview.reason && !preview.url}>
              <Button
                variant="default"
                leftSection={<IconExternalLink size={16} />}
                disabled={!preview.url}
                onClick={() => preview.url && openPreview(preview.url)}
                aria-label="Open preview"
                classNames={{ section: classes.previewIcon }}
                data-testid="open-preview"
              >
                {/* The label gives way in a narrow window (Sites.module.css), so the title keeps one line. */}
                <span className={classes.previewLabel}>Open preview</span>
              </Button>
            </Tooltip>
            {/* An icon only: the site header already holds the preview and publish buttons beside the title. */}
            <Tooltip label="Share">
              <Button variant="default" px={8} aria-label="Share" onClick={() => setSharing(true)} data-testid="site-share">
                <IconShare size={16} />
              </Button>
            </Tooltip>
            {canManage && (
              <>
                <Button
                  variant={site.published ? 'default' : 'filled'}
                  leftSection={site.published ? <IconWorldOff size={16} /> : <IconWorldUpload size={16} />}
                  loading={publish.isPending}
                  onClick={togglePublished}
                  data-testid="publish-toggle"
                >
                  {site.published ? 'Unpublish' : 'Publish'}
                </Button>
                <Menu>
                  <Menu.Target>
                    <Button variant="default" px={8} aria-label="More actions" data-testid="site-menu">
                      <IconDots size={16} />
                    </Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setRenaming(true)} data-testid="rename-site">
                      Rename…
                    </Menu.Item>
                    <Menu.Divider />
                    <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={confirmDelete} data-testid="delete-site">
                      Delete site…
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </>
            )}
          </>
        }
      />
      <Group gap="sm" mb="md" wrap="nowrap" align="center">
        <IconAdjustments size={16} color="var(--mantine-color-dimmed)" aria-hidden />
        <Select
          aria-label="Visibility"
          data={visibilityOptions()}
          value={site.visibility}
          onChange={(v) => v && setVisibility(v as SiteVisibility)}
          disabled={!canManage || update.isPending}
          w={220}
          size="xs"
          data-testid="site-visibility"
        />
        <Text size="sm" c="dimmed">
          {VISIBILITY_DESCRIPTIONS[site.visibility]}
        </Text>
      </Group>
      <SectionTabs params={{ orgId, siteId }} tabs={SITE_TABS} />
      <Outlet />
      <ShareDialog
        // Managing a site's access needs admin on it; the organization's admins have it (a site grant is not shown here).
        target={{
          kind: 'site',
          id: site.id,
          title: site.title,
          organization: orgId,
          canAdmin: isOrgAdmin,
          visibility: VISIBILITY_LABELS[site.visibility]
        }}
        opened={sharing}
        onClose={() => setSharing(false)}
      />
      <RenameSiteDialog orgId={orgId} site={site} opened={renaming} onClose={() => setRenaming(false)} />
    </>
  )
}

function RenameSiteDialog({ orgId, site, opened, onClose }: { orgId: string; site: Site; opened: boolean; onClose(): void }) {
  const update = useUpdateSite(orgId, site.id, { inline: true })
  const form = useForm({ initialValues: { title: site.title } })
  useFormReset(form, opened ? { title: site.title } : null, opened)
  return (
    <Modal opened={opened} onClose={onClose} title="Rename site" data-testid="rename-site-dialog">
      <form
        onSubmit={form.onSubmit(({ title }) =>
          update.mutate(
            { title: title.trim() },
            {
              onSuccess: (s) => {
                notifySuccess(`Site renamed to “${s.title}”`)
                onClose()
              },
              onError: (e) => applyFormError(form, e)
            }
          )
        )}
      >
        <Stack>
          <TextInput
            label="Title"
            description="2 to 128 characters"
            data-autofocus
            {...form.getInputProps('title')}
            data-testid="rename-site-input"
          />
          <DialogActions onCancel={onClose} submit="Rename" loading={update.isPending} submitTestId="rename-site-submit" />
        </Stack>
      </form>
    </Modal>
  )
}
