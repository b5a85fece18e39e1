import { useEffect, useState } from 'react'
import { Alert, Button, Group, Modal, Skeleton, Stack, Text, Tooltip } from '@mantine/core'
import { IconAlertTriangle, IconCloudUpload, IconSend } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { OutboxItem, Workspace, WorkspaceList } from '../../../../src-shared/workspaces.ts'
import { formatRelative, formatTime, plural } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { changeRequestLabel, discardConsequence, sendableCount, syncOutcome, unsentLabel, type SyncTone } from './outbox.ts'
import { ConflictResolver } from './ConflictResolver.tsx'
import { outboxQuery, useDiscardUnsent, useRetryUnsent, useSendUnsent, useWorkspaceSwitch, WATCH_MS } from './queries.ts'
import { remoteHost } from './remote.ts'
import classes from './Workspaces.module.css'

type Outcome = { text: string; tone: SyncTone }
const TONE_COLOR: Record<SyncTone, string> = { sent: 'teal', waiting: 'orange', problem: 'red' }

/**
 * The header's pill while the active connected workspace keeps writes its server does not have yet ("3 changes
 * not sent", red once the server refused one); it opens the Unsent changes dialog. Nothing otherwise.
 */
export function UnsentChangesButton({ list }: { list: WorkspaceList | undefined }) {
  const [opened, setOpened] = useState(false)
  const switchingTo = useWorkspaceSwitch((s) => s.switchingTo)
  const active = list?.items.find((w) => w.id === list.active)
  if (!active?.remote || switchingTo !== null) return null
  const label = unsentLabel(active.remote.outbox)
  const Icon = label?.refused ? IconAlertTriangle : IconCloudUpload
  return (
    <>
      {label && (
        <Button
          size="compact-sm"
          variant="light"
          color={label.refused ? 'red' : 'orange'}
          leftSection={<Icon size={15} stroke={1.8} />}
          onClick={() => setOpened(true)}
          data-testid="unsent-changes"
          data-refused={label.refused || undefined}
        >
          {label.label}
        </Button>
      )}
      {/* Stays open once everything is sent, to say so. */}
      <UnsentChangesModal workspace={active} opened={opened} onClose={() => setOpened(false)} />
    </>
  )
}

/**
 * The active connected workspace's unsent writes, oldest first: where each goes (space, change request), what it
 * does, when it was made and, for one the server refused, why, with "Try again" and "Discard…". "Send now" sends
 * them in order and says what happened.
 */
function UnsentChangesModal({ workspace, opened, onClose }: { workspace: Workspace; opened: boolean; onClose: () => void }) {
  const remote = workspace.remote!
  const host = remoteHost(remote.url)
  // Followed while it is open and something waits: the workspace sends by itself when its server answers.
  const watching = remote.connection.status === 'unreachable' || (remote.outbox?.unsent ?? 0) > 0
  const outbox = useQuery({ ...outboxQuery(workspace.id), enabled: opened, refetchInterval: opened && watching ? WATCH_MS : false })
  const send = useSendUnsent(workspace.id)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  // Each opening starts without the last one's result.
  useEffect(() => {
    if (opened) setOutcome(null)
  }, [opened])
  const items = outbox.data?.items ?? []
  const offline = remote.connection.status === 'unreachable'
  // Refused writes (and those behind them) wait for the user: a send would try nothing.
  const sendable = sendableCount(items)

  return (
    // Wider while a conflict shows its three versions side by side.
    <Modal
      opened={opened}
      onClose={onClose}
      title="Unsent changes"
      size={items.some((i) => i.conflict) ? 'xl' : 'lg'}
      data-testid="unsent-changes-dialog"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Edits made on this computer that {host} does not have yet. They are sent in this order when it answers, merged with what changed
          there meanwhile. A change it refuses, or one that clashes with a change made there, waits here for you, and so do the later
          changes of the same change request.
        </Text>
        {outbox.isPending ? (
          <Stack gap={6} aria-busy="true">
            <Skeleton height={52} />
            <Skeleton height={52} />
          </Stack>
        ) : outbox.isError ? (
          <Alert color="red" icon={<IconAlertTriangle size={16} />} data-testid="unsent-load-error">
            {outbox.error.message}
          </Alert>
        ) : items.length === 0 ? (
          <Text size="sm" className={classes.outboxEmpty} data-testid="unsent-empty">
            Nothing waits: {host} has every change made here.
          </Text>
        ) : (
          <div className={classes.rows} role="list" aria-label="Unsent changes">
            {items.map((item) => (
              <UnsentRow
                key={item.seq}
                item={item}
                items={items}
                workspaceId={workspace.id}
                host={host}
                onOutcome={setOutcome}
                onNavigate={onClose}
              />
            ))}
          </div>
        )}
        {outcome && (
          <Text size="sm" c={TONE_COLOR[outcome.tone]} role="status" data-testid="unsent-outcome" data-tone={outcome.tone}>
            {outcome.text}
          </Text>
        )}
        <Group justify="space-between" wrap="nowrap">
          <Text size="xs" c="dimmed" data-testid="unsent-connection">
            {offline
              ? `${host} cannot be reached${remote.connection.checkedAt ? ` (last tried ${formatTime(remote.connection.checkedAt)})` : ''}: Send now asks it again`
              : `Connected to ${host}`}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Button variant="default" onClick={onClose} data-testid="unsent-close">
              Close
            </Button>
            <Tooltip
              label="Only refused changes wait: try one again or discard it"
              disabled={sendable > 0 || items.length === 0}
              multiline
              maw={260}
            >
              {/* A disabled button gets no pointer events; the wrapper keeps the tooltip that says why. */}
              <span>
                <Button
                  leftSection={<IconSend size={16} />}
                  loading={send.isPending}
                  disabled={sendable === 0}
                  onClick={() => send.mutate(undefined, { onSuccess: (result) => setOutcome(syncOutcome(result, host)) })}
                  data-testid="unsent-send"
                >
                  Send now
                </Button>
              </span>
            </Tooltip>
          </Group>
        </Group>
      </Stack>
    </Modal>
  )
}

function UnsentRow({
  item,
  items,
  workspaceId,
  host,
  onOutcome,
  onNavigate
}: {
  item: OutboxItem
  items: OutboxItem[]
  workspaceId: string
  host: string
  onOutcome: (outcome: Outcome) => void
  onNavigate: () => void
}) {
  const [confirming, setConfirming] = useState(false)
  const retry = useRetryUnsent(workspaceId)
  const discard = useDiscardUnsent(workspaceId)
  const busy = retry.isPending || discard.isPending
  const failed = item.failed
  const conflict = item.conflict
  return (
    <div
      className={`${classes.outboxRow} ${confirming ? classes.rowConfirm : ''}`}
      role="listitem"
      data-testid="unsent-item"
      data-seq={item.seq}
      data-failed={failed ? true : undefined}
      data-conflict={conflict ? true : undefined}
    >
      <div className={classes.outboxMain}>
        <Group gap={6} wrap="nowrap" className={classes.outboxWhere}>
          <Text size="sm" c="dimmed" truncate data-testid="unsent-item-space">
            {item.space.title}
          </Text>
          <Text size="sm" c="dimmed" aria-hidden>
            ·
          </Text>
          <RouterAnchor
            to="/spaces/$spaceId/change-requests/$number"
            params={{ spaceId: item.space.id, number: String(item.changeRequest.number) }}
            size="sm"
            fw={500}
            truncate
            onClick={onNavigate}
            data-testid="unsent-item-change-request"
          >
            {changeRequestLabel(item)}
          </RouterAnchor>
        </Group>
        <Text size="sm" data-testid="unsent-item-summary">
          {item.summary}{' '}
          <Text span size="xs" c="dimmed" title={item.createdAt}>
            · {formatRelative(item.createdAt)}
          </Text>
        </Text>
        {failed && (
          <Text size="sm" className={classes.outboxNotice} data-testid="unsent-item-error">
            {host} refused it {formatRelative(failed.at)}: {failed.message}
          </Text>
        )}
        {conflict && !confirming && <ConflictResolver item={item} workspaceId={workspaceId} host={host} onOutcome={onOutcome} />}
        {confirming && (
          <ConfirmDiscard
            item={item}
            items={items}
            host={host}
            loading={discard.isPending}
            onCancel={() => setConfirming(false)}
            onConfirm={(lost) =>
              discard.mutate(item.seq, {
                onSuccess: () => {
                  setConfirming(false)
                  onOutcome({ text: `Discarded ${plural(lost, 'change')} of ${changeRequestLabel(item)}`, tone: 'sent' })
                }
              })
            }
          />
        )}
      </div>
      {conflict && !confirming && (
        <Group gap={6} wrap="nowrap" className={classes.outboxActions}>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            disabled={busy}
            onClick={() => setConfirming(true)}
            data-testid="unsent-discard"
          >
            Discard…
          </Button>
        </Group>
      )}
      {failed && !confirming && (
        <Group gap={6} wrap="nowrap" className={classes.outboxActions}>
          <Button
            size="compact-sm"
            variant="default"
            loading={retry.isPending}
            disabled={busy}
            onClick={() => retry.mutate(item.seq, { onSuccess: (result) => onOutcome(syncOutcome(result, host)) })}
            data-testid="unsent-retry"
          >
            Try again
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            disabled={busy}
            onClick={() => setConfirming(true)}
            data-testid="unsent-discard"
          >
            Discard…
          </Button>
        </Group>
      )}
    </div>
  )
}

/** Says what a discard loses before it happens: this change (with the later ones of a change request made here, and it). */
function ConfirmDiscard({
  item,
  items,
  host,
  loading,
  onCancel,
  onConfirm
}: {
  item: OutboxItem
  items: OutboxItem[]
  host: string
  loading: boolean
  onCancel: () => void
  onConfirm: (lost: number) => void
}) {
  const consequence = discardConsequence(items, item.seq) ?? { later: 0, removesChangeRequest: false, last: true }
  const cr = `#${item.changeRequest.number}`
  return (
    <div className={classes.outboxConfirm} data-testid="unsent-discard-confirm">
      <Text size="sm">
        {consequence.later > 0
          ? `This change and the ${plural(consequence.later, 'later change')} of ${cr} will be lost.`
          : 'This change will be lost.'}{' '}
        {consequence.removesChangeRequest
          ? `${cr} was made on this computer and never sent: it is removed.`
          : consequence.last
            ? `${cr} goes back to how it is on ${host}.`
            : `The later changes of ${cr} are still sent, without this one.`}
      </Text>
      <Group gap="xs">
        <Button
          size="compact-sm"
          color="red"
          loading={loading}
          onClick={() => onConfirm(consequence.later + 1)}
          data-testid="unsent-confirm-discard"
        >
          Discard
        </Button>
        <Button size="compact-sm" variant="default" disabled={loading} onClick={onCancel}>
          Cancel
        </Button>
      </Group>
    </div>
  )
}
