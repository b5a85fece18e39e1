import { useEffect, useRef, type ReactNode } from 'react'
import { Anchor, Badge, Button, Code, Divider, Group, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconExternalLink, IconFilterOff, IconFolders, IconLayoutList, IconPlus, IconStar, IconTrash } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { Site, SiteSection, SiteSectionGroup, SiteSpace } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { RouterAnchor } from '../common/links.tsx'
import { claimsOf } from './adaptiveSchema.ts'
import { openPreview } from './preview.ts'
import { adaptiveSchemaQuery, useRenameGroup, useUpdateSection, useUpdateSiteSpace } from './queries.ts'
import type { StructureActions } from './StructureTree.tsx'
import type { StructureRow } from './siteTree.ts'
import classes from './Sites.module.css'
import { emojiText } from '../common/emoji.ts'
import { useFormFollow } from '../common/useFormReset.ts'

interface InspectorProps {
  orgId: string
  site: Site
  row: StructureRow | null
  canManage: boolean
  actions: StructureActions
  /** Changes when "Edit details" asks for the first field to take the focus. */
  focusToken: number
}

/** The details of the selected row: its path and condition (site spaces, sections) or title, and its actions. */
export function StructureInspector({ orgId, site, row, canManage, actions, focusToken }: InspectorProps) {
  if (!row)
    return (
      <Paper p="lg" data-testid="structure-inspector">
        <Text size="sm" c="dimmed">
          Select a space, section or group to edit its path, condition and place on the site.
        </Text>
      </Paper>
    )
  // Keyed by row: a different selection starts a fresh form.
  if (row.kind === 'site-space')
    return (
      <SiteSpaceDetails
        key={row.key}
        orgId={orgId}
        site={site}
        siteSpace={row.siteSpace}
        canManage={canManage}
        actions={actions}
        focusToken={focusToken}
      />
    )
  if (row.kind === 'section')
    return (
      <SectionDetails
        key={row.key}
        orgId={orgId}
        site={site}
        section={row.section}
        canManage={canManage}
        actions={actions}
        focusToken={focusToken}
      />
    )
  return (
    <GroupDetails
      key={row.key}
      orgId={orgId}
      site={site}
      group={row.group}
      canManage={canManage}
      actions={actions}
      focusToken={focusToken}
    />
  )
}

function useFocusOn(token: number) {
  const ref = useRef<HTMLInputElement>(null)
  const first = useRef(token)
  useEffect(() => {
    if (token !== first.current) ref.current?.focus()
  }, [token])
  return ref
}

function Frame({ icon, title, badges, children }: { icon: ReactNode; title: string; badges?: ReactNode; children: ReactNode }) {
  return (
    <Paper p="md" data-testid="structure-inspector">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" justify="space-between">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            {icon}
            <Title order={4} lineClamp={1} data-testid="inspector-title">
              {title}
            </Title>
          </Group>
          <Group gap={4} wrap="nowrap">
            {badges}
          </Group>
        </Group>
        {children}
      </Stack>
    </Paper>
  )
}

/** The published address of an item, opened beside the app; an unpublished site has none to show. */
function PublishedAt({ site, url }: { site: Site; url: string | undefined }) {
  if (!url || !site.published) return null
  return (
    <Stack gap={2} data-testid="published-at">
      <Text size="xs" fw={600} c="dimmed" tt="uppercase">
        Published at
      </Text>
      {site.visibility !== 'share-link' ? (
        <Anchor size="xs" className={classes.url} onClick={() => openPreview(url)} title={url}>
          {url} <IconExternalLink size={12} />
        </Anchor>
      ) : (
        <Text className={classes.url} title={url}>
          {url}
        </Text>
      )}
    </Stack>
  )
}

/** Path and condition fields, shared by site spaces and sections. */
function ConditionField({
  form,
  orgId,
  siteId,
  disabled
}: {
  form: ReturnType<typeof usePathConditionForm>
  orgId: string
  siteId: string
  disabled: boolean
}) {
  const schema = useQuery(adaptiveSchemaQuery(orgId, siteId))
  const claims = claimsOf(schema.data?.jsonSchema)
  return (
    <Textarea
      label="Condition"
      description={
        claims.length ? (
          <>
            Shown only to visitors for whom this holds. Claims:{' '}
            {claims.slice(0, 6).map((c) => (
              <Code key={c.expression} mr={4}>
                {c.expression}
              </Code>
            ))}
          </>
        ) : (
          <>
            Shown only to visitors for whom this holds, e.g. <Code>visitor.claims.beta</Code>. Empty: everyone.
          </>
        )
      }
      placeholder="Everyone sees it"
      autosize
      minRows={2}
      maxRows={6}
      classNames={{ input: classes.mono }}
      disabled={disabled}
      {...form.getInputProps('condition')}
      data-testid="condition-input"
    />
  )
}

/** Under a path-and-condition form: "Remove condition" when there is one, then Discard and Save. */
function FormActions({
  form,
  saving,
  onClearCondition
}: {
  form: ReturnType<typeof usePathConditionForm>
  saving: boolean
  onClearCondition?: () => void
}) {
  return (
    <Group justify="space-between" gap="xs">
      {onClearCondition ? (
        <Button
          variant="subtle"
          color="gray"
          size="xs"
          leftSection={<IconFilterOff size={14} />}
          onClick={onClearCondition}
          data-testid="clear-condition"
        >
          Remove condition
        </Button>
      ) : (
        <span />
      )}
      <Group gap="xs">
        <Button variant="default" size="xs" disabled={!form.isDirty()} onClick={() => form.reset()}>
          Discard
        </Button>
        <Button type="submit" size="xs" disabled={!form.isDirty()} loading={saving} data-testid="details-save">
          Save
        </Button>
      </Group>
    </Group>
  )
}

function usePathConditionForm(values: { path: string; condition: string; title?: string; description?: string }) {
  return useForm({
    initialValues: { title: values.title ?? '', path: values.path, condition: values.condition, description: values.description ?? '' }
  })
}

function SiteSpaceDetails({
  orgId,
  site,
  siteSpace,
  canManage,
  actions,
  focusToken
}: {
  orgId: string
  site: Site
  siteSpace: SiteSpace
  canManage: boolean
  actions: StructureActions
  focusToken: number
}) {
  const update = useUpdateSiteSpace(orgId, site.id)
  const form = usePathConditionForm({ path: siteSpace.path, condition: siteSpace.condition ?? '' })
  const pathRef = useFocusOn(focusToken)
  // A refetch (another window, a move) shows the stored values unless the user is mid-edit.
  useFormFollow(form, { path: siteSpace.path, condition: siteSpace.condition ?? '' })

  const saved = (s: SiteSpace, message: string) => {
    const values = { ...form.getValues(), path: s.path, condition: s.condition ?? '' }
    form.setValues(values)
    form.resetDirty(values)
    notifySuccess(message)
  }
  const submit = form.onSubmit((v) => {
    const body: { siteSpaceId: string; path?: string; condition?: string | null } = { siteSpaceId: siteSpace.id }
    if (v.path.trim() !== siteSpace.path) body.path = v.path.trim()
    const condition = v.condition.trim()
    if (condition !== (siteSpace.condition ?? '')) body.condition = condition || null
    if (Object.keys(body).length === 1) return
    update.mutate(body, { onSuccess: (s) => saved(s, `“${s.title}” saved`), onError: (e) => applyFormError(form, e) })
  })
  const clearCondition = () =>
    update.mutate(
      { siteSpaceId: siteSpace.id, condition: null },
      { onSuccess: (s) => saved(s, `Condition removed: everyone sees “${s.title}”`), onError: (e) => applyFormError(form, e) }
    )

  return (
    <Frame
      icon={siteSpace.space?.emoji ? <span className={classes.icon}>{emojiText(siteSpace.space.emoji)}</span> : null}
      title={siteSpace.title || 'Untitled space'}
      badges={
        siteSpace.default && (
          <Badge color="yellow" leftSection={<IconStar size={12} />}>
            Default
          </Badge>
        )
      }
    >
      <Text size="sm" c="dimmed">
        A space on this site{siteSpace.space ? ' · ' : ''}
        {siteSpace.space && (
          <RouterAnchor to="/spaces/$spaceId" params={{ spaceId: siteSpace.space.id }} size="sm">
            Open the space
          </RouterAnchor>
        )}
      </Text>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <TextInput
            ref={pathRef}
            label="Path"
            description="Its address on the site: letters, digits and . _ ~ - (1 to 100)"
            leftSection={
              <Text size="sm" c="dimmed">
                /
              </Text>
            }
            classNames={{ input: classes.mono }}
            disabled={!canManage}
            {...form.getInputProps('path')}
            data-testid="path-input"
          />
          <ConditionField form={form} orgId={orgId} siteId={site.id} disabled={!canManage} />
          {canManage && (
            <FormActions form={form} saving={update.isPending} onClearCondition={siteSpace.condition ? clearCondition : undefined} />
          )}
        </Stack>
      </form>
      <Divider />
      <PublishedAt site={site} url={siteSpace.urls?.published} />
      {canManage && (
        <Group gap="xs">
          {!siteSpace.default && (
            <Button
              variant="default"
              size="xs"
              leftSection={<IconStar size={14} />}
              onClick={() => actions.makeDefaultSiteSpace(siteSpace)}
            >
              Make default
            </Button>
          )}
          <Button
            variant="subtle"
            color="red"
            size="xs"
            leftSection={<IconTrash size={14} />}
            onClick={() => actions.removeSiteSpace(siteSpace)}
          >
            Remove from site
          </Button>
        </Group>
      )}
    </Frame>
  )
}

function SectionDetails({
  orgId,
  site,
  section,
  canManage,
  actions,
  focusToken
}: {
  orgId: string
  site: Site
  section: SiteSection
  canManage: boolean
  actions: StructureActions
  focusToken: number
}) {
  const update = useUpdateSection(orgId, site.id)
  const valuesOf = (s: SiteSection) => ({ title: s.title, path: s.path, condition: s.condition ?? '', description: s.description ?? '' })
  const form = usePathConditionForm(valuesOf(section))
  const titleRef = useFocusOn(focusToken)
  useFormFollow(form, valuesOf(section))
  const saved = (s: SiteSection, message: string) => {
    form.setValues(valuesOf(s))
    form.resetDirty(valuesOf(s))
    notifySuccess(message)
  }
  const submit = form.onSubmit((v) => {
    const body: Parameters<typeof update.mutate>[0] = { sectionId: section.id }
    if (v.title.trim() !== section.title) body.title = v.title.trim()
    if (v.path.trim() !== section.path) body.path = v.path.trim()
    if (v.description.trim() !== (section.description ?? '')) body.description = v.description.trim() || null
    const condition = v.condition.trim()
    if (condition !== (section.condition ?? '')) body.condition = condition || null
    if (Object.keys(body).length === 1) return
    update.mutate(body, { onSuccess: (s) => saved(s, `Section “${s.title}” saved`), onError: (e) => applyFormError(form, e) })
  })
  const clearCondition = () =>
    update.mutate(
      { sectionId: section.id, condition: null },
      { onSuccess: (s) => saved(s, `Condition removed: everyone sees “${s.title}”`), onError: (e) => applyFormError(form, e) }
    )

  return (
    <Frame
      icon={<IconLayoutList size={20} stroke={1.6} color="var(--mantine-color-indigo-5)" />}
      title={section.title}
      badges={section.default && <Badge color="indigo">Default section</Badge>}
    >
      <Text size="sm" c="dimmed">
        A section with {section.siteSpaces.length} {section.siteSpaces.length === 1 ? 'space' : 'spaces'}
      </Text>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <TextInput ref={titleRef} label="Title" disabled={!canManage} {...form.getInputProps('title')} data-testid="title-input" />
          <TextInput
            label="Path"
            description="The section's address on the site"
            leftSection={
              <Text size="sm" c="dimmed">
                /
              </Text>
            }
            classNames={{ input: classes.mono }}
            disabled={!canManage}
            {...form.getInputProps('path')}
            data-testid="path-input"
          />
          <Textarea label="Description" autosize minRows={1} maxRows={4} disabled={!canManage} {...form.getInputProps('description')} />
          <ConditionField form={form} orgId={orgId} siteId={site.id} disabled={!canManage} />
          {canManage && (
            <FormActions form={form} saving={update.isPending} onClearCondition={section.condition ? clearCondition : undefined} />
          )}
        </Stack>
      </form>
      <Divider />
      <PublishedAt site={site} url={section.urls.published} />
      {canManage && (
        <Group gap="xs">
          <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={() => actions.addSpaceTo(section.id)}>
            Add a space
          </Button>
          {!section.default && (
            <Button variant="default" size="xs" leftSection={<IconStar size={14} />} onClick={() => actions.makeDefaultSection(section)}>
              Make default
            </Button>
          )}
          <Button
            variant="subtle"
            color="red"
            size="xs"
            leftSection={<IconTrash size={14} />}
            onClick={() => actions.deleteSection(section)}
          >
            Delete section
          </Button>
        </Group>
      )}
    </Frame>
  )
}

function GroupDetails({
  orgId,
  site,
  group,
  canManage,
  actions,
  focusToken
}: {
  orgId: string
  site: Site
  group: SiteSectionGroup
  canManage: boolean
  actions: StructureActions
  focusToken: number
}) {
  const rename = useRenameGroup(orgId, site.id)
  const form = useForm({ initialValues: { title: group.title } })
  const titleRef = useFocusOn(focusToken)
  useFormFollow(form, { title: group.title })
  const sections = group.sections ?? []
  return (
    <Frame icon={<IconFolders size={20} stroke={1.6} color="var(--mantine-color-indigo-5)" />} title={group.title}>
      <Text size="sm" c="dimmed">
        A group of {sections.length} {sections.length === 1 ? 'section' : 'sections'}
        {sections.length ? `: ${sections.map((s) => s.title).join(', ')}` : '. Move sections into it from their menu.'}
      </Text>
      <form
        onSubmit={form.onSubmit(({ title }) => {
          if (title.trim() === group.title) return
          rename.mutate(
            { groupId: group.id, title: title.trim() },
            {
              onSuccess: (g) => {
                form.setValues({ title: g.title })
                form.resetDirty({ title: g.title })
                notifySuccess(`Group renamed to “${g.title}”`)
              },
              onError: (e) => applyFormError(form, e)
            }
          )
        })}
      >
        <Stack gap="sm">
          <TextInput ref={titleRef} label="Title" disabled={!canManage} {...form.getInputProps('title')} data-testid="title-input" />
          {canManage && (
            <Group justify="flex-end" gap="xs">
              <Button variant="default" size="xs" disabled={!form.isDirty()} onClick={() => form.reset()}>
                Discard
              </Button>
              <Button type="submit" size="xs" disabled={!form.isDirty()} loading={rename.isPending} data-testid="details-save">
                Save
              </Button>
            </Group>
          )}
        </Stack>
      </form>
      {canManage && (
        <>
          <Divider />
          <Group gap="xs">
            <Button variant="subtle" color="red" size="xs" leftSection={<IconTrash size={14} />} onClick={() => actions.deleteGroup(group)}>
              Delete group
            </Button>
          </Group>
        </>
      )}
    </Frame>
  )
}
