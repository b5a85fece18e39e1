import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react'
import { Alert, Badge, Button, EmptyState, Group, Skeleton, Stack, Text, TextInput, Title, useComputedColorScheme } from '@mantine/core'
import { IconAlertTriangle, IconArrowLeft, IconCheck, IconGitMerge, IconPencil } from '@tabler/icons-react'
import { useQueries, useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { basicSetup } from 'codemirror'
import { markdown } from '@codemirror/lang-markdown'
import { Compartment, EditorState, RangeSetBuilder } from '@codemirror/state'
import { Decoration, EditorView, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view'
import { ApiError } from '../../api/client.ts'
import { useReportAppState } from '../../app/appState.ts'
import { notifySuccess } from '../../app/notify.ts'
import { appEditorTheme, shadowMount } from '../common/codemirror.ts'
import { RouterAnchor } from '../common/links.tsx'
import { spaceQuery } from '../content/queries.ts'
import { conflictAdvice, pages, type PageChange, type Resolution } from './changes.ts'
import { blockReplacement, conflictBlocks, MARKERS, mergeChunks, withMarkers, type Choice, type ConflictBlock } from './mergeHunks.ts'
import { isActive } from './moves.ts'
import type { LoadedPage } from '../pages/queries.ts'
import { changeRequestChangesQuery, changeRequestQuery, mainPageQuery, useUpdateFromMain } from './queries.ts'
import classes from './MergeEditor.module.css'

/** One conflicting page being resolved: its result text (with markers until resolved) and title. */
interface Draft {
  text: string
  /** Set when both renamed the page: the title to keep. */
  title?: string
  resolved: boolean
}

interface Resolvable {
  change: PageChange
  main: LoadedPage
  titleConflict: boolean
}

const CHOICES: { choice: Choice; label: string }[] = [
  { choice: 'main', label: 'Accept main' },
  { choice: 'changeRequest', label: 'Accept change request' },
  { choice: 'both', label: 'Accept both' }
]

/**
 * The merge editor of a change request (`…/change-requests/$number/merge`): each page that conflicts with main,
 * its conflicts side by side (main, the merge base, the change request) with a choice per conflict, the result
 * free to edit, and "Mark resolved" per page; "Update with resolutions" pulls main in with the pages as resolved
 * (`POST …/update` `resolutions`), after which the change request merges.
 */
export function MergeEditorScreen({ spaceId, number }: { spaceId: string; number: string }) {
  const { data: cr } = useSuspenseQuery(changeRequestQuery(spaceId, number))
  const { data: changes } = useSuspenseQuery(changeRequestChangesQuery(spaceId, number))
  const space = useQuery(spaceQuery(spaceId)).data
  const navigate = useNavigate()
  const update = useUpdateFromMain(spaceId, number)
  const [drafts, setDrafts] = useState<Record<string, Draft>>({})
  const [stillConflicting, setStillConflicting] = useState<number | null>(null)

  // One entry per conflicting page: its edit when it has one (a page both edited and moved is one page).
  const conflicting = useMemo(() => {
    const byPage = new Map<string, PageChange>()
    for (const c of changes) if (c.conflict && (!byPage.has(c.page.id) || c.type === 'page_edited')) byPage.set(c.page.id, c)
    return [...byPage.values()]
  }, [changes])
  const edited = conflicting.filter((c) => c.type === 'page_edited')
  const mains = useQueries({ queries: edited.map((c) => ({ ...mainPageQuery(spaceId, c.page.id), retry: false })) })
  const loading = mains.some((q) => q.isPending)
  useReportAppState(loading ? 'loading' : 'ready')

  const resolvable: Resolvable[] = []
  const elsewhere: { change: PageChange; advice: string }[] = []
  edited.forEach((change, i) => {
    const main = mains[i]!
    if (main.data) {
      const [base, mine, theirs] = [change.before?.title, change.after?.title, main.data.title]
      resolvable.push({ change, main: main.data, titleConflict: base !== mine && base !== theirs && mine !== theirs })
    } else if (main.error instanceof ApiError && main.error.status === 404) {
      elsewhere.push({ change, advice: conflictAdvice(change, undefined, { exists: false }) })
    }
  })
  for (const change of conflicting)
    if (change.type !== 'page_edited') elsewhere.push({ change, advice: conflictAdvice(change, undefined, { exists: true }) })

  const resolvedCount = resolvable.filter((r) => drafts[r.change.page.id]?.resolved).length
  const ready = !loading && resolvable.length > 0 && resolvedCount === resolvable.length && elsewhere.length === 0
  const canEdit = (space?.permissions.edit ?? false) && isActive(cr.status)

  const submit = () => {
    const resolutions: Resolution[] = resolvable.map(({ change, titleConflict }) => {
      const draft = drafts[change.page.id]!
      return { page: change.page.id, document: { markdown: draft.text }, ...(titleConflict && draft.title ? { title: draft.title } : {}) }
    })
    setStillConflicting(null)
    // Written against main as each page was read and the change request as shown: an update after either moved
    // on is refused (412) rather than replacing what changed meanwhile.
    const against = [...new Set([cr.revision, ...resolvable.map((r) => r.main.readAt).filter((r): r is string => !!r)])]
    update.mutate(
      { resolutions, against },
      {
        onSuccess: (result) => {
          if (result.result === 'conflicts') return setStillConflicting(result.conflicts?.length ?? 0)
          notifySuccess(`Conflicts resolved: #${cr.number} is up to date with main`)
          void navigate({ to: '/spaces/$spaceId/change-requests/$number', params: { spaceId, number }, search: {} })
        }
      }
    )
  }

  return (
    <Stack gap="md" data-testid="merge-editor">
      <RouterAnchor
        to="/spaces/$spaceId/change-requests/$number"
        params={{ spaceId, number }}
        search={{}}
        size="sm"
        c="dimmed"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, alignSelf: 'flex-start' }}
        data-testid="back-to-change-request"
      >
        <IconArrowLeft size={14} /> #{cr.number} {cr.subject || 'Untitled change request'}
      </RouterAnchor>
      <div>
        <Title order={3}>Resolve conflicts with main</Title>
        <Text size="sm" c="dimmed" maw={760}>
          For each conflict, keep main’s lines, the change request’s, or both, or write the result yourself. Mark each page resolved, then
          update: main’s changes come into the change request with these pages as resolved here, and it can be merged.
        </Text>
      </div>

      {!canEdit && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="merge-read-only">
          {isActive(cr.status)
            ? 'Your role on this space does not allow editing this change request.'
            : 'This change request is no longer open: there is nothing to resolve.'}
        </Alert>
      )}
      {stillConflicting !== null && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="Main changed again"
          data-testid="merge-still-conflicting"
        >
          Nothing was changed: main moved on while these pages were resolved, and {pages(stillConflicting)} still{' '}
          {stillConflicting === 1 ? 'conflicts' : 'conflict'}. Reload this screen to resolve against main as it is now.
        </Alert>
      )}

      {conflicting.length === 0 ? (
        <EmptyState
          mt={40}
          icon={<IconCheck size={28} stroke={1.6} />}
          withIndicatorBackground
          title="No conflicts"
          description={
            cr.outdated
              ? 'Main has changed, but nothing conflicts: Update from main pulls it in as it is.'
              : 'This change request does not conflict with main.'
          }
          data-testid="merge-no-conflicts"
        />
      ) : (
        <>
          {elsewhere.map(({ change, advice }) => (
            <Alert
              key={change.page.id}
              color="red"
              variant="light"
              icon={<IconAlertTriangle size={18} />}
              title={change.page.title || 'Untitled page'}
              data-testid="merge-elsewhere"
            >
              {advice} This kind of conflict is settled in the editor, not here.
            </Alert>
          ))}
          {edited.map((change, i) => {
            const r = resolvable.find((x) => x.change === change)
            if (!r) return mains[i]!.isPending ? <Skeleton key={change.page.id} height={220} radius="md" /> : null
            return (
              <PageMerge
                key={change.page.id}
                item={r}
                draft={drafts[change.page.id]}
                readOnly={!canEdit}
                onDraft={(d) => setDrafts((all) => ({ ...all, [change.page.id]: d }))}
              />
            )
          })}
          {/* Stays in view at the bottom of the window while the pages scroll past. */}
          <div className={classes.actions} data-testid="merge-actions">
            <Text size="sm" c="dimmed" data-testid="merge-progress">
              {resolvedCount} of {pages(resolvable.length + elsewhere.length)} resolved
            </Text>
            <Button
              leftSection={<IconGitMerge size={16} />}
              disabled={!ready || !canEdit}
              loading={update.isPending}
              onClick={submit}
              data-testid="update-with-resolutions"
            >
              Update with resolutions
            </Button>
          </div>
        </>
      )}
    </Stack>
  )
}

/** One conflicting page: its conflicts with their choices, the result, and Mark resolved. */
function PageMerge({
  item,
  draft,
  readOnly,
  onDraft
}: {
  item: Resolvable
  draft: Draft | undefined
  readOnly: boolean
  onDraft(d: Draft): void
}) {
  const { change, main, titleConflict } = item
  // Made once: the result editor holds this text from then on, whatever a refetch of main brings meanwhile.
  const [start] = useState<Draft>(() => ({
    text: withMarkers(mergeChunks(change.before?.markdown ?? '', main.markdown ?? '', change.after?.markdown ?? '')),
    ...(titleConflict ? { title: change.after?.title ?? '' } : {}),
    resolved: false
  }))
  const current = draft ?? start
  const editor = useRef<EditorView | null>(null)
  const blocks = conflictBlocks(current.text)
  const titleMissing = titleConflict && !current.title?.trim()
  const title = change.page.title || 'Untitled page'

  const choose = (block: ConflictBlock, choice: Choice) => {
    const view = editor.current
    if (!view) return
    view.dispatch({ changes: blockReplacement(block, choice), userEvent: 'input.merge' })
  }

  return (
    <section
      className={classes.page}
      aria-label={title}
      data-resolved={current.resolved || undefined}
      data-testid="merge-page"
      data-page={change.page.id}
    >
      <div className={classes.pageHead}>
        <div style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {title}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {change.page.path}
          </Text>
        </div>
        {current.resolved ? (
          <Badge color="green" variant="light" leftSection={<IconCheck size={12} />} data-testid="merge-page-status">
            Resolved
          </Badge>
        ) : (
          <Badge color="red" variant="light" data-testid="merge-page-status">
            {blocks.length ? `${blocks.length} ${blocks.length === 1 ? 'conflict' : 'conflicts'}` : 'Ready to mark resolved'}
          </Badge>
        )}
      </div>
      <Stack gap="sm" className={classes.pageBody}>
        {titleConflict && (
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              label="Title"
              description={`Main: “${main.title}” · change request: “${change.after?.title ?? ''}”`}
              value={current.title ?? ''}
              onChange={(e) => onDraft({ ...current, title: e.currentTarget.value })}
              disabled={current.resolved || readOnly}
              error={titleMissing ? 'A page needs a title' : undefined}
              style={{ flex: 1, minWidth: 260 }}
              data-testid="merge-title"
            />
            <Button variant="default" disabled={current.resolved || readOnly} onClick={() => onDraft({ ...current, title: main.title })}>
              Main’s title
            </Button>
            <Button
              variant="default"
              disabled={current.resolved || readOnly}
              onClick={() => onDraft({ ...current, title: change.after?.title ?? '' })}
            >
              Change request’s title
            </Button>
          </Group>
        )}
        {blocks.map((block, i) => (
          <div
            key={`${i}:${block.from}`}
            className={classes.hunk}
            role="group"
            aria-label={`Conflict ${i + 1} of ${blocks.length}`}
            data-testid="merge-hunk"
          >
            <div className={classes.sides}>
              <HunkSide side="main" label="Main" lines={block.main} />
              <HunkSide side="base" label="Before both (merge base)" lines={block.base} />
              <HunkSide side="changeRequest" label="Change request" lines={block.changeRequest} />
            </div>
            {!readOnly && !current.resolved && (
              <div className={classes.choices}>
                {CHOICES.map(({ choice, label }) => (
                  <Button key={choice} size="compact-sm" variant="default" onClick={() => choose(block, choice)}>
                    {label}
                  </Button>
                ))}
              </div>
            )}
          </div>
        ))}
        <div>
          <Text size="sm" fw={500} mb={4}>
            Result
          </Text>
          <ResultEditor
            text={current.text}
            label={`Result of ${title}`}
            readOnly={readOnly || current.resolved}
            onView={(view) => (editor.current = view)}
            onChange={(text) => onDraft({ ...current, text, resolved: false })}
          />
        </div>
        <Group justify="space-between" gap="sm">
          <Text size="xs" c="dimmed">
            {current.resolved
              ? 'This page takes the result above.'
              : blocks.length
                ? `Resolve each conflict above or edit the result: the conflict markers (${MARKERS.main} … ${MARKERS.end}) must go.`
                : 'No conflict markers left.'}
          </Text>
          {!readOnly &&
            (current.resolved ? (
              <Button
                size="compact-sm"
                variant="default"
                leftSection={<IconPencil size={14} />}
                onClick={() => onDraft({ ...current, resolved: false })}
              >
                Edit again
              </Button>
            ) : (
              <Button
                size="compact-sm"
                leftSection={<IconCheck size={14} />}
                disabled={blocks.length > 0 || titleMissing}
                onClick={() => onDraft({ ...current, resolved: true })}
              >
                Mark resolved
              </Button>
            ))}
        </Group>
      </Stack>
    </section>
  )
}

function HunkSide({ side, label, lines }: { side: string; label: string; lines: string[] }) {
  return (
    <div className={classes.side} data-side={side}>
      <div className={classes.sideLabel}>{label}</div>
      <pre className={classes.sideText} data-testid={`merge-hunk-${side}`}>
        {lines.length ? lines.join('\n') : <span className={classes.empty}>(no lines)</span>}
      </pre>
    </div>
  )
}

const markerLine = Decoration.line({ class: 'cm-merge-marker' })
const sideLine = {
  main: Decoration.line({ class: 'cm-merge-main' }),
  base: Decoration.line({ class: 'cm-merge-base' }),
  changeRequest: Decoration.line({ class: 'cm-merge-cr' })
}

/** Tints the conflict blocks still in the result: markers, main's lines, the base's, the change request's. */
function conflictTints(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>()
  const doc = view.state.doc
  for (const block of conflictBlocks(doc.toString())) {
    let part: keyof typeof sideLine = 'main'
    for (let n = doc.lineAt(block.from).number; n <= doc.lineAt(block.to).number; n++) {
      const line = doc.line(n)
      const marker =
        line.text === MARKERS.main || line.text === MARKERS.base || line.text === MARKERS.changeRequest || line.text === MARKERS.end
      if (line.text === MARKERS.base) part = 'base'
      else if (line.text === MARKERS.changeRequest) part = 'changeRequest'
      builder.add(line.from, line.from, marker ? markerLine : sideLine[part])
    }
  }
  return builder.finish()
}

const tints = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet
    constructor(view: EditorView) {
      this.decorations = conflictTints(view)
    }
    update(u: ViewUpdate) {
      if (u.docChanged) this.decorations = conflictTints(u.view)
    }
  },
  { decorations: (v) => v.decorations }
)

/** The result of one page: CodeMirror (through shadowMount), markdown, conflict blocks tinted. */
function ResultEditor({
  text,
  label,
  readOnly,
  onView,
  onChange
}: {
  text: string
  label: string
  readOnly: boolean
  onView(v: EditorView | null): void
  onChange(text: string): void
}) {
  const host = useRef<HTMLDivElement>(null)
  const dark = useComputedColorScheme('light') === 'dark'
  const view = useRef<EditorView | null>(null)
  const editable = useRef(new Compartment())
  const latest = useRef({ onChange, text })
  latest.current = { onChange, text }
  // The view is made once per page and theme; the text then lives in it and readOnly follows below, so the
  // mount reads both, and tells the latest `onView`, without depending on them.
  const startsReadOnly = useEffectEvent(() => readOnly)
  const viewMade = useEffectEvent((v: EditorView | null) => onView(v))

  useEffect(() => {
    const readOnly = startsReadOnly()
    const { root, container, dispose } = shadowMount(host.current!)
    const v = new EditorView({
      root,
      parent: container,
      doc: latest.current.text,
      extensions: [
        basicSetup,
        markdown(),
        EditorView.lineWrapping,
        editable.current.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.editorAttributes.of({ 'data-testid': 'merge-result' }),
        tints,
        appEditorTheme,
        EditorView.theme(
          {
            '&': { fontSize: '13px', maxHeight: '460px' },
            '.cm-scroller': { overflow: 'auto' },
            '.cm-content': { padding: '6px 0' },
            '.cm-merge-marker': { backgroundColor: 'var(--app-hover-bg-strong)', color: 'var(--mantine-color-dimmed)', fontWeight: '600' },
            '.cm-merge-main': { backgroundColor: 'rgba(34, 139, 230, 0.1)' },
            '.cm-merge-base': { backgroundColor: 'rgba(134, 142, 150, 0.12)' },
            '.cm-merge-cr': { backgroundColor: 'rgba(46, 160, 67, 0.12)' }
          },
          { dark }
        ),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) latest.current.onChange(u.state.doc.toString())
        })
      ]
    })
    view.current = v
    viewMade(v)
    return () => {
      viewMade(null)
      view.current = null
      v.destroy()
      dispose()
    }
  }, [dark, label])

  useEffect(() => {
    view.current?.dispatch({
      effects: editable.current.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)])
    })
  }, [readOnly])

  return <div ref={host} className={classes.result} />
}
