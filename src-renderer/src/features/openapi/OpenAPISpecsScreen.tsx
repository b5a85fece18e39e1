import { useState } from 'react'
import {
  ActionIcon,
  Badge,
  Button,
  EmptyState,
  FileInput,
  Group,
  Loader,
  Menu,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Tooltip
} from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconApi, IconDots, IconPlus, IconTrash, IconUpload } from '@tabler/icons-react'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { OpenAPISpec } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { formatRelative } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { PageHeader } from '../common/PageHeader.tsx'
import { orgQuery } from '../orgs/queries.ts'
import { specsQuery, useCreateSpec, useDeleteSpec, type SpecSource } from './queries.ts'
import { progressText, slugFrom, specStatus, STATUS_COLORS, STATUS_LABELS } from './specState.ts'
import { confirmDeleteSpec } from './confirmDelete.tsx'
import classes from '../common/DataTable.module.css'
import { useFormReset } from '../common/useFormReset.ts'

const COLUMNS = 'minmax(150px, 1.2fr) minmax(120px, 2fr) minmax(100px, 220px) 100px 36px'

/** The organization's OpenAPI specs: each one's source, whether its last processing worked, and a way to add one. */
export function OpenAPISpecsScreen({ orgId }: { orgId: string }) {
  const { data: org } = useSuspenseQuery(orgQuery(orgId))
  const { data: specs } = useSuspenseQuery(specsQuery(orgId))
  const canEdit = org.permissions.createOpenAPISpec
  const [adding, setAdding] = useState(false)
  const navigate = useNavigate()
  useReportAppState('ready')

  return (
    <>
      <PageHeader
        title="API specs"
        description="OpenAPI documents your pages can show. Each one is read from an address or an uploaded file, checked, and kept as versions."
        actions={
          canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)} data-testid="new-spec">
              Add spec
            </Button>
          )
        }
      />
      {specs.length === 0 ? (
        <EmptyState
          mt={32}
          variant="light"
          icon={<IconApi size={28} stroke={1.6} />}
          title="No API specs yet"
          description="Add an OpenAPI 3 or Swagger 2.0 document, in YAML or JSON, from an address or a file."
          data-testid="specs-empty"
        />
      ) : (
        <div className={`${classes.table} ${classes.static}`} style={{ ['--columns' as string]: COLUMNS }}>
          <div className={classes.head}>
            <span>Spec</span>
            <span>Source</span>
            <span>Status</span>
            <span>Processed</span>
            <span />
          </div>
          <div className={classes.body} data-testid="spec-list">
            {specs.map((spec) => (
              <SpecRow key={spec.id} orgId={orgId} spec={spec} />
            ))}
          </div>
          <div className={classes.footer}>
            {specs.length} {specs.length === 1 ? 'spec' : 'specs'}
          </div>
        </div>
      )}
      <AddSpecDialog
        orgId={orgId}
        opened={adding}
        onClose={() => setAdding(false)}
        onAdded={(spec) => void navigate({ to: '/orgs/$orgId/openapi/$specSlug', params: { orgId, specSlug: spec.slug } })}
      />
    </>
  )
}

/** The status badge, with what a running processing does and why a failed one failed in its tooltip. */
export function StatusBadge({ spec }: { spec: OpenAPISpec }) {
  const status = specStatus(spec)
  const badge = (
    <Badge
      color={STATUS_COLORS[status]}
      leftSection={status === 'processing' ? <Loader size={10} color="blue" /> : undefined}
      data-testid="spec-status"
    >
      {STATUS_LABELS[status]}
    </Badge>
  )
  const tip =
    status === 'processing' ? progressText(spec.processingProgress) : status === 'failed' ? spec.lastProcessError?.message : undefined
  return tip ? (
    <Tooltip label={tip} multiline maw={360} withinPortal>
      {badge}
    </Tooltip>
  ) : (
    badge
  )
}

function SpecRow({ orgId, spec }: { orgId: string; spec: OpenAPISpec }) {
  const remove = useDeleteSpec(orgId)
  return (
    <div className={classes.row} data-testid="spec-row">
      <Group gap="sm" wrap="nowrap" className={classes.cell}>
        <IconApi size={20} stroke={1.5} color="var(--mantine-color-indigo-5)" style={{ flex: 'none' }} />
        <RouterAnchor
          to="/orgs/$orgId/openapi/$specSlug"
          params={{ orgId, specSlug: spec.slug }}
          fw={500}
          size="sm"
          truncate
          data-testid="spec-slug"
        >
          {spec.slug}
        </RouterAnchor>
      </Group>
      <Text className={classes.cell} c="dimmed" truncate title={spec.sourceURL} data-testid="spec-source">
        {spec.sourceURL ?? 'Uploaded file'}
      </Text>
      <Group gap={6} wrap="nowrap" className={classes.cell}>
        <StatusBadge spec={spec} />
        {specStatus(spec) === 'processing' && (
          <Text size="xs" c="dimmed" truncate>
            {progressText(spec.processingProgress)}
          </Text>
        )}
      </Group>
      <Text className={classes.cell} c="dimmed" title={spec.lastProcessedAt}>
        {spec.lastProcessedAt ? formatRelative(spec.lastProcessedAt) : '—'}
      </Text>
      <div className={classes.cell}>
        {spec.permissions.edit && (
          <Menu>
            <Menu.Target>
              <ActionIcon aria-label={`Actions for ${spec.slug}`} data-testid="spec-row-menu">
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() =>
                  confirmDeleteSpec(spec.slug, () =>
                    remove.mutate(spec.slug, { onSuccess: () => notifySuccess(`API spec “${spec.slug}” deleted`) })
                  )
                }
              >
                Delete…
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </div>
    </div>
  )
}

/** Largest uploaded document (the API's limit on an inline source, in characters). */
const MAX_TEXT = 5 * 1024 * 1024

type SourceKind = 'url' | 'file'

/** The source part of the add and replace dialogs: an address, or a YAML/JSON file read here and sent as text. */
export function useSourceForm(initial: { slug?: string } = {}) {
  const form = useForm({
    initialValues: { slug: initial.slug ?? '', kind: 'url' as SourceKind, url: '', file: null as File | null },
    validate: {
      slug: (v) => (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(v) ? null : 'Lower-case letters and digits, words joined by single hyphens (my-api)'),
      url: (v, values) => (values.kind === 'url' && !/^https?:\/\/\S+$/i.test(v.trim()) ? 'Must be an http or https address' : null),
      file: (v, values) =>
        values.kind === 'file' && !v
          ? 'Choose a YAML or JSON file'
          : values.kind === 'file' && v && v.size > MAX_TEXT
            ? 'The file is larger than 5 MB'
            : null
    }
  })
  const source = async (values: typeof form.values): Promise<SpecSource> =>
    values.kind === 'url' ? { url: values.url.trim() } : { text: await values.file!.text() }
  return { form, source }
}

export function SourceFields({ form, autoSlug }: { form: ReturnType<typeof useSourceForm>['form']; autoSlug?: boolean }) {
  const [slugTouched, setSlugTouched] = useState(false)
  const suggest = (name: string) => {
    if (autoSlug && !slugTouched) form.setFieldValue('slug', slugFrom(name))
  }
  return (
    <>
      <SegmentedControl
        data={[
          { value: 'url', label: 'From an address' },
          { value: 'file', label: 'Upload a file' }
        ]}
        {...form.getInputProps('kind')}
        aria-label="Source"
        data-testid="spec-source-kind"
      />
      {form.values.kind === 'url' ? (
        <TextInput
          label="Address"
          description="Fetched by Quire; $ref files are read relative to it. Basic auth may go in the address (user:password@)."
          placeholder="https://example.com/openapi.yaml"
          data-autofocus
          {...form.getInputProps('url')}
          onChange={(e) => {
            form.setFieldValue('url', e.currentTarget.value)
            suggest(e.currentTarget.value)
          }}
          data-testid="spec-url"
        />
      ) : (
        <FileInput
          label="File"
          description="YAML or JSON, at most 5 MB. An uploaded document cannot use $ref files."
          placeholder="Choose a file"
          accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml"
          leftSection={<IconUpload size={16} />}
          clearable
          {...form.getInputProps('file')}
          onChange={(file) => {
            form.setFieldValue('file', file)
            if (file) suggest(file.name)
          }}
          data-testid="spec-file"
        />
      )}
      {autoSlug && (
        <TextInput
          label="Slug"
          description="How pages and the API name this spec; it cannot change later."
          {...form.getInputProps('slug')}
          onChange={(e) => {
            setSlugTouched(true)
            form.setFieldValue('slug', e.currentTarget.value)
          }}
          data-testid="spec-slug-input"
        />
      )}
    </>
  )
}

function AddSpecDialog({
  orgId,
  opened,
  onClose,
  onAdded
}: {
  orgId: string
  opened: boolean
  onClose(): void
  onAdded(spec: OpenAPISpec): void
}) {
  const create = useCreateSpec(orgId)
  const { form, source } = useSourceForm()
  const [reading, setReading] = useState(false)
  useFormReset(form, opened ? {} : null, opened)
  const close = () => {
    form.reset()
    onClose()
  }
  return (
    <Modal opened={opened} onClose={close} title="Add an API spec" size="lg" data-testid="spec-dialog">
      <form
        onSubmit={form.onSubmit(async (values) => {
          setReading(true)
          const body = { slug: values.slug, source: await source(values).finally(() => setReading(false)) }
          create.mutate(body, {
            onSuccess: (spec) => {
              notifySuccess(`API spec “${spec.slug}” added: it is being processed`)
              close()
              onAdded(spec)
            },
            // `source.url: …` and `slug: …` land by their fields.
            onError: (e) =>
              applyFormError(form, e, { source: form.values.kind === 'url' ? 'url' : 'file', 'source.url': 'url', 'source.text': 'file' })
          })
        })}
      >
        <Stack>
          <SourceFields form={form} autoSlug />
          <DialogActions onCancel={close} submit="Add spec" loading={create.isPending || reading} submitTestId="spec-dialog-submit" />
        </Stack>
      </form>
    </Modal>
  )
}
