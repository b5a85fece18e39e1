import { useEffect, useRef, useState } from 'react'
import { ActionIcon, Alert, Anchor, Button, Group, Skeleton, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core'
import { modals } from '@mantine/modals'
import { IconAlertTriangle, IconArchive, IconArrowLeft, IconCheck, IconGitMerge, IconPencil, IconRefresh } from '@tabler/icons-react'
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { ApiError, fieldError } from '../../api/client.ts'
import type { ChangeRequest } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { notifySuccess } from '../../app/notify.ts'
import { formatRelative } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { CommentsPanel } from '../comments/CommentsPanel.tsx'
import { spaceQuery } from '../content/queries.ts'
import { changeKey, conflictCount, conflictingPages, pages, type MergeConflict, type PageChange } from './changes.ts'
import { ChangesPanel } from './ChangesPanel.tsx'
import { MergeEditorButton } from './MergeConflictNotice.tsx'
import { confirmMergeBreakingLinks, MergeGuard, useMergeGuard } from './MergeGuard.tsx'
import { canEditSubject, isActive, movesFrom, type StatusMove } from './moves.ts'
import { validateSubject } from './NewChangeRequestDialog.tsx'
import {
  changeRequestChangesQuery,
  changeRequestQuery,
  mergeStatusQuery,
  useMergeChangeRequest,
  useMoveChangeRequest,
  useRenameChangeRequest,
  useUpdateFromMain
} from './queries.ts'
import { OutdatedBadge, StatusBadge } from './StatusBadge.tsx'
import { ReviewPanel } from './ReviewPanel.tsx'
import { mergeBlock } from './reviews.ts'
import classes from './ChangeRequests.module.css'
import { ReusableChanges } from '../reusableContents/ReusableChanges.tsx'
import { LockedNotice } from '../spaceSettings/SpaceSettingsScreen.tsx'

/** Looks and reads as disabled but still gets the pointer, so its tooltip can say why (a disabled button gets no events). */
function softDisabled(off: boolean) {
  return off ? { 'data-disabled': true, 'aria-disabled': true } : {}
}

/** What the last merge or update answered when it stopped at conflicts (nothing changed on the server). */
interface StoppedAt {
  operation: 'merge' | 'update'
  conflicts: MergeConflict[]
}

/**
 * One change request: subject, status and its moves, merge and update from main, the pages it changes with
 * their diffs, conflicts with main when a merge stops at them, and the discussion.
 */
export function ChangeRequestScreen({
  spaceId,
  number,
  selected,
  onSelect
}: {
  spaceId: string
  number: string
  /** The change shown (`changeKey`), kept in the address so Back and links return to it. */
  selected?: string
  onSelect(key: string): void
}) {
  const { data: cr } = useSuspenseQuery(changeRequestQuery(spaceId, number))
  const changes = useQuery(changeRequestChangesQuery(spaceId, number))
  const space = useQuery(spaceQuery(spaceId)).data
  const [stopped, setStopped] = useState<StoppedAt | null>(null)
  useReportAppState(changes.isPending ? 'loading' : 'ready')
  useRightNumber(spaceId, number, cr)

  const move = useMoveChangeRequest(spaceId, number)
  const merge = useMergeChangeRequest(spaceId, number)
  const update = useUpdateFromMain(spaceId, number)
  const busy = move.isPending || merge.isPending || update.isPending
  const active = isActive(cr.status)
  const guard = useMergeGuard(spaceId, number, active)
  const canEdit = space?.permissions.edit ?? false
  const canMerge = space?.permissions.merge ?? false
  const block = mergeBlock(useQuery({ ...mergeStatusQuery(spaceId, number), enabled: active }).data)
  // Conflict flags only mean something while the change request can still be merged.
  const conflicts = active ? conflictingPages(changes.data ?? [], stopped?.conflicts) : new Map<string, undefined>()
  const flagged = active ? conflictCount(changes.data ?? []) : 0

  const showFirstConflict = (list: MergeConflict[], all: PageChange[]) => {
    const first = all.find((c) => c.page.id === list[0]?.page.id && c.type !== 'page_moved')
    if (first) onSelect(changeKey(first))
  }

  const runMerge = () =>
    merge.mutate(
      { reviewed: cr.revision, bypass: block.bypass },
      {
        onSuccess: (result) => {
          if (result.result === 'conflicts') {
            const list = result.conflicts ?? []
            setStopped({ operation: 'merge', conflicts: list })
            showFirstConflict(list, changes.data ?? [])
          } else {
            setStopped(null)
            notifySuccess(`Change request #${cr.number} merged into main`)
          }
        }
      }
    )

  // A merge that would break links asks with the list of them ("Merge anyway"); any other asks as below.
  const confirmMerge = async () => {
    const check = await guard.check()
    if (check?.broken.count) confirmMergeBreakingLinks({ crNumber: cr.number, check, changes: changes.data ?? [], onConfirm: runMerge })
    else confirmPlainMerge()
  }

  const confirmPlainMerge = () =>
    modals.openConfirmModal({
      title: `Merge #${cr.number} into main?`,
      children: (
        <Text size="sm">
          {changes.data?.length
            ? `The ${pages(new Set(changes.data.map((c) => c.page.id)).size)} it changes become the space’s live content.`
            : 'It changes no pages; merging still closes it.'}{' '}
          A merged change request is final. If main changed the same lines meanwhile, nothing is merged and the conflicts are shown instead.
        </Text>
      ),
      labels: { confirm: 'Merge', cancel: 'Cancel' },
      confirmProps: { leftSection: <IconGitMerge size={16} />, 'data-testid': 'confirm-merge' } as Record<string, unknown>,
      onConfirm: runMerge
    })

  const runUpdate = () =>
    update.mutate(
      {},
      {
        onSuccess: (result) => {
          if (result.result === 'conflicts') {
            const list = result.conflicts ?? []
            setStopped({ operation: 'update', conflicts: list })
            showFirstConflict(list, changes.data ?? [])
          } else {
            setStopped(null)
            notifySuccess(`Change request #${cr.number} is up to date with main`)
          }
        }
      }
    )

  const runMove = (m: StatusMove) =>
    move.mutate({ status: m.to }, { onSuccess: () => notifySuccess(`Change request #${cr.number} ${m.done}`) })

  return (
    <Stack gap="md" data-testid="cr-detail" data-number={cr.number}>
      <RouterAnchor
        to="/spaces/$spaceId/change-requests"
        params={{ spaceId }}
        size="sm"
        c="dimmed"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, alignSelf: 'flex-start' }}
        data-testid="back-to-list"
      >
        <IconArrowLeft size={14} /> All change requests
      </RouterAnchor>

      <div>
        <div className={classes.titleRow}>
          <Title order={3} className={classes.number}>
            #{cr.number}
          </Title>
          <SubjectEditor spaceId={spaceId} number={number} cr={cr} editable={canEdit && canEditSubject(cr.status)} />
        </div>
        <div className={classes.metaRow}>
          <Group gap={8}>
            <StatusBadge status={cr.status} />
            {cr.outdated && <OutdatedBadge />}
            <Text size="sm" c="dimmed">
              Started by {cr.createdBy?.displayName || cr.createdBy?.email || 'someone'} {formatRelative(cr.createdAt)} · updated{' '}
              {formatRelative(cr.updatedAt)}
              {cr.comments > 0 && ` · ${cr.comments} open ${cr.comments === 1 ? 'comment' : 'comments'}`}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap" style={{ flex: 'none' }} data-testid="cr-actions">
            {canEdit &&
              movesFrom(cr.status).map((m) => (
                <Tooltip key={m.key} label={m.hint} openDelay={400}>
                  <Button
                    variant="default"
                    leftSection={m.key === 'archive' ? <IconArchive size={16} /> : undefined}
                    loading={move.isPending && move.variables?.status === m.to}
                    disabled={busy && !(move.isPending && move.variables?.status === m.to)}
                    onClick={() => runMove(m)}
                    data-testid={`cr-move-${m.key}`}
                  >
                    {m.label}
                  </Button>
                </Tooltip>
              ))}
            {active && canEdit && (
              <Tooltip
                label={cr.outdated ? 'Pull main’s newer changes into this change request' : 'Already up to date with main'}
                openDelay={300}
              >
                <Button
                  variant="default"
                  leftSection={<IconRefresh size={16} />}
                  loading={update.isPending}
                  disabled={busy && !update.isPending}
                  {...softDisabled(!cr.outdated)}
                  onClick={() => cr.outdated && runUpdate()}
                  data-testid="cr-update"
                >
                  Update from main
                </Button>
              </Tooltip>
            )}
            {active && (
              <Tooltip
                label={
                  !canMerge
                    ? space?.editMode === 'locked'
                      ? 'The space is locked: an admin must unlock it first'
                      : 'Your role on this space does not allow merging'
                    : block.reason
                }
                disabled={canMerge && !block.reason}
                multiline
                w={320}
              >
                <Button
                  leftSection={<IconGitMerge size={16} />}
                  color={block.bypass ? 'orange' : undefined}
                  loading={merge.isPending || guard.checking}
                  disabled={busy && !merge.isPending}
                  {...softDisabled(!canMerge || block.blocked)}
                  onClick={() => canMerge && !block.blocked && void confirmMerge()}
                  data-testid="cr-merge"
                >
                  {block.bypass ? 'Merge anyway' : 'Merge'}
                </Button>
              </Tooltip>
            )}
          </Group>
        </div>
      </div>

      {active && <LockedNotice spaceId={spaceId} what="This change request cannot be edited, updated from main or merged until then." />}
      {stopped && active && (
        <ConflictBanner
          stopped={stopped}
          resolve={canEdit ? <MergeEditorButton spaceId={spaceId} number={cr.number} /> : null}
          changes={changes.data ?? []}
          onShow={(c) => onSelect(changeKey(c))}
          onClose={() => setStopped(null)}
        />
      )}
      {!stopped && active && cr.outdated && (
        <Alert color="yellow" variant="light" icon={<IconRefresh size={18} />} title="Main has changed" data-testid="cr-outdated-banner">
          <Stack gap={8} align="flex-start">
            <Text size="sm">
              Main has changed since this change request last took in its content. Update from main to pull those changes in, so this change
              request is reviewed and merged against main as it is now.
              {flagged > 0 &&
                ` ${pages(flagged)} ${flagged === 1 ? 'conflicts' : 'conflict'} with main, though: updating and merging will stop at ${flagged === 1 ? 'it' : 'them'} until resolved.`}
            </Text>
            {canEdit && (
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconRefresh size={14} />}
                  loading={update.isPending}
                  disabled={busy && !update.isPending}
                  onClick={runUpdate}
                  data-testid="cr-outdated-update"
                >
                  Update from main
                </Button>
                {flagged > 0 && <MergeEditorButton spaceId={spaceId} number={cr.number} />}
              </Group>
            )}
          </Stack>
        </Alert>
      )}
      {cr.status === 'merged' && (
        <Alert color="violet" variant="light" icon={<IconCheck size={18} />} data-testid="cr-merged-banner">
          Merged into main {formatRelative(cr.updatedAt)}. The changes below are part of the space’s live content; a merged change request
          is final.
        </Alert>
      )}
      {cr.status === 'archived' && (
        <Alert color="gray" variant="light" icon={<IconArchive size={18} />} data-testid="cr-archived-banner">
          Archived: set aside without merging. Reopen it to edit, update or merge it.
        </Alert>
      )}

      <ReviewPanel spaceId={spaceId} number={number} cr={cr} space={space} active={active} />

      {active && <MergeGuard spaceId={spaceId} number={number} guard={guard} changes={changes.data ?? []} />}

      <section aria-label="Changes">
        <Group justify="space-between" mb={8}>
          <Text fw={600}>Changes</Text>
          {changes.data && (
            <Text size="sm" c="dimmed" data-testid="changes-count">
              {pages(new Set(changes.data.map((c) => c.page.id)).size)}
            </Text>
          )}
        </Group>
        {changes.data ? (
          <ChangesPanel
            spaceId={spaceId}
            number={number}
            changes={changes.data}
            conflicts={conflicts}
            conflictFirst={!!stopped}
            selectedKey={selected}
            onSelect={onSelect}
          />
        ) : changes.error ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
            The changes could not be loaded: {changes.error.message}
          </Alert>
        ) : (
          <Skeleton height={240} radius="md" />
        )}
      </section>
      <ReusableChanges spaceId={spaceId} cr={cr} />

      <section aria-label="Comments">
        <Text fw={600} mb={8}>
          Comments
        </Text>
        <CommentsPanel spaceId={spaceId} changeRequest={cr.id} />
      </section>
    </Stack>
  )
}

function ConflictBanner({
  stopped,
  resolve,
  changes,
  onShow,
  onClose
}: {
  stopped: StoppedAt
  /** The way to the merge editor (for those who may edit the change request). */
  resolve: React.ReactNode
  changes: PageChange[]
  onShow(c: PageChange): void
  onClose(): void
}) {
  const n = stopped.conflicts.length
  const what = stopped.operation === 'merge' ? 'Merge' : 'Update from main'
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={`${what} stopped: ${pages(n)} ${n === 1 ? 'conflicts' : 'conflict'} with main`}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onClose}
      data-testid="cr-conflict-banner"
    >
      <Stack gap={6}>
        <Text size="sm">
          {stopped.operation === 'merge'
            ? 'Nothing was merged. Main changed the same lines, titles or pages since this change request last took in main’s content, and Update from main cannot settle that either: it stops at the same conflicts.'
            : 'Nothing was changed. Main changed the same lines, titles or pages as this change request.'}{' '}
          Resolve them in the merge editor (keep main’s lines, yours or both, or write the result), or open each page below in the editor
          and make its conflicting part match main (the left side of its conflict view); your edits elsewhere on the page are kept. Then{' '}
          {stopped.operation === 'merge' ? 'merge' : 'update'} again.
        </Text>
        <Group gap={6}>
          {resolve}
          {stopped.conflicts.map((c) => {
            const change = changes.find((x) => x.page.id === c.page.id && x.type !== 'page_moved')
            return change ? (
              <Anchor key={c.page.id} component="button" type="button" size="sm" onClick={() => onShow(change)} data-testid="conflict-page">
                {c.page.title || 'Untitled page'}
              </Anchor>
            ) : (
              <Text key={c.page.id} size="sm" data-testid="conflict-page">
                {c.page.title || 'Untitled page'}
              </Text>
            )
          })}
        </Group>
      </Stack>
    </Alert>
  )
}

/** The subject as a heading; the pencil (or a double click) edits it in place: Enter saves, Esc cancels. */
/**
 * A change request made offline gets another number from its server once sent; the old number still leads to it
 * for a while. The address then moves to the number the change request has, in place (no history entry).
 */
function useRightNumber(spaceId: string, number: string, cr: ChangeRequest) {
  const navigate = useNavigate()
  const client = useQueryClient()
  useEffect(() => {
    if (String(cr.number) === number) return
    client.setQueryData(changeRequestQuery(spaceId, String(cr.number)).queryKey, cr)
    void navigate({
      to: '/spaces/$spaceId/change-requests/$number',
      params: { spaceId, number: String(cr.number) },
      search: (prev) => prev,
      replace: true
    })
  }, [client, cr, navigate, number, spaceId])
}

function SubjectEditor({ spaceId, number, cr, editable }: { spaceId: string; number: string; cr: ChangeRequest; editable: boolean }) {
  const rename = useRenameChangeRequest(spaceId, number)
  const [editing, setEditing] = useState(false)
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)
  const pencil = useRef<HTMLButtonElement>(null)

  const start = () => {
    if (!editable) return
    setValue(cr.subject)
    setError(null)
    setEditing(true)
  }
  const stop = () => {
    setEditing(false)
    setError(null)
    // Focus goes back where editing started.
    requestAnimationFrame(() => pencil.current?.focus())
  }
  const save = () => {
    const subject = value.trim()
    const invalid = validateSubject(subject)
    if (invalid) return setError(invalid)
    if (subject === cr.subject) return stop()
    rename.mutate(
      { subject },
      {
        onSuccess: () => {
          notifySuccess('Subject saved')
          stop()
        },
        onError: (e) => {
          const blamed = fieldError(e)
          setError(blamed ? blamed.rule.charAt(0).toUpperCase() + blamed.rule.slice(1) : e instanceof ApiError ? e.message : String(e))
        }
      }
    )
  }

  if (editing)
    return (
      <form
        className={classes.subjectForm}
        onSubmit={(e) => {
          e.preventDefault()
          save()
        }}
      >
        <Group gap={6} align="flex-start" wrap="nowrap">
          <TextInput
            autoFocus
            aria-label="Subject"
            value={value}
            onChange={(e) => {
              setValue(e.currentTarget.value)
              setError(null)
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault()
                stop()
              }
            }}
            error={error}
            disabled={rename.isPending}
            style={{ flex: 1 }}
            data-testid="cr-subject-edit"
          />
          <Button type="submit" loading={rename.isPending} data-testid="cr-subject-save">
            Save
          </Button>
          <Button variant="default" onClick={stop} disabled={rename.isPending}>
            Cancel
          </Button>
        </Group>
      </form>
    )

  return (
    <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
      <Title order={3} className={classes.subject} onDoubleClick={start} data-testid="cr-subject-title">
        {cr.subject || 'Untitled change request'}
      </Title>
      {editable && (
        <Tooltip label="Edit subject">
          <ActionIcon
            ref={pencil}
            variant="subtle"
            color="gray"
            aria-label="Edit subject"
            onClick={start}
            data-testid="cr-subject-edit-button"
          >
            <IconPencil size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  )
}
