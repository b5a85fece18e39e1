import { Modal, MultiSelect, Select, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useQuery } from '@tanstack/react-query'
import type { PublishedSite, SiteSection } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { spacesQuery } from '../content/queries.ts'
import { useAddSection, useAddSiteSpace, useCreateGroup } from './queries.ts'
import { sectionsOf, siteSpacesOf } from './siteTree.ts'
import classes from './Sites.module.css'
import { DialogActions } from '../common/DialogActions.tsx'
import { withEmoji } from '../common/emoji.ts'
import { useFormReset } from '../common/useFormReset.ts'

type Structure = PublishedSite['structure']

/** A space label for pickers: emoji and title. */
const spaceLabel = (s: { emoji?: string; title: string }) => withEmoji(s.emoji, s.title || 'Untitled space')

/** The organization's spaces as picker options; spaces the site already shows are left out. */
function useSpaceOptions(orgId: string, structure: Structure, enabled: boolean) {
  const spaces = useQuery({ ...spacesQuery(orgId), enabled })
  const linked = new Set(
    siteSpacesOf(structure)
      .map((s) => s.space?.id)
      .filter(Boolean)
  )
  const options = (spaces.data ?? []).filter((s) => !linked.has(s.id)).map((s) => ({ value: s.id, label: spaceLabel(s) }))
  return { options, loading: spaces.isPending }
}

const sectionOption = (s: SiteSection) => ({ value: s.id, label: `${s.title}${s.default ? ' (default)' : ''}` })

/** Adds a space to the site: to a section when the site has sections (the selected or default one first). */
export function AddSiteSpaceDialog({
  orgId,
  siteId,
  structure,
  opened,
  sectionId,
  onClose,
  onAdded
}: {
  orgId: string
  siteId: string
  structure: Structure
  opened: boolean
  /** The section to offer first (the selected one). */
  sectionId?: string
  onClose(): void
  onAdded(siteSpaceId: string): void
}) {
  const add = useAddSiteSpace(orgId, siteId)
  const sections = sectionsOf(structure)
  const { options, loading } = useSpaceOptions(orgId, structure, opened)
  const form = useForm({
    initialValues: { spaceId: '' as string | null, sectionId: '' as string | null },
    validate: { spaceId: (v) => (v ? null : 'Pick a space') }
  })
  useFormReset(
    form,
    opened ? { spaceId: null, sectionId: sectionId ?? sections.find((s) => s.default)?.id ?? sections[0]?.id ?? null } : null,
    opened
  )
  return (
    <Modal opened={opened} onClose={onClose} title="Add a space to the site" data-testid="add-site-space-dialog">
      <form
        onSubmit={form.onSubmit((v) =>
          add.mutate(
            { spaceId: v.spaceId!, sectionId: sections.length && v.sectionId ? v.sectionId : undefined },
            {
              onSuccess: (created) => {
                notifySuccess(`“${created.title}” added to the site`)
                onClose()
                onAdded(created.id)
              },
              onError: (e) => applyFormError(form, e)
            }
          )
        )}
      >
        <Stack>
          <Select
            label="Space"
            placeholder={loading ? 'Loading spaces…' : 'Pick a space'}
            data={options}
            searchable
            nothingFoundMessage="No other space"
            comboboxProps={{ withinPortal: true }}
            data-autofocus
            {...form.getInputProps('spaceId')}
            data-testid="add-site-space-picker"
          />
          {sections.length > 0 && (
            <Select
              label="Section"
              data={sections.map(sectionOption)}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('sectionId')}
              data-testid="add-site-space-section"
            />
          )}
          <Text size="xs" c="dimmed">
            The space is published at a path made from its title; you can change the path afterwards.
          </Text>
          <DialogActions onCancel={onClose} submit="Add space" loading={add.isPending} submitTestId="add-site-space-submit" />
        </Stack>
      </form>
    </Modal>
  )
}

const NEW_SPACE = '__new__'

/** Adds a section whose first site space is a picked space (or a new empty one). */
export function AddSectionDialog({
  orgId,
  siteId,
  structure,
  opened,
  onClose,
  onAdded
}: {
  orgId: string
  siteId: string
  structure: Structure
  opened: boolean
  onClose(): void
  onAdded(sectionId: string): void
}) {
  const add = useAddSection(orgId, siteId)
  const { options, loading } = useSpaceOptions(orgId, structure, opened)
  const first = structure.type === 'siteSpaces'
  const rootCount = first ? structure.structure.length : 0
  const form = useForm({
    initialValues: { spaceId: null as string | null, title: '', path: '' },
    validate: { spaceId: (v) => (v ? null : 'Pick a space, or a new one') }
  })
  useFormReset(form, opened ? {} : null, opened)
  return (
    <Modal opened={opened} onClose={onClose} title="Add a section" data-testid="add-section-dialog">
      <form
        onSubmit={form.onSubmit((v) =>
          add.mutate(
            {
              spaceId: v.spaceId === NEW_SPACE ? null : v.spaceId,
              title: v.title.trim() || undefined,
              path: v.path.trim() || undefined
            },
            {
              onSuccess: (section) => {
                notifySuccess(`Section “${section.title}” added`)
                onClose()
                onAdded(section.id)
              },
              onError: (e) => applyFormError(form, e)
            }
          )
        )}
      >
        <Stack>
          {first && rootCount > 0 && (
            <Text size="sm" c="dimmed">
              This is the site's first section: it becomes the default one, and the {rootCount === 1 ? 'space' : `${rootCount} spaces`}{' '}
              already on the site move into it.
            </Text>
          )}
          <Select
            label="First space"
            description="A section starts with one space; add more to it later."
            placeholder={loading ? 'Loading spaces…' : 'Pick a space'}
            data={[{ value: NEW_SPACE, label: '＋ A new empty space' }, ...options]}
            searchable
            comboboxProps={{ withinPortal: true }}
            data-autofocus
            {...form.getInputProps('spaceId')}
            data-testid="add-section-space"
          />
          <TextInput
            label="Title"
            description="Optional: the space's title when empty"
            {...form.getInputProps('title')}
            data-testid="add-section-title"
          />
          <TextInput
            label="Path"
            description="Optional: made from the title when empty (letters, digits, . _ ~ -)"
            classNames={{ input: classes.mono }}
            {...form.getInputProps('path')}
            data-testid="add-section-path"
          />
          <DialogActions onCancel={onClose} submit="Add section" loading={add.isPending} submitTestId="add-section-submit" />
        </Stack>
      </form>
    </Modal>
  )
}

/** Gathers sections (not yet in a group) into a new section group, added at the end of the site. */
export function CreateGroupDialog({
  orgId,
  siteId,
  structure,
  opened,
  initialSections,
  onClose,
  onCreated
}: {
  orgId: string
  siteId: string
  structure: Structure
  opened: boolean
  initialSections?: string[]
  onClose(): void
  onCreated(groupId: string): void
}) {
  const create = useCreateGroup(orgId, siteId)
  const ungrouped = sectionsOf(structure).filter((s) => !s.sectionGroup)
  const form = useForm({
    initialValues: { title: '', sections: [] as string[] },
    validate: { title: (v) => (v.trim() ? null : 'Give the group a title') }
  })
  useFormReset(form, opened ? { title: '', sections: initialSections ?? [] } : null, opened)
  return (
    <Modal opened={opened} onClose={onClose} title="New section group" data-testid="create-group-dialog">
      <form
        onSubmit={form.onSubmit((v) =>
          create.mutate(
            { title: v.title.trim(), sections: v.sections.length ? v.sections : undefined },
            {
              onSuccess: (group) => {
                notifySuccess(`Group “${group.title}” created`)
                onClose()
                onCreated(group.id)
              },
              onError: (e) => applyFormError(form, e)
            }
          )
        )}
      >
        <Stack>
          <TextInput
            label="Title"
            placeholder="e.g. Products"
            data-autofocus
            {...form.getInputProps('title')}
            data-testid="group-title-input"
          />
          <MultiSelect
            label="Sections"
            description="Sections that are not in a group yet; the group shows them in this order."
            data={ungrouped.map(sectionOption)}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('sections')}
            data-testid="group-sections-input"
          />
          <DialogActions onCancel={onClose} submit="Create group" loading={create.isPending} submitTestId="group-dialog-submit" />
        </Stack>
      </form>
    </Modal>
  )
}
