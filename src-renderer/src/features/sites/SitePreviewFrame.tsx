import { useState } from 'react'
import { ActionIcon, Alert, Loader, Text, Tooltip, useMantineColorScheme } from '@mantine/core'
import { IconExternalLink, IconRefresh } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { previewAddress, type PreviewOptions } from './audience.ts'
import { openPreview } from './preview.ts'
import { customizationQuery, draftPreviewQuery, siteQuery, siteStructureQuery } from './queries.ts'
import classes from './SitePreview.module.css'

/**
 * The site's draft preview in a frame (published or not), as one visitor sees it. It loads again whenever the
 * site, its structure or its customization changes here, and in the app's colour scheme unless told otherwise.
 */
export function SitePreviewFrame({ orgId, siteId, options = {} }: { orgId: string; siteId: string; options?: PreviewOptions }) {
  const draft = useQuery(draftPreviewQuery(orgId, siteId))
  const customization = useQuery(customizationQuery(orgId, siteId))
  const structure = useQuery(siteStructureQuery(orgId, siteId))
  const site = useQuery(siteQuery(orgId, siteId))
  // An app that follows the system leaves the preview to follow it too (no reload when it flips).
  const { colorScheme } = useMantineColorScheme()
  const appScheme = colorScheme === 'auto' ? undefined : colorScheme
  const [reloads, setReloads] = useState(0)
  if (draft.error) {
    return (
      <Alert color="red" title="No preview" data-testid="site-preview-error">
        {draft.error.message}
      </Alert>
    )
  }
  if (!draft.data) return <Loader size="sm" aria-label="Loading the preview" />
  const src = previewAddress(draft.data.url, { ...(appScheme ? { scheme: appScheme } : {}), ...options })
  // A new key makes a new frame: the page loads again from the site's front page.
  const version = [customization.dataUpdatedAt, structure.dataUpdatedAt, site.dataUpdatedAt, reloads].join(':')
  return (
    <div className={classes.frame} data-testid="site-preview">
      <div className={classes.toolbar}>
        <Text size="xs" c="dimmed" className={classes.address}>
          Draft preview
          {site.data && !site.data.published ? ' · not published' : ''}
        </Text>
        <Tooltip label="Reload">
          <ActionIcon variant="subtle" color="gray" aria-label="Reload the preview" onClick={() => setReloads((n) => n + 1)}>
            <IconRefresh size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Open in a window">
          <ActionIcon variant="subtle" color="gray" aria-label="Open the preview in a window" onClick={() => openPreview(src)}>
            <IconExternalLink size={16} />
          </ActionIcon>
        </Tooltip>
      </div>
      {/* No allow-same-origin: in a browser the preview shares the app's origin, and must not reach it. */}
      <iframe
        key={`${src}|${version}`}
        className={classes.iframe}
        src={src}
        title="Site preview"
        sandbox="allow-scripts allow-forms allow-popups"
      />
    </div>
  )
}
