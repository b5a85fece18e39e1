import { useMemo, useState } from 'react'
import { Button, EmptyState, Group, Stack, Text } from '@mantine/core'
import { modals } from '@mantine/modals'
import { IconBinaryTree, IconFolders, IconLayoutList, IconPlus } from '@tabler/icons-react'
import { useSuspenseQuery } from '@tanstack/react-query'
import type { SiteSection, SiteSectionGroup, SiteSpace } from '../../api/types.ts'
import { notifySuccess } from '../../app/notify.ts'
import { useScreenReady } from '../common/screen.ts'
import {
  siteQuery,
  siteStructureQuery,
  useDeleteGroup,
  useDeleteSection,
  useAddToGroup,
  useMoveStructureItem,
  useRemoveFromGroup,
  useRemoveSiteSpace,
  useUpdateSection,
  useUpdateSite
} from './queries.ts'
import { useCanManageSites } from './SiteScreen.tsx'
import { AddSectionDialog, AddSiteSpaceDialog, CreateGroupDialog } from './StructureDialogs.tsx'
import { StructureInspector } from './StructureInspector.tsx'
import { StructureTree, type StructureActions } from './StructureTree.tsx'
import { buildStructureRows, defaultTarget, groupsOf, rowKey, sectionsOf, siteSpacesOf } from './siteTree.ts'
import classes from './Sites.module.css'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

type Dialog = { kind: 'site-space'; sectionId?: string } | { kind: 'section' } | { kind: 'group'; sections?: string[] } | null

/**
 * The site's structure: sections (optionally in groups) holding site spaces, or site spaces at the root.
 * The tree on the left arranges; the panel on the right edits the selected item's path and condition.
 */
export function SiteStructureScreen({ orgId, siteId }: { orgId: string; siteId: string }) {
  const { data: site } = useSuspenseQuery(siteQuery(orgId, siteId))
  const { data: structure } = useSuspenseQuery(siteStructureQuery(orgId, siteId))
  const canManage = useCanManageSites(orgId)
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({})
  const [selectedKey, setSelectedKey] = useState<string | null>(null)
  const [focusToken, setFocusToken] = useState(0)
  const [dialog, setDialog] = useState<Dialog>(null)
  useScreenReady()

  const rows = useMemo(() => buildStructureRows(structure, (key) => !!collapsed[key]), [structure, collapsed])
  const groups = groupsOf(structure)
  const sections = sectionsOf(structure)
  const siteSpaceCount = siteSpacesOf(structure).length
  const selected = rows.find((r) => r.key === selectedKey) ?? null

  const move = useMoveStructureItem(orgId, siteId)
  const updateSite = useUpdateSite(orgId, siteId)
  const updateSection = useUpdateSection(orgId, siteId, { inline: false })
  const removeSiteSpace = useRemoveSiteSpace(orgId, siteId)
  const deleteSection = useDeleteSection(orgId, siteId)
  const deleteGroup = useDeleteGroup(orgId, siteId)
  const addToGroup = useAddToGroup(orgId, siteId)
  const removeFromGroup = useRemoveFromGroup(orgId, siteId)

  const confirm = (title: string, body: string, label: string, onConfirm: () => void) =>
    modals.openConfirmModal({
      title,
      children: <Text size="sm">{body}</Text>,
      labels: { confirm: label, cancel: 'Cancel' },
      confirmProps: { color: 'red', 'data-testid': 'confirm-remove' },
      onConfirm
    })

  const actions: StructureActions = {
    move: (row, request, how) => move.mutate(request, { onSuccess: () => notifySuccess(`Moved “${row.title}” ${how}`) }),
    makeDefaultSiteSpace: (siteSpace: SiteSpace) => {
      const target = defaultTarget(siteSpace)
      const done = () => notifySuccess(`“${siteSpace.title}” is now the default space of its ${'section' in target ? 'section' : 'site'}`)
      if ('section' in target) updateSection.mutate({ sectionId: target.section, defaultSiteSpace: siteSpace.id }, { onSuccess: done })
      else updateSite.mutate({ defaultSiteSpace: siteSpace.id }, { onSuccess: done })
    },
    makeDefaultSection: (section: SiteSection) =>
      updateSite.mutate(
        { defaultSiteSection: section.id },
        { onSuccess: () => notifySuccess(`“${section.title}” is now the default section`) }
      ),
    removeSiteSpace: (siteSpace: SiteSpace) =>
      confirm(
        'Remove space from the site?',
        `“${siteSpace.title}” no longer appears on the site; its path and condition are forgotten. The space itself and its content stay.`,
        'Remove',
        () => removeSiteSpace.mutate(siteSpace.id, { onSuccess: () => notifySuccess(`“${siteSpace.title}” removed from the site`) })
      ),
    deleteSection: (section: SiteSection) =>
      confirm(
        'Delete section?',
        `“${section.title}” is deleted with its ${section.siteSpaces.length === 1 ? 'space' : `${section.siteSpaces.length} spaces`} on the site. The spaces themselves stay.`,
        'Delete section',
        () => deleteSection.mutate(section.id, { onSuccess: () => notifySuccess(`Section “${section.title}” deleted`) })
      ),
    deleteGroup: (group: SiteSectionGroup) =>
      confirm('Delete group?', `“${group.title}” is deleted; its sections stay on the site, where the group was.`, 'Delete group', () =>
        deleteGroup.mutate(group.id, { onSuccess: () => notifySuccess(`Group “${group.title}” deleted`) })
      ),
    addSpaceTo: (sectionId: string) => setDialog({ kind: 'site-space', sectionId }),
    addToGroup: (section, group) =>
      addToGroup.mutate(
        { groupId: group.id, sectionId: section.id },
        { onSuccess: () => notifySuccess(`“${section.title}” moved into “${group.title}”`) }
      ),
    removeFromGroup: (section) =>
      section.sectionGroup &&
      removeFromGroup.mutate(
        { groupId: section.sectionGroup, sectionId: section.id },
        { onSuccess: () => notifySuccess(`“${section.title}” taken out of its group`) }
      ),
    newGroupFrom: (section) => setDialog({ kind: 'group', sections: [section.id] }),
    edit: (row) => {
      setSelectedKey(row.key)
      setFocusToken((n) => n + 1)
    }
  }

  const select = (key: string) => setSelectedKey(key)
  const hasSections = structure.type === 'sections'

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid="structure-summary">
          {hasSections
            ? [
                plural(sections.length, 'section'),
                ...(groups.length ? [plural(groups.length, 'group')] : []),
                plural(siteSpaceCount, 'space')
              ].join(' · ')
            : `${plural(siteSpaceCount, 'space')} at the root of the site`}
        </Text>
        {canManage && (
          <Group gap="xs">
            {hasSections && (
              <Button
                variant="default"
                leftSection={<IconFolders size={16} />}
                onClick={() => setDialog({ kind: 'group' })}
                data-testid="new-group"
              >
                New group
              </Button>
            )}
            <Button
              variant="default"
              leftSection={<IconLayoutList size={16} />}
              onClick={() => setDialog({ kind: 'section' })}
              data-testid="add-section"
            >
              Add section
            </Button>
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() =>
                setDialog({
                  kind: 'site-space',
                  sectionId:
                    selected?.kind === 'section' ? selected.id : selected?.kind === 'site-space' ? selected.siteSpace.section : undefined
                })
              }
              data-testid="add-site-space"
            >
              Add space
            </Button>
          </Group>
        )}
      </Group>
      {rows.length === 0 ? (
        <EmptyState
          mt={24}
          variant="light"
          icon={<IconBinaryTree size={28} stroke={1.6} />}
          title="No spaces on this site yet"
          description="Add the spaces this site publishes. The first one is its home page; add sections later to split a larger site into parts."
          data-testid="structure-empty"
        />
      ) : (
        <div className={classes.structure}>
          <div className={classes.treeFrame}>
            <StructureTree
              rows={rows}
              groups={groups}
              selectedKey={selectedKey}
              canManage={canManage}
              actions={actions}
              onSelect={select}
              onToggle={(key, expanded) => setCollapsed((c) => ({ ...c, [key]: !expanded }))}
            />
          </div>
          <div className={classes.inspector}>
            <StructureInspector orgId={orgId} site={site} row={selected} canManage={canManage} actions={actions} focusToken={focusToken} />
          </div>
        </div>
      )}
      <AddSiteSpaceDialog
        orgId={orgId}
        siteId={siteId}
        structure={structure}
        opened={dialog?.kind === 'site-space'}
        sectionId={dialog?.kind === 'site-space' ? dialog.sectionId : undefined}
        onClose={() => setDialog(null)}
        onAdded={(id) => setSelectedKey(rowKey({ kind: 'site-space', id }))}
      />
      <AddSectionDialog
        orgId={orgId}
        siteId={siteId}
        structure={structure}
        opened={dialog?.kind === 'section'}
        onClose={() => setDialog(null)}
        onAdded={(id) => setSelectedKey(rowKey({ kind: 'section', id }))}
      />
      <CreateGroupDialog
        orgId={orgId}
        siteId={siteId}
        structure={structure}
        opened={dialog?.kind === 'group'}
        initialSections={dialog?.kind === 'group' ? dialog.sections : undefined}
        onClose={() => setDialog(null)}
        onCreated={(id) => setSelectedKey(rowKey({ kind: 'group', id }))}
      />
    </Stack>
  )
}
