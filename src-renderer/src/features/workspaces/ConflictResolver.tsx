import { useMemo, useState } from 'react'
import { Button, Group, SegmentedControl, Stack, Text, Textarea } from '@mantine/core'
import type { OutboxConflictPage, OutboxItem, OutboxResolution } from '../../../../src-shared/workspaces.ts'
import { conflictDraft, conflictRegions, hasConflictMarkers, syncOutcome, type ConflictRegion, type SyncTone } from './outbox.ts'
import { useResolveUnsent } from './queries.ts'
import classes from './Workspaces.module.css'

type Choice = 'mine' | 'theirs' | 'edit'

/** Lines of a stretch all versions agree on shown around a clash; the rest is folded. */
const CONTEXT_LINES = 2

/**
 * A held conflict: for each page both sides changed, the three versions where they clash (before, this
 * computer's, the server's) and a choice: keep mine, keep theirs, or edit the merged text (pages whose text
 * clashes). "Resolve and send" sends the write on the server's version the conflict showed.
 */
export function ConflictResolver({
  item,
  workspaceId,
  host,
  onOutcome
}: {
  item: OutboxItem
  workspaceId: string
  host: string
  onOutcome: (outcome: { text: string; tone: SyncTone }) => void
}) {
  const pages = item.conflict!.pages
  const resolve = useResolveUnsent(workspaceId)
  const [choices, setChoices] = useState<Record<string, Choice>>({})
  const [drafts, setDrafts] = useState<Record<string, string>>({})
  const unchosen = pages.filter((p) => !choices[p.page])
  const marked = pages.filter((p) => choices[p.page] === 'edit' && hasConflictMarkers(drafts[p.page] ?? ''))
  const submit = () => {
    const resolution: OutboxResolution = {
      pages: pages.map((p) =>
        choices[p.page] === 'edit'
          ? { page: p.page, markdown: drafts[p.page] ?? '' }
          : { page: p.page, keep: choices[p.page] as 'mine' | 'theirs' }
      )
    }
    resolve.mutate({ seq: item.seq, resolution }, { onSuccess: (result) => onOutcome(syncOutcome(result, host)) })
  }
  return (
    <Stack gap="sm" className={classes.conflict} data-testid="unsent-conflict">
      <Text size="sm" className={classes.outboxNotice} data-tone="conflict" data-testid="unsent-conflict-message">
        {host} has changes in the same place{pages.length > 1 ? 's' : ''}: {item.conflict!.message}. Choose what to keep.
      </Text>
      {pages.map((page) => (
        <ConflictPageChoice
          key={page.page}
          page={page}
          host={host}
          choice={choices[page.page]}
          draft={drafts[page.page]}
          onChoice={(choice, draft) => {
            setChoices((c) => ({ ...c, [page.page]: choice }))
            if (draft !== undefined) setDrafts((d) => (page.page in d ? d : { ...d, [page.page]: draft }))
          }}
          onDraft={(text) => setDrafts((d) => ({ ...d, [page.page]: text }))}
        />
      ))}
      <Group gap="sm" justify="flex-end">
        {(unchosen.length > 0 || marked.length > 0) && (
          <Text size="xs" c="dimmed" data-testid="unsent-conflict-hint">
            {unchosen.length > 0
              ? `Choose for ${unchosen.length === 1 ? `“${unchosen[0]!.title}”` : `${unchosen.length} pages`}`
              : `Remove the <<<<<<< ======= >>>>>>> lines from “${marked[0]!.title}” once you chose`}
          </Text>
        )}
        <Button
          size="compact-sm"
          loading={resolve.isPending}
          disabled={unchosen.length > 0 || marked.length > 0}
          onClick={submit}
          data-testid="unsent-resolve"
        >
          Resolve and send
        </Button>
      </Group>
    </Stack>
  )
}

function ConflictPageChoice({
  page,
  host,
  choice,
  draft,
  onChoice,
  onDraft
}: {
  page: OutboxConflictPage
  host: string
  choice: Choice | undefined
  draft: string | undefined
  onChoice: (choice: Choice, draft?: string) => void
  onDraft: (text: string) => void
}) {
  const regions = useMemo(() => conflictRegions(page.base, page.mine, page.theirs), [page])
  const options = [
    { label: 'Keep mine', value: 'mine' },
    { label: 'Keep theirs', value: 'theirs' },
    ...(page.kind === 'text' ? [{ label: 'Edit merged text', value: 'edit' }] : [])
  ]
  return (
    <div className={classes.conflictPage} data-testid="unsent-conflict-page" data-page={page.page}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {page.title}
          {page.kind === 'page' && (
            <Text span size="xs" c="dimmed">
              {' '}
              · {page.theirs === '' ? 'removed on the server' : 'renamed, moved or changed otherwise on the server'}
            </Text>
          )}
        </Text>
        <SegmentedControl
          size="xs"
          data={options}
          value={choice ?? ''}
          onChange={(value) => onChoice(value as Choice, value === 'edit' ? conflictDraft(regions) : undefined)}
          aria-label={`What to keep of “${page.title}”`}
          data-testid="unsent-conflict-choice"
        />
      </Group>
      {choice === 'edit' ? (
        <Textarea
          value={draft ?? ''}
          onChange={(e) => onDraft(e.currentTarget.value)}
          autosize
          minRows={6}
          maxRows={18}
          spellCheck={false}
          classNames={{ input: classes.conflictEditor }}
          aria-label={`Merged text of “${page.title}”`}
          data-testid="unsent-conflict-editor"
        />
      ) : (
        <ConflictView regions={regions} host={host} />
      )}
    </div>
  )
}

/** The page line by line: folded where all agree, and each clash as three columns. */
function ConflictView({ regions, host }: { regions: ConflictRegion[]; host: string }) {
  return (
    <div className={classes.conflictView} data-testid="unsent-conflict-view">
      {regions.map((region, i) =>
        'same' in region ? (
          <SameLines key={i} lines={region.same} first={i === 0} last={i === regions.length - 1} />
        ) : (
          <div key={i} className={classes.conflictClash} data-testid="unsent-conflict-clash">
            <Version label="Before" lines={region.base} tone="base" />
            <Version label="This computer" lines={region.mine} tone="mine" />
            <Version label={host} lines={region.theirs} tone="theirs" />
          </div>
        )
      )}
    </div>
  )
}

function SameLines({ lines, first, last }: { lines: string[]; first: boolean; last: boolean }) {
  // Folded only where that hides more than a line or two.
  const short = lines.length <= 2 * CONTEXT_LINES + 2
  const head = short ? lines : first ? [] : lines.slice(0, CONTEXT_LINES)
  const tail = short ? [] : last ? [] : lines.slice(Math.max(head.length, lines.length - CONTEXT_LINES))
  const folded = lines.length - head.length - tail.length
  return (
    <div className={classes.conflictSame}>
      {head.map((line, i) => (
        <div key={`h${i}`}>{line || '\u00a0'}</div>
      ))}
      {folded > 0 && <div className={classes.conflictFold}>{folded === 1 ? '1 line the same' : `${folded} lines the same`}</div>}
      {tail.map((line, i) => (
        <div key={`t${i}`}>{line || '\u00a0'}</div>
      ))}
    </div>
  )
}

function Version({ label, lines, tone }: { label: string; lines: string[]; tone: 'base' | 'mine' | 'theirs' }) {
  return (
    <div className={classes.conflictVersion} data-tone={tone}>
      <div className={classes.conflictLabel}>{label}</div>
      {lines.length ? lines.map((line, i) => <div key={i}>{line || '\u00a0'}</div>) : <div className={classes.conflictFold}>(nothing)</div>}
    </div>
  )
}
