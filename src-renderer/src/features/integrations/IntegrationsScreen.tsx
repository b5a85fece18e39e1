import { useState } from 'react'
import { Badge, EmptyState, Group, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconPuzzle, IconRosetteDiscountCheck, IconSearch } from '@tabler/icons-react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { Integration } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { PageHeader } from '../common/PageHeader.tsx'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { CATEGORY_LABELS, STATUS_COLORS, STATUS_LABELS } from './labels.ts'
import { integrationsQuery, orgInstallationsQuery, type IntegrationCategory, type IntegrationFilters } from './queries.ts'
import { IntegrationIcon } from './IntegrationIcon.tsx'
import classes from './Integrations.module.css'

const categoryOptions = Object.entries(CATEGORY_LABELS).map(([value, label]) => ({ value, label }))

/** The registry: find an integration by name or category, see which are installed in the organization. */
export function IntegrationsScreen({ orgId }: { orgId: string }) {
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 250)
  const [category, setCategory] = useState<IntegrationCategory | null>(null)
  const filters: IntegrationFilters = {}
  if (debounced) filters.search = debounced.slice(0, 100)
  if (category) filters.category = category
  const query = useQuery({ ...integrationsQuery(filters), placeholderData: keepPreviousData })
  const installed = useQuery(orgInstallationsQuery(orgId))
  const statusOf = new Map((installed.data ?? []).map((i) => [i.integration.name, i.installation.status]))
  const integrations = query.data ?? []
  const filtered = !!debounced || !!category
  useReportAppState(query.data && installed.data ? 'ready' : 'loading')

  return (
    <>
      <PageHeader title="Integrations" description="Connect other tools to your organization, its spaces and its sites." />
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          <TextInput
            placeholder="Search integrations"
            leftSection={<IconSearch size={15} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: 1, maxWidth: 360 }}
            aria-label="Search integrations"
            data-testid="integration-search"
          />
          <Select
            placeholder="All categories"
            data={categoryOptions}
            value={category}
            onChange={(v) => setCategory(v as IntegrationCategory | null)}
            clearable
            aria-label="Category"
            style={{ width: 220 }}
            data-testid="integration-category"
          />
        </Group>
        {!filtered && installed.data && installed.data.length > 0 && (
          <Stack gap="xs" data-testid="installed-integrations">
            <Title order={4}>Installed</Title>
            <div className={classes.grid}>
              {installed.data.map(({ integration, installation }) => (
                <IntegrationCard key={installation.id} orgId={orgId} integration={integration} status={installation.status} />
              ))}
            </div>
          </Stack>
        )}
        <Stack gap="xs">
          {!filtered && <Title order={4}>All integrations</Title>}
          {!query.data ? (
            <RowsSkeleton rows={4} />
          ) : integrations.length === 0 ? (
            <EmptyState
              mt={32}
              variant="light"
              icon={<IconPuzzle size={28} stroke={1.6} />}
              title={filtered ? 'No integration matches' : 'No integrations yet'}
              description={
                filtered ? 'Try another name or category.' : 'Integrations published in this workspace appear here, ready to install.'
              }
              data-testid="integrations-empty"
            />
          ) : (
            <div className={classes.grid} data-testid="integration-list">
              {integrations.map((integration) => (
                <IntegrationCard key={integration.name} orgId={orgId} integration={integration} status={statusOf.get(integration.name)} />
              ))}
            </div>
          )}
        </Stack>
      </Stack>
    </>
  )
}

function IntegrationCard({ orgId, integration, status }: { orgId: string; integration: Integration; status?: keyof typeof STATUS_LABELS }) {
  return (
    <Link
      className={classes.card}
      to="/orgs/$orgId/integrations/$integrationName"
      params={{ orgId, integrationName: integration.name }}
      preload="intent"
      data-testid="integration-card"
      aria-label={integration.title}
    >
      <IntegrationIcon integration={integration} />
      <div className={classes.cardText}>
        <Group gap={6} wrap="nowrap">
          <Text fw={600} truncate data-testid="integration-card-title">
            {integration.title}
          </Text>
          {integration.verified && (
            <Tooltip label="Verified">
              <IconRosetteDiscountCheck size={16} color="var(--mantine-color-blue-filled)" aria-label="Verified" data-testid="verified" />
            </Tooltip>
          )}
        </Group>
        <Text size="sm" c="dimmed" lineClamp={2}>
          {integration.description}
        </Text>
        {status && (
          <Badge mt={6} size="sm" variant="light" color={STATUS_COLORS[status]} data-testid="integration-card-status">
            {status === 'active' ? 'Installed' : STATUS_LABELS[status]}
          </Badge>
        )}
      </div>
    </Link>
  )
}
