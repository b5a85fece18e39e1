import { useEffect, useState } from 'react'
import { Alert, Badge, Button, Card, Group, Modal, NavLink, Progress, Stack, Text, Title } from '@mantine/core'
import { IconAlertTriangle, IconApi, IconChevronLeft, IconFileCode, IconRefresh, IconTrash } from '@tabler/icons-react'
import { useInfiniteQuery, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { stringify } from 'yaml'
import type { OpenAPIProcessError, OpenAPISpec } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { formatDate, formatRelative, formatTime, plural } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { PageHeader } from '../common/PageHeader.tsx'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { confirmDeleteSpec } from './confirmDelete.tsx'
import { SourceFields, StatusBadge, useSourceForm } from './OpenAPISpecsScreen.tsx'
import { specQuery, useDeleteSpec, useReplaceSource, versionContentQuery, versionsQuery } from './queries.ts'
import { ERROR_TITLES, locationText, progressPercent, progressText, specStatus } from './specState.ts'
import classes from './OpenAPI.module.css'
import { useFormReset } from '../common/useFormReset.ts'

/** One spec: its processing (with progress while it runs), why the last one failed and where, its versions and their files. */
export function OpenAPISpecScreen({ orgId, specSlug }: { orgId: string; specSlug: string }) {
  const { data: spec } = useSuspenseQuery(specQuery(orgId, specSlug))
  const client = useQueryClient()
  const navigate = useNavigate()
  const remove = useDeleteSpec(orgId)
  const [replacing, setReplacing] = useState(false)
  useReportAppState('ready')
  // A processing that ends with a new version: the list gains it.
  useEffect(() => {
    void client.invalidateQueries({ queryKey: versionsQuery(orgId, specSlug).queryKey })
  }, [spec.lastVersion, client, orgId, specSlug])

  const status = specStatus(spec)
  return (
    <Stack gap="lg">
      <RouterAnchor to="/orgs/$orgId/openapi" params={{ orgId }} size="sm" c="dimmed" data-testid="specs-back">
        <Group gap={4} wrap="nowrap">
          <IconChevronLeft size={14} />
          API specs
        </Group>
      </RouterAnchor>
      <PageHeader
        title={spec.slug}
        icon={<IconApi size={28} stroke={1.5} color="var(--mantine-color-indigo-5)" />}
        description={spec.sourceURL ? `From ${spec.sourceURL}` : 'From an uploaded file'}
        actions={
          spec.permissions.edit && (
            <>
              <Button
                variant="default"
                leftSection={<IconRefresh size={16} />}
                onClick={() => setReplacing(true)}
                data-testid="spec-replace"
              >
                Replace source…
              </Button>
              <Button
                variant="default"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() =>
                  confirmDeleteSpec(spec.slug, () =>
                    remove.mutate(spec.slug, {
                      onSuccess: () => {
                        notifySuccess(`API spec “${spec.slug}” deleted`)
                        void navigate({ to: '/orgs/$orgId/openapi', params: { orgId } })
                      }
                    })
                  )
                }
                data-testid="spec-delete"
              >
                Delete…
              </Button>
            </>
          )
        }
      />
      <Card withBorder padding="md" data-testid="spec-processing">
        <Stack gap="xs">
          <Group gap="sm">
            <StatusBadge spec={spec} />
            <Text size="sm" c="dimmed" data-testid="spec-processed-at">
              {status === 'pending'
                ? 'Waiting to be processed'
                : status === 'processing'
                  ? progressText(spec.processingProgress)
                  : `Processed ${formatRelative(spec.lastProcessedAt)}${spec.lastProcessedAt ? ` (${formatDate(spec.lastProcessedAt)} ${formatTime(spec.lastProcessedAt)})` : ''}`}
            </Text>
          </Group>
          {(status === 'processing' || status === 'pending') && (
            <Progress
              value={progressPercent(spec.processingProgress)}
              animated
              aria-label="Processing progress"
              data-testid="spec-progress"
            />
          )}
          {status === 'failed' && spec.lastVersion && (
            <Text size="sm" c="dimmed">
              The versions below stay as they were: the last one is still what pages show.
            </Text>
          )}
        </Stack>
      </Card>
      {spec.lastProcessError && status !== 'processing' && status !== 'pending' && <ProcessErrorPanel error={spec.lastProcessError} />}
      <VersionsPanel orgId={orgId} spec={spec} />
      <ReplaceSourceDialog orgId={orgId} spec={spec} opened={replacing} onClose={() => setReplacing(false)} />
    </Stack>
  )
}

/** Why the last processing failed: its message, where (file, line and column, or pointer) and the lines there. */
export function ProcessErrorPanel({ error }: { error: OpenAPIProcessError }) {
  const where = locationText(error.location)
  const line = error.location?.line
  const column = error.location?.column
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={ERROR_TITLES[error.code]} data-testid="spec-error">
      <Stack gap="xs">
        <Text size="sm" data-testid="spec-error-message">
          {error.message}
        </Text>
        {where && (
          <Text size="sm" fw={600} data-testid="spec-error-location">
            {where}
          </Text>
        )}
        {error.lines && error.lines.length > 0 && (
          <div className={classes.source} role="figure" aria-label="The lines around the error" data-testid="spec-error-lines">
            {error.lines.map((l) => (
              <div key={l.number}>
                <div
                  className={`${classes.line} ${l.number === line ? classes.errorLine : ''}`}
                  data-error-line={l.number === line || undefined}
                >
                  <span className={classes.number}>{l.number}</span>
                  <span>{l.text || ' '}</span>
                </div>
                {l.number === line && column !== undefined && (
                  <div className={classes.line} aria-hidden>
                    <span className={classes.number} />
                    <span className={classes.caret}>{`${' '.repeat(Math.max(column - 1, 0))}^`}</span>
                  </div>
                )}
              </div>
            ))}
          </div>
        )}
      </Stack>
    </Alert>
  )
}

function VersionsPanel({ orgId, spec }: { orgId: string; spec: OpenAPISpec }) {
  const versions = useInfiniteQuery(versionsQuery(orgId, spec.slug))
  const items = versions.data?.pages.flatMap((p) => p.items) ?? []
  const count = versions.data?.pages[0]?.count ?? 0
  const [chosen, setChosen] = useState<string | undefined>()
  const versionId = chosen ?? items[0]?.id
  return (
    <Stack gap="sm">
      <Title order={4}>Versions</Title>
      {!versions.data ? (
        <RowsSkeleton rows={3} />
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="versions-empty">
          No version yet: one is made each time the document is processed without an error.
        </Text>
      ) : (
        <div className={classes.versions}>
          <Stack gap={6}>
            <div className={classes.versionList} role="listbox" aria-label="Versions" data-testid="version-list">
              {items.map((v, i) => (
                <NavLink
                  key={v.id}
                  active={v.id === versionId}
                  onClick={() => setChosen(v.id)}
                  label={v.createdAt ? `${formatDate(v.createdAt)} ${formatTime(v.createdAt)}` : v.id}
                  description={i === 0 && v.id === spec.lastVersion ? 'Latest' : undefined}
                  role="option"
                  aria-selected={v.id === versionId}
                  data-testid="version-row"
                />
              ))}
            </div>
            <Text size="xs" c="dimmed">
              {items.length} of {count} {count === 1 ? 'version' : 'versions'}
            </Text>
            {versions.hasNextPage && (
              <Button variant="subtle" size="xs" onClick={() => void versions.fetchNextPage()} loading={versions.isFetchingNextPage}>
                Load more
              </Button>
            )}
          </Stack>
          {versionId && <VersionFiles key={versionId} orgId={orgId} slug={spec.slug} versionId={versionId} />}
        </div>
      )}
    </Stack>
  )
}

type Info = { title?: unknown; version?: unknown }

/** A version's files (the document and its $ref files) and the chosen one's content. */
function VersionFiles({ orgId, slug, versionId }: { orgId: string; slug: string; versionId: string }) {
  const content = useQuery(versionContentQuery(orgId, slug, versionId))
  const [file, setFile] = useState<string | undefined>()
  if (!content.data) return <RowsSkeleton rows={3} />
  const names = Object.keys(content.data.filesystem)
  const main = content.data.filesystem[names[0]!] as { info?: Info; paths?: Record<string, unknown>; openapi?: unknown; swagger?: unknown }
  const shown = file ?? names[0]!
  return (
    <Stack gap="sm" data-testid="version-files">
      <Group gap="xs">
        <Text fw={600} data-testid="version-title">
          {String(main.info?.title ?? 'Untitled')}{' '}
          {main.info?.version !== undefined && <Badge variant="light">{String(main.info.version)}</Badge>}
        </Text>
        <Text size="sm" c="dimmed">
          {main.openapi ? `OpenAPI ${String(main.openapi)}` : main.swagger ? `Swagger ${String(main.swagger)}` : ''} ·{' '}
          {plural(Object.keys(main.paths ?? {}).length, 'path')} · read from{' '}
          <Text span size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {content.data.url}
          </Text>
        </Text>
      </Group>
      <Group gap={4} role="tablist" aria-label="Files">
        {names.map((name) => (
          <Button
            key={name}
            size="compact-sm"
            variant={name === shown ? 'light' : 'subtle'}
            leftSection={<IconFileCode size={14} />}
            onClick={() => setFile(name)}
            role="tab"
            aria-selected={name === shown}
            data-testid="version-file"
          >
            {name}
          </Button>
        ))}
      </Group>
      <pre className={classes.document} aria-label={`Content of ${shown}`} data-testid="version-file-content">
        {stringify(content.data.filesystem[shown], { lineWidth: 0 })}
      </pre>
    </Stack>
  )
}

function ReplaceSourceDialog({ orgId, spec, opened, onClose }: { orgId: string; spec: OpenAPISpec; opened: boolean; onClose(): void }) {
  const replace = useReplaceSource(orgId, spec.slug)
  const { form, source } = useSourceForm({ slug: spec.slug })
  useFormReset(form, opened ? (spec.sourceURL ? { url: spec.sourceURL } : { kind: 'file' }) : null, opened)
  return (
    <Modal opened={opened} onClose={onClose} title="Replace the source" size="lg" data-testid="spec-replace-dialog">
      <form
        onSubmit={form.onSubmit(async (values) =>
          replace.mutate(await source(values), {
            onSuccess: () => {
              notifySuccess(`API spec “${spec.slug}” is being processed again`)
              onClose()
            },
            onError: (e) =>
              applyFormError(form, e, { source: form.values.kind === 'url' ? 'url' : 'file', 'source.url': 'url', 'source.text': 'file' })
          })
        )}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            The document is read again from the new source and, if it is valid, becomes a new version.
          </Text>
          <SourceFields form={form} />
          <DialogActions onCancel={onClose} submit="Process again" loading={replace.isPending} submitTestId="spec-replace-submit" />
        </Stack>
      </form>
    </Modal>
  )
}
