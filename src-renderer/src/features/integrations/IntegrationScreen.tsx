import { useState } from 'react'
import { ActionIcon, Anchor, Badge, Button, Group, List, Modal, SegmentedControl, Select, Stack, Text, Title, Tooltip } from '@mantine/core'
import { modals } from '@mantine/modals'
import { IconExternalLink, IconPlus, IconRosetteDiscountCheck, IconSettings, IconTrash } from '@tabler/icons-react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import type { Installation, Integration } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { notifySuccess } from '../../app/notify.ts'
import type { ConfigurationSchema, ConfigurationValues } from '../../../../src-shared/integrationConfiguration.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { RouterAnchor } from '../common/links.tsx'
import { PageHeader } from '../common/PageHeader.tsx'
import { spacesQuery } from '../content/queries.ts'
import { orgQuery } from '../orgs/queries.ts'
import { sitesQuery } from '../sites/queries.ts'
import { ConfigurationForm } from './ConfigurationForm.tsx'
import { IntegrationIcon } from './IntegrationIcon.tsx'
import { CATEGORY_LABELS, installablePlaces, PLACE_LABELS, SCOPE_LABELS, STATUS_COLORS, STATUS_LABELS, type PlaceKind } from './labels.ts'
import {
  integrationQuery,
  orgInstallationsQuery,
  targetInstallationsQuery,
  useInstall,
  useInstallOnTarget,
  useUninstall,
  useUninstallTarget,
  useUpdateInstallation,
  useUpdateTargetInstallation,
  type InstallTarget,
  type TargetInstallation
} from './queries.ts'
import classes from './Integrations.module.css'

const TARGET_OF: Record<Exclude<PlaceKind, 'organization'>, InstallTarget> = { space: 'spaces', site: 'sites' }
const schemaFor = (integration: Integration, place: PlaceKind): ConfigurationSchema | undefined =>
  integration.configurations[place === 'organization' ? 'account' : place] as ConfigurationSchema | undefined

/** One integration: what it is and asks for, where it is installed in the organization, and installing it. */
export function IntegrationScreen({ orgId, name }: { orgId: string; name: string }) {
  const { data: integration } = useSuspenseQuery(integrationQuery(name))
  const { data: org } = useSuspenseQuery(orgQuery(orgId))
  const installations = useQuery(orgInstallationsQuery(orgId))
  const installation = installations.data?.find((i) => i.integration.name === name)?.installation
  const [installing, setInstalling] = useState(false)
  useReportAppState(installations.data ? 'ready' : 'loading')
  const places = installablePlaces(integration.target)
  // Organization admins install anywhere; space admins and site managers only add to an existing installation.
  const canInstall = org.permissions.admin ? integration.permissions.install : !!installation && places.length > 1

  return (
    <>
      <RouterAnchor
        to="/orgs/$orgId/integrations"
        params={{ orgId }}
        size="sm"
        mb="xs"
        display="inline-block"
        data-testid="back-to-integrations"
      >
        ← Integrations
      </RouterAnchor>
      <PageHeader
        icon={<IntegrationIcon integration={integration} large />}
        title={
          <Group gap={8} component="span">
            {integration.title}
            {integration.verified && (
              <Tooltip label="Verified">
                <IconRosetteDiscountCheck size={20} color="var(--mantine-color-blue-filled)" aria-label="Verified" data-testid="verified" />
              </Tooltip>
            )}
          </Group>
        }
        description={`${integration.description} · by ${integration.owner.title}`}
        actions={
          canInstall && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setInstalling(true)} data-testid="install-integration">
              Install…
            </Button>
          )
        }
      />
      <div className={classes.page}>
        <Stack gap="lg">
          {integration.summary && (
            <Text className={classes.summary} data-testid="integration-summary">
              {integration.summary}
            </Text>
          )}
          {integration.previewImages.length > 0 && (
            <div className={classes.previews} data-testid="integration-previews">
              {integration.previewImages.map((src, i) => (
                <img key={src} className={classes.preview} src={src} alt={`${integration.title} preview ${i + 1}`} />
              ))}
            </div>
          )}
          <Stack gap={6}>
            <Title order={4}>What it asks for</Title>
            {integration.scopes.length ? (
              <List size="sm" data-testid="integration-scopes">
                {integration.scopes.map((scope) => (
                  <List.Item key={scope}>{SCOPE_LABELS[scope] ?? scope}</List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm" c="dimmed">
                No access to your content.
              </Text>
            )}
          </Stack>
          <Stack gap={6}>
            <Title order={4}>Where it can be installed</Title>
            <Text size="sm" data-testid="integration-places">
              {places.map((p) => PLACE_LABELS[p]).join(', ')}
            </Text>
            {integration.categories.length > 0 && (
              <Group gap={6}>
                {integration.categories.map((c) => (
                  <Badge key={c} variant="light" color="gray">
                    {CATEGORY_LABELS[c]}
                  </Badge>
                ))}
              </Group>
            )}
          </Stack>
          {integration.externalLinks.length > 0 && (
            <Stack gap={6}>
              <Title order={4}>Links</Title>
              {integration.externalLinks.map((link) => (
                <Anchor key={link.url} href={link.url} target="_blank" rel="noreferrer" size="sm" data-testid="integration-link">
                  <Group gap={4} component="span">
                    {link.label}
                    <IconExternalLink size={14} />
                  </Group>
                </Anchor>
              ))}
            </Stack>
          )}
        </Stack>
        <InstalledPanel
          orgId={orgId}
          orgTitle={org.title}
          integration={integration}
          installation={installation}
          isAdmin={org.permissions.admin}
          loading={!installations.data}
        />
      </div>
      {installing && (
        <InstallDialog
          orgId={orgId}
          integration={integration}
          installation={installation}
          places={org.permissions.admin ? places : places.filter((p) => p !== 'organization')}
          onClose={() => setInstalling(false)}
        />
      )}
    </>
  )
}

/** Where it is installed: the organization, then each space and site, each with Configure and Uninstall. */
function InstalledPanel({
  orgId,
  orgTitle,
  integration,
  installation,
  isAdmin,
  loading
}: {
  orgId: string
  orgTitle: string
  integration: Integration
  installation?: Installation
  isAdmin: boolean
  loading: boolean
}) {
  const spaces = useQuery({ ...targetInstallationsQuery(integration.name, installation?.id ?? '', 'spaces'), enabled: !!installation })
  const sites = useQuery({ ...targetInstallationsQuery(integration.name, installation?.id ?? '', 'sites'), enabled: !!installation })
  const spaceTitles = useQuery({ ...spacesQuery(orgId), select: (all) => new Map(all.map((s) => [s.id, s.title])) })
  const siteTitles = useQuery({ ...sitesQuery(orgId), select: (all) => new Map(all.map((s) => [s.id, s.title])) })
  const [configuring, setConfiguring] = useState<{ place: PlaceKind; id?: string; title: string; values: ConfigurationValues } | null>(null)
  const uninstall = useUninstall(orgId, integration.name)
  const uninstallTarget = useUninstallTarget(orgId, integration.name)

  function confirmUninstall() {
    const goes = [
      spaces.data?.length ? `${spaces.data.length} space${spaces.data.length === 1 ? '' : 's'}` : '',
      sites.data?.length ? `${sites.data.length} site${sites.data.length === 1 ? '' : 's'}` : ''
    ].filter(Boolean)
    modals.openConfirmModal({
      title: `Uninstall ${integration.title}?`,
      children: (
        <Text size="sm" data-testid="uninstall-what-goes">
          {`It is removed from the organization${goes.length ? `, and from the ${goes.join(' and the ')} it is installed on` : ''}, with its configuration.`}
        </Text>
      ),
      labels: { confirm: 'Uninstall', cancel: 'Cancel' },
      confirmProps: { color: 'red', 'data-testid': 'confirm-uninstall' },
      onConfirm: () => uninstall.mutate(installation!.id, { onSuccess: () => notifySuccess(`${integration.title} uninstalled`) })
    })
  }

  function confirmUninstallTarget(place: 'space' | 'site', id: string, title: string) {
    modals.openConfirmModal({
      title: `Uninstall from “${title}”?`,
      children: (
        <Text size="sm">{`${integration.title} stops working on this ${place} and its ${place} configuration is removed. The organization’s installation stays.`}</Text>
      ),
      labels: { confirm: 'Uninstall', cancel: 'Cancel' },
      confirmProps: { color: 'red', 'data-testid': 'confirm-uninstall' },
      onConfirm: () =>
        uninstallTarget.mutate(
          { id: installation!.id, target: TARGET_OF[place], targetId: id },
          { onSuccess: () => notifySuccess(`${integration.title} uninstalled from “${title}”`) }
        )
    })
  }

  const rows: { place: PlaceKind; id?: string; title: string; row: Installation | TargetInstallation }[] = installation
    ? [
        { place: 'organization', title: orgTitle, row: installation },
        ...(spaces.data ?? []).map((r) => ({
          place: 'space' as const,
          id: (r as { space: string }).space,
          title: spaceTitles.data?.get((r as { space: string }).space) ?? 'Space',
          row: r
        })),
        ...(sites.data ?? []).map((r) => ({
          place: 'site' as const,
          id: (r as { site: string }).site,
          title: siteTitles.data?.get((r as { site: string }).site) ?? 'Site',
          row: r
        }))
      ]
    : []

  return (
    <div className={classes.panel} data-testid="installed-panel">
      <Title order={4} mb="xs">
        Installed on
      </Title>
      {loading ? null : !installation ? (
        <Text size="sm" c="dimmed" data-testid="not-installed">
          Not installed in this organization.
        </Text>
      ) : (
        rows.map(({ place, id, title, row }) => (
          <div key={`${place}:${id ?? ''}`} className={classes.placeRow} data-testid="installed-place" data-place={place}>
            <div className={classes.placeTitle}>
              <Text size="sm" fw={500} truncate data-testid="installed-place-title">
                {title}
              </Text>
              <Text size="xs" c="dimmed">
                {place === 'organization' ? 'Organization' : place === 'space' ? 'Space' : 'Site'}
              </Text>
            </div>
            <Badge size="sm" variant="light" color={STATUS_COLORS[row.status]} data-testid="installed-place-status">
              {STATUS_LABELS[row.status]}
            </Badge>
            <Tooltip label="Configure">
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Configure on ${title}`}
                disabled={place === 'organization' && !isAdmin}
                onClick={() => setConfiguring({ place, id, title, values: row.configuration })}
                data-testid="configure-place"
              >
                <IconSettings size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Uninstall">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Uninstall from ${title}`}
                disabled={place === 'organization' && !isAdmin}
                onClick={() => (place === 'organization' ? confirmUninstall() : confirmUninstallTarget(place, id!, title))}
                data-testid="uninstall-place"
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </div>
        ))
      )}
      {configuring && installation && (
        <ConfigureDialog
          orgId={orgId}
          integration={integration}
          installationId={installation.id}
          {...configuring}
          onClose={() => setConfiguring(null)}
        />
      )}
    </div>
  )
}

function ConfigureDialog({
  orgId,
  integration,
  installationId,
  place,
  id,
  title,
  values,
  onClose
}: {
  orgId: string
  integration: Integration
  installationId: string
  place: PlaceKind
  id?: string
  title: string
  values: ConfigurationValues
  onClose: () => void
}) {
  const update = useUpdateInstallation(orgId, integration.name)
  const updateTarget = useUpdateTargetInstallation(orgId, integration.name)
  const pending = update.isPending || updateTarget.isPending
  async function save(configuration: ConfigurationValues) {
    if (place === 'organization') await update.mutateAsync({ id: installationId, configuration })
    else await updateTarget.mutateAsync({ id: installationId, target: TARGET_OF[place], targetId: id!, configuration })
    notifySuccess(`${integration.title} configured on “${title}”`)
    onClose()
  }
  return (
    <Modal opened onClose={onClose} title={`Configure ${integration.title} on “${title}”`} data-testid="configure-dialog">
      <ConfigurationForm schema={schemaFor(integration, place)} values={values} onSubmit={save}>
        <DialogActions onCancel={onClose} submit="Save" loading={pending} submitTestId="save-configuration" />
      </ConfigurationForm>
    </Modal>
  )
}

/** Install on the organization, a space or a site (picked here), with that place's configuration. */
function InstallDialog({
  orgId,
  integration,
  installation,
  places,
  onClose
}: {
  orgId: string
  integration: Integration
  installation?: Installation
  places: PlaceKind[]
  onClose: () => void
}) {
  // Fixed when the dialog opens: a space install that installs the organization first keeps its choice.
  const [available] = useState(() => places.filter((p) => p !== 'organization' || !installation))
  const [place, setPlace] = useState<PlaceKind>(available[0] ?? 'organization')
  const [targetId, setTargetId] = useState<string | null>(null)
  const [targetError, setTargetError] = useState<string | undefined>()
  const spaces = useQuery({ ...spacesQuery(orgId), enabled: place === 'space' })
  const sites = useQuery({ ...sitesQuery(orgId), enabled: place === 'site' })
  const installedOn = useQuery({
    ...targetInstallationsQuery(integration.name, installation?.id ?? '', place === 'site' ? 'sites' : 'spaces'),
    enabled: !!installation && place !== 'organization'
  })
  const taken = new Set((installedOn.data ?? []).map((r) => ('space' in r ? r.space : r.site)))
  const options = (
    place === 'space'
      ? (spaces.data ?? []).map((s) => ({ value: s.id, label: s.title }))
      : (sites.data ?? []).map((s) => ({ value: s.id, label: s.title }))
  ).filter((o) => !taken.has(o.value))
  const install = useInstall(orgId, integration.name)
  const installOn = useInstallOnTarget(orgId, integration.name)
  const uninstall = useUninstall(orgId, integration.name)

  async function submit(configuration: ConfigurationValues) {
    if (place === 'organization') {
      await install.mutateAsync(configuration)
      notifySuccess(`${integration.title} installed in the organization`)
      onClose()
      return
    }
    if (!targetId) {
      setTargetError(`Choose a ${place}`)
      return
    }
    // A space or site installation belongs to the organization's: the first one installs that too, and takes it
    // back when the API refuses the space's configuration, so a refused install leaves nothing behind.
    const created = installation ? undefined : await install.mutateAsync({})
    try {
      await installOn.mutateAsync({ id: installation?.id ?? created!.id, target: TARGET_OF[place], targetId, configuration })
    } catch (error) {
      if (created) await uninstall.mutateAsync(created.id).catch(() => undefined)
      throw error
    }
    notifySuccess(`${integration.title} installed on “${options.find((o) => o.value === targetId)?.label ?? place}”`)
    onClose()
  }

  return (
    <Modal opened onClose={onClose} title={`Install ${integration.title}`} data-testid="install-dialog">
      <ConfigurationForm
        key={place}
        schema={schemaFor(integration, place)}
        onSubmit={submit}
        before={
          <>
            {available.length > 1 && (
              <SegmentedControl
                value={place}
                onChange={(v) => {
                  setPlace(v as PlaceKind)
                  setTargetId(null)
                }}
                data={available.map((p) => ({ value: p, label: p === 'organization' ? 'Organization' : p === 'space' ? 'Space' : 'Site' }))}
                aria-label="Install on"
                data-testid="install-place"
              />
            )}
            {place !== 'organization' && (
              <Select
                label={place === 'space' ? 'Space' : 'Site'}
                placeholder={`Choose a ${place}`}
                data={options}
                value={targetId}
                onChange={(v) => {
                  setTargetId(v)
                  setTargetError(undefined)
                }}
                searchable
                withAsterisk
                error={targetError}
                data-testid="install-target"
              />
            )}
          </>
        }
      >
        <DialogActions
          onCancel={onClose}
          submit="Install"
          loading={install.isPending || installOn.isPending}
          submitTestId="confirm-install"
        />
      </ConfigurationForm>
    </Modal>
  )
}
