import {
  useDeferredValue,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type DragEvent,
  type MouseEvent
} from 'react'
import { EditorView } from '@codemirror/view'
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  CloseButton,
  Group,
  Loader,
  Menu,
  Progress,
  SegmentedControl,
  Text,
  Tooltip
} from '@mantine/core'
import { modals } from '@mantine/modals'
import {
  IconAlertTriangle,
  IconCheck,
  IconCloudUpload,
  IconColumns2,
  IconDots,
  IconEye,
  IconFileTypePdf,
  IconGitBranch,
  IconGitPullRequest,
  IconLayoutSidebarLeftExpand,
  IconLink,
  IconLock,
  IconMaximize,
  IconMessageCircle,
  IconMinimize,
  IconPaperclip,
  IconPencil,
  IconPointFilled,
  IconRefresh,
  IconSend
} from '@tabler/icons-react'
import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { useBlocker, useLocation, useNavigate } from '@tanstack/react-router'
import type { ChangeRequest, ContentPage } from '../../api/types.ts'
import { MergeConflictNotice } from '../changeRequests/MergeConflictNotice.tsx'
import { UnlockButton } from '../spaceSettings/SpaceSettingsScreen.tsx'
import { notifyError, notifyInfo, notifySuccess } from '../../app/notify.ts'
import { PaneSeparator } from '../common/PaneSeparator.tsx'
import { useElementWidth } from '../common/useElementWidth.ts'
import { readFrontMatter } from './frontMatter.ts'
import { onPreviewClick } from './previewClicks.ts'
import { includeTargets } from './blockTagCompletion.ts'
import { InsertBlockMenu, InsertBlockSubmenu } from './InsertBlockMenu.tsx'
import { linkTargets } from './linkCompletion.ts'
import { MarkdownEditor } from './MarkdownEditor.tsx'
import { pageLinkContext, resolvePageLink } from './pageLinks.ts'
import { PageSettingsMenu } from './PageSettingsMenu.tsx'
import { renderMarkdown, sectionElementId, sectionLine, type PreviewFile, type PreviewIncludes } from './markdownPreview.ts'
import { openSession, type PageSession, type SessionSnapshot, type Upload } from './pageSession.ts'
import { usePagesUi, type EditorMode } from './pagesUiStore.ts'
import {
  changeRequestQuery,
  downloadPdf,
  filesQuery,
  pageQuery,
  pagesQuery,
  reusableContentsQuery,
  submitForReview,
  type ContentScope
} from './queries.ts'
import { TITLE_MAX } from './saveQueue.ts'
import classes from './PageEditor.module.css'
import { emojiText } from '../common/emoji.ts'

const MODE_ITEMS: { value: EditorMode; icon: React.ReactNode; text: string }[] = [
  { value: 'edit', icon: <IconPencil size={14} />, text: 'Edit' },
  { value: 'split', icon: <IconColumns2 size={14} />, text: 'Split' },
  { value: 'preview', icon: <IconEye size={14} />, text: 'Preview' }
]
const MODES = MODE_ITEMS.map((m) => ({ value: m.value, label: <ModeLabel icon={m.icon} text={m.text} /> }))
// Narrower: icons named by their tooltips (and by aria-label for assistive technology).
const ICON_MODES = MODE_ITEMS.map((m) => ({
  value: m.value,
  label: (
    <Tooltip label={m.text}>
      <span className={classes.modeLabel} aria-label={m.text}>
        {m.icon}
      </span>
    </Tooltip>
  )
}))

const MOD = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform) ? '⌘' : 'Ctrl'

/** What the Pages screen's pane layout gives the editor (`paneLayout.ts`): null for a pane not shown. */
export interface EditorPanes {
  editor: number | null
  preview: number | null
  previewLimits: [number, number]
  /** The preview dragged to `width` of a `body` px wide editor and preview. */
  onPreviewResize(width: number, body: number): void
}

function ModeLabel({ icon, text }: { icon: React.ReactNode; text: string }) {
  return (
    <span className={classes.modeLabel}>
      {icon}
      {text}
    </span>
  )
}

/**
 * The editor of one page: its title, a save bar that always says where edits go and whether they are saved,
 * the markdown (CodeMirror) with a live preview, and uploads. On main, the first write finds or opens a draft
 * change request and the address then moves there, the editor carrying on where it was.
 */
export function PageEditor({
  scope,
  pageId,
  readOnly,
  panes,
  onToggleTree,
  treeOverlay = false
}: {
  scope: ContentScope
  pageId: string
  readOnly: string | null
  panes: EditorPanes
  /** Shows or hides the page tree over the editor, when it gave way for want of room. */
  onToggleTree?: () => void
  treeOverlay?: boolean
}) {
  const client = useQueryClient()
  const navigate = useNavigate()
  const { spaceId } = scope
  const { data: page } = useSuspenseQuery(pageQuery(scope, pageId))
  const [session] = useState(() =>
    openSession(client, scope, pageId, () => ({ title: page.title, markdown: page.markdown ?? '', readAt: page.readAt }))
  )
  useEffect(() => {
    session.retain()
    return () => session.release()
  }, [session])
  const snap = useSyncExternalStore(session.subscribe, session.snapshot)
  const target = snap.target
  const cr = useQuery({ ...changeRequestQuery(spaceId, target ?? 0), enabled: target !== undefined }).data
  const filesScope: ContentScope = { spaceId, changeRequest: target }
  const files = useQuery(filesQuery(filesScope)).data
  // The pages and files a link may point at, from where the edits go (a draft's new pages and uploads too).
  const treeForLinks = useQuery(pagesQuery(filesScope)).data
  const targets = useMemo(() => linkTargets(treeForLinks ?? [], files ?? [], pageId), [treeForLinks, files, pageId])
  const linkContext = useMemo(() => pageLinkContext(treeForLinks ?? [], pageId), [treeForLinks, pageId])
  // The page's slug, path and emoji as the tree of where the edits go has them now (a saved title moves a slug
  // that follows it; the tree is read again after such a save).
  const settingsPage = useMemo(() => {
    const inTree = treeForLinks && findPage(treeForLinks, pageId)
    return inTree ? { id: pageId, slug: inTree.slug, path: inTree.path, emoji: inTree.emoji } : page
  }, [treeForLinks, pageId, page])
  // Reusable contents are read only for a page that includes one, or when the tag completion offers them.
  const includesSome = snap.fields.markdown.includes('{% include')
  const reusable = useQuery({ ...reusableContentsQuery(filesScope), enabled: includesSome }).data
  const pagePath = page.git?.path
  const includes = useMemo<PreviewIncludes | undefined>(() => reusable && { contents: reusable, pagePath }, [reusable, pagePath])
  const includeChoices = () =>
    client.ensureQueryData(reusableContentsQuery(filesScope)).then((contents) => includeTargets(contents, pagePath))
  // A link to a page of the space opens it here, in the same scope (at its heading when the link names one).
  const openLinkedPage = (href: string): boolean => {
    const found = resolvePageLink(href, linkContext)
    if (!found) return false
    if ('missing' in found) {
      notifyInfo(`No page at “${found.missing}”: this link is broken.`)
      return true
    }
    const number = target ?? scope.changeRequest
    const params = { spaceId, pageId: found.pageId }
    if (number === undefined) void navigate({ to: '/spaces/$spaceId/pages/$pageId', params, hash: found.section })
    else
      void navigate({
        to: '/spaces/$spaceId/change-requests/$number/pages/$pageId',
        params: { ...params, number: String(number) },
        hash: found.section
      })
    return true
  }
  const mode = usePagesUi((s) => s.mode)
  const setMode = usePagesUi((s) => s.setMode)
  const commentsOpen = usePagesUi((s) => s.commentsOpen)
  const toggleComments = usePagesUi((s) => s.toggleComments)
  const focus = usePagesUi((s) => s.focus)
  const setFocus = usePagesUi((s) => s.setFocus)
  const editable = readOnly === null

  // On main, once the first write landed in the change request, show the page there (same editor state). Only the
  // landing starts it (an effect event reads where the editor is then).
  const showInChangeRequest = useEffectEvent((target: number) => {
    if (scope.changeRequest !== undefined) return
    const crScope = { spaceId, changeRequest: target }
    void Promise.all([client.prefetchQuery(pagesQuery(crScope)), client.prefetchQuery(pageQuery(crScope, pageId))]).then(() =>
      navigate({
        to: '/spaces/$spaceId/change-requests/$number/pages/$pageId',
        params: { spaceId, number: String(target), pageId },
        replace: true,
        ignoreBlocker: true,
        resetScroll: false
      })
    )
  })
  useEffect(() => {
    if (snap.landed && target !== undefined) showInChangeRequest(target)
  }, [snap.landed, target])

  // Leaving writes what is not saved yet; only a write that fails asks before going.
  useBlocker({
    shouldBlockFn: async () => {
      for (let i = 0; i < 3 && session.queue.dirty; i++) {
        if (await session.queue.flush()) return false
        if (session.queue.snapshot().status === 'failed') break
      }
      if (!session.queue.dirty) return false
      return !(await confirmLeave(session.queue.snapshot().error))
    },
    enableBeforeUnload: () => session.queue.dirty,
    withResolver: false
  })

  // A page just created in the tree opens with its title selected.
  const titleRef = useRef<HTMLInputElement>(null)
  useLayoutEffect(() => {
    const ui = usePagesUi.getState()
    if (ui.focusTitleOf !== pageId) return
    ui.setFocusTitleOf(null)
    titleRef.current?.focus()
    titleRef.current?.select()
  }, [pageId])

  const save = () => void session.queue.flush()
  const upload = (list: File[], pos?: number) => {
    if (editable && list.length) void session.upload(list, pos)
  }

  // Files dropped anywhere on the editor (CodeMirror handles drops on the text itself).
  const [dragOver, setDragOver] = useState(false)
  const dragDepth = useRef(0)
  const hasFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files')
  const dropProps = {
    onDragEnter: (e: DragEvent) => {
      if (!hasFiles(e) || !editable) return
      dragDepth.current += 1
      setDragOver(true)
    },
    onDragLeave: (e: DragEvent) => {
      if (!hasFiles(e)) return
      dragDepth.current = Math.max(0, dragDepth.current - 1)
      if (dragDepth.current === 0) setDragOver(false)
    },
    onDragOver: (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault()
    },
    onDrop: (e: DragEvent) => {
      dragDepth.current = 0
      setDragOver(false)
      if (!hasFiles(e)) return
      // CodeMirror already took a drop on the text itself (and prevented its default).
      const taken = e.defaultPrevented
      e.preventDefault()
      if (!taken) upload(Array.from(e.dataTransfer.files))
    }
  }

  const previewRef = useRef<HTMLDivElement>(null)
  const jumpedAt = useRef(-Infinity)
  const onScroll = (ratio: number) => {
    const p = previewRef.current
    // Right after a jump to a section each pane is placed at its heading; the editor's scroll must not move the preview.
    if (p && panes.editor !== null && panes.preview !== null && performance.now() - jumpedAt.current > JUMP_SETTLE_MS)
      p.scrollTop = ratio * (p.scrollHeight - p.clientHeight)
  }

  // The address's `#section` (a search result's section): the cursor goes to that heading and both panes show it,
  // once per arrival (a navigation), so editing afterwards never pulls the view back.
  const arrival = useLocation({ select: (l) => `${l.state.__TSR_key ?? ''}#${l.hash}` })
  const jump = useEffectEvent((section: string) => {
    jumpedAt.current = performance.now()
    jumpToSection(session.view, previewRef.current, section)
  })
  useEffect(() => {
    const section = arrival.slice(arrival.indexOf('#') + 1)
    if (!section) return
    const frame = requestAnimationFrame(() => jump(section))
    return () => cancelAnimationFrame(frame)
  }, [arrival])

  const [header, setHeader] = useState<HTMLDivElement | null>(null)
  const tier = toolbarTier(useElementWidth(header))
  const previewShown = panes.preview !== null
  const sourceShown = panes.editor !== null
  const bodyRef = useRef<HTMLDivElement>(null)

  const uploadButton = editable && (
    <>
      <input
        id={`upload-${pageId}`}
        type="file"
        multiple
        className={classes.fileInput}
        data-testid="upload-input"
        onChange={(e) => {
          upload(Array.from(e.currentTarget.files ?? []))
          e.currentTarget.value = ''
        }}
      />
      {tier !== 'narrow' && tier !== 'tiny' && (
        <Tooltip label="Upload images or files (at most 1 MB each); you can also drop or paste them">
          {tier === 'full' ? (
            <Button
              component="label"
              htmlFor={`upload-${pageId}`}
              size="compact-sm"
              variant="default"
              leftSection={<IconPaperclip size={14} />}
              data-testid="upload-button"
            >
              Upload
            </Button>
          ) : (
            <ActionIcon
              component="label"
              htmlFor={`upload-${pageId}`}
              variant="default"
              size={28}
              aria-label="Upload"
              data-testid="upload-button"
            >
              <IconPaperclip size={16} />
            </ActionIcon>
          )}
        </Tooltip>
      )}
    </>
  )
  const pdfSave = async (): Promise<ContentScope> => {
    // After the save: the first edit on main lands in a draft change request, which then holds the page.
    await session.queue.flush()
    return { spaceId, changeRequest: session.snapshot().target ?? scope.changeRequest }
  }
  const canInsert = editable && page.type === 'document'
  const modeControl = (
    <SegmentedControl
      size="xs"
      value={mode}
      onChange={(v) => setMode(v as EditorMode)}
      data={tier === 'full' ? MODES : ICON_MODES}
      data-testid="editor-mode"
      aria-label="Editor layout"
      className={classes.modes}
    />
  )

  return (
    <div
      className={classes.editor}
      data-testid="page-editor"
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
          e.preventDefault()
          save()
        }
      }}
      {...dropProps}
    >
      {/* One line: the tree (when it gave way), the title, where edits go and whether they are saved, the actions. */}
      <div ref={setHeader} className={classes.header} data-testid="editor-header" data-tier={tier}>
        {onToggleTree && (
          <Tooltip label={treeOverlay ? 'Hide pages' : 'Show pages'}>
            <ActionIcon
              variant={treeOverlay ? 'light' : 'subtle'}
              size={28}
              aria-label="Pages"
              aria-pressed={treeOverlay}
              onClick={onToggleTree}
              data-testid="show-tree"
            >
              <IconLayoutSidebarLeftExpand size={16} />
            </ActionIcon>
          </Tooltip>
        )}
        {page.emoji && <span className={classes.titleEmoji}>{emojiText(page.emoji)}</span>}
        <input
          ref={titleRef}
          className={classes.title}
          value={snap.fields.title}
          placeholder="Page title"
          aria-label="Page title"
          aria-invalid={snap.save.titleInvalid || undefined}
          maxLength={TITLE_MAX + 20}
          readOnly={!editable}
          data-testid="page-title-input"
          onChange={(e) => session.edit({ title: e.currentTarget.value })}
          onBlur={save}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              session.view?.focus()
            }
          }}
        />
        <SaveState scope={scope} snap={snap} cr={cr} editable={editable} session={session} short={tier === 'narrow' || tier === 'tiny'} />
        <div className={classes.actions} role="toolbar" aria-label="Page actions">
          {uploadButton}
          {canInsert && (tier === 'full' || tier === 'icons') && (
            <InsertBlockMenu session={session} scope={filesScope} pagePath={pagePath} iconOnly={tier !== 'full'} />
          )}
          {page.type === 'link' && page.href && tier === 'full' && (
            <Badge variant="light" color="gray" leftSection={<IconLink size={12} />} className={classes.linkBadge}>
              Link to {page.href}
            </Badge>
          )}
          {tier !== 'tiny' && modeControl}
          {page.type === 'document' && (
            <PageSettingsMenu
              page={settingsPage}
              markdown={snap.fields.markdown}
              files={files}
              disabled={!editable}
              onChange={(next) => session.rewrite(next)}
              onSaveFields={(fields) => session.saveFields(fields)}
            />
          )}
          {(tier === 'full' || tier === 'icons') && <PdfMenu pageId={pageId} save={pdfSave} />}
          <Tooltip label={commentsOpen ? 'Hide comments' : 'Show comments'}>
            <ActionIcon
              variant={commentsOpen ? 'light' : 'default'}
              size={28}
              aria-label="Comments"
              aria-pressed={commentsOpen}
              onClick={toggleComments}
              data-testid="toggle-comments"
            >
              <IconMessageCircle size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={`${focus ? 'Leave focus mode (Esc)' : 'Focus mode'} (${MOD}+Shift+Enter)`}>
            <ActionIcon
              variant={focus ? 'light' : 'default'}
              size={28}
              aria-label="Focus mode"
              aria-pressed={focus}
              onClick={() => setFocus(!focus)}
              data-testid="focus-mode"
            >
              {focus ? <IconMinimize size={16} /> : <IconMaximize size={16} />}
            </ActionIcon>
          </Tooltip>
          {(tier === 'narrow' || tier === 'tiny') && (
            <MoreMenu
              pageId={pageId}
              uploadFor={editable ? `upload-${pageId}` : undefined}
              insert={canInsert ? { session, scope: filesScope, pagePath } : undefined}
              mode={tier === 'tiny' ? { value: mode, set: setMode } : undefined}
              pdfSave={pdfSave}
            />
          )}
        </div>
      </div>
      {/* A refused write stays on screen while another save runs (moving to the button saves on blur). */}
      {(snap.save.status === 'failed' || snap.stale) && (
        <SaveFailure
          error={snap.save.error}
          onRetry={save}
          stale={
            snap.stale
              ? { keepMine: () => void session.keepMine(), useTheirs: () => void session.useTheirs().catch((e: unknown) => notifyError(e)) }
              : undefined
          }
        />
      )}
      {readOnly && (
        <Alert
          color="orange"
          variant="light"
          radius={0}
          icon={<IconLock size={18} />}
          className={classes.banner}
          data-testid="read-only-banner"
        >
          <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
            <span style={{ flex: 1, minWidth: 0 }}>{readOnly}</span>
            <UnlockButton spaceId={spaceId} />
          </div>
        </Alert>
      )}
      {cr && <MergeConflictNotice spaceId={spaceId} cr={cr} pageId={pageId} className={classes.banner} />}
      {snap.save.titleInvalid && editable && (
        <Text size="xs" c="red" className={classes.titleError} data-testid="page-title-error">
          A page needs a title of 1 to {TITLE_MAX} characters; the title is saved once it has one.
        </Text>
      )}
      {snap.uploads.length > 0 && <Uploads uploads={snap.uploads} onDismiss={(id) => session.dismissUpload(id)} />}
      <div ref={bodyRef} className={classes.body} data-source={sourceShown || undefined} data-preview={previewShown || undefined}>
        <div className={classes.source}>
          <MarkdownEditor
            session={session}
            readOnly={!editable}
            onSave={save}
            onFiles={upload}
            onScroll={onScroll}
            linkTargets={() => targets}
            includeTargets={includeChoices}
          />
        </div>
        {sourceShown && previewShown && (
          <PaneSeparator
            label="Resize preview"
            value={panes.preview!}
            limits={panes.previewLimits}
            growsRight={false}
            onResize={(width) => panes.onPreviewResize(width, (bodyRef.current?.clientWidth ?? 0) - 1)}
            testId="preview-separator"
          />
        )}
        {previewShown && (
          <Preview
            markdown={snap.fields.markdown}
            files={files}
            includes={includes}
            previewRef={previewRef}
            onPageLink={openLinkedPage}
            width={sourceShown ? panes.preview! : undefined}
          />
        )}
        {dragOver && (
          <div className={classes.dropOverlay} data-testid="drop-overlay">
            <IconCloudUpload size={28} stroke={1.6} />
            Drop to upload into this page
          </div>
        )}
      </div>
    </div>
  )
}

type ToolbarTier = 'full' | 'icons' | 'narrow' | 'tiny'

/**
 * How much of the toolbar fits the header's width: labels, then icons only, then Upload, Insert and PDF in the
 * More menu, then the layout switch too. Never a cut label.
 */
function toolbarTier(width: number): ToolbarTier {
  if (width === 0 || width >= 980) return 'full'
  if (width >= 700) return 'icons'
  if (width >= 560) return 'narrow'
  return 'tiny'
}

/** What the narrow toolbar leaves out: uploads, blocks, PDF and (narrowest) the layout switch. */
function MoreMenu({
  pageId,
  uploadFor,
  insert,
  mode,
  pdfSave
}: {
  pageId: string
  uploadFor?: string
  insert?: { session: PageSession; scope: ContentScope; pagePath?: string }
  mode?: { value: EditorMode; set(mode: EditorMode): void }
  pdfSave(): Promise<ContentScope>
}) {
  const pdf = useMutation({ mutationFn: async (only: boolean) => downloadPdf(await pdfSave(), { id: pageId, only }) })
  return (
    <Menu position="bottom-end" returnFocus={false}>
      <Menu.Target>
        <Tooltip label="More">
          <ActionIcon variant="default" size={28} aria-label="More" loading={pdf.isPending} data-testid="editor-more">
            <IconDots size={16} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown data-testid="editor-more-menu">
        {uploadFor && (
          <Menu.Item component="label" htmlFor={uploadFor} leftSection={<IconPaperclip size={14} />} data-testid="more-upload">
            Upload files…
          </Menu.Item>
        )}
        {insert && <InsertBlockSubmenu {...insert} />}
        {mode && (
          <>
            <Menu.Divider />
            <Menu.Label>Layout</Menu.Label>
            {MODE_ITEMS.map((m) => (
              <Menu.Item
                key={m.value}
                leftSection={m.icon}
                rightSection={mode.value === m.value ? <IconCheck size={14} /> : null}
                onClick={() => mode.set(m.value)}
              >
                {m.text}
              </Menu.Item>
            ))}
          </>
        )}
        <Menu.Divider />
        <Menu.Sub>
          <Menu.Sub.Target>
            <Menu.Sub.Item leftSection={<IconFileTypePdf size={14} />} data-testid="more-pdf">
              Export as PDF
            </Menu.Sub.Item>
          </Menu.Sub.Target>
          <Menu.Sub.Dropdown>
            <Menu.Item onClick={() => pdf.mutate(true)}>This page</Menu.Item>
            <Menu.Item onClick={() => pdf.mutate(false)}>This page and its subpages</Menu.Item>
          </Menu.Sub.Dropdown>
        </Menu.Sub>
      </Menu.Dropdown>
    </Menu>
  )
}

/**
 * The page as a PDF, alone or with its subpages, from where its edits are (the change request once the first
 * edit landed there); unsaved edits are saved first, so the PDF shows what the editor shows.
 */
function PdfMenu({ pageId, save }: { pageId: string; save(): Promise<ContentScope> }) {
  const pdf = useMutation({ mutationFn: async (only: boolean) => downloadPdf(await save(), { id: pageId, only }) })
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Tooltip label="Export as PDF">
          <ActionIcon variant="default" size={28} aria-label="Export as PDF" loading={pdf.isPending} data-testid="page-pdf-menu">
            <IconFileTypePdf size={16} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => pdf.mutate(true)} data-testid="page-pdf-only">
          This page
        </Menu.Item>
        <Menu.Item onClick={() => pdf.mutate(false)} data-testid="page-pdf-tree">
          This page and its subpages
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}

function findPage(pages: ContentPage[], id: string): ContentPage | undefined {
  for (const p of pages) {
    if (p.id === id) return p
    const found = findPage(p.pages ?? [], id)
    if (found) return found
  }
  return undefined
}

/** How long after a jump to a section the editor's scrolling leaves the preview where the jump put it. */
const JUMP_SETTLE_MS = 400

/** Puts the editor's cursor on a section's heading and scrolls both panes to it (the preview's heading flashes). */
function jumpToSection(view: EditorView | null, preview: HTMLElement | null, section: string) {
  if (view) {
    const line = sectionLine(view.state.doc.toString(), section)
    if (line !== undefined && line <= view.state.doc.lines) {
      const pos = view.state.doc.line(line).from
      view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'start', yMargin: 8 }) })
    }
  }
  const heading = preview?.querySelector<HTMLElement>(`#${CSS.escape(sectionElementId(section))}`)
  if (!preview || !heading) return
  // Only the preview scrolls (scrollIntoView would also move the window around the screen).
  preview.scrollTop += heading.getBoundingClientRect().top - preview.getBoundingClientRect().top - 8
  heading.dataset.flash = ''
  heading.addEventListener('animationend', () => delete heading.dataset.flash, { once: true })
}

function confirmLeave(error: string | null): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: 'Leave without saving?',
      children: (
        <Text size="sm">
          Your latest changes to this page could not be saved{error ? `: ${error}` : '.'} If you leave now, they are lost.
        </Text>
      ),
      labels: { confirm: 'Leave', cancel: 'Stay' },
      confirmProps: { color: 'red' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false)
    })
  })
}

// --- save bar ----------------------------------------------------------------------------------------------------
/**
 * Where edits go and whether they are saved, in the header's line: main or the change request (its subject, cut
 * to fit, whole in the tooltip; `short`: its number only), the save status, and Submit for review for a draft.
 */
function SaveState({
  scope,
  snap,
  cr,
  editable,
  session,
  short
}: {
  scope: ContentScope
  snap: SessionSnapshot
  cr: ChangeRequest | undefined
  editable: boolean
  session: PageSession
  short: boolean
}) {
  const client = useQueryClient()
  const { spaceId } = scope
  const number = snap.target
  const submit = useMutation({
    mutationFn: async () => {
      await session.queue.flush()
      return submitForReview(client, spaceId, number!)
    },
    onSuccess: (c) => notifySuccess(`Change request #${c.number} submitted for review`)
  })
  const whole =
    number === undefined
      ? `Editing main${editable ? ': your first edit starts a draft change request' : ''}`
      : `${crLabel(cr?.status)} #${number}${cr?.subject ? ` · ${cr.subject}` : ''}`
  return (
    <>
      <Tooltip label={whole} openDelay={500} multiline maw={360}>
        <div className={classes.branch} data-short={short || undefined} data-testid="save-target">
          {number === undefined ? (
            <>
              <IconGitBranch size={15} className={classes.branchIcon} />
              <Text size="sm" fw={500} className={classes.nowrap}>
                {short ? 'main' : 'Editing main'}
              </Text>
              {editable && !short && (
                <Text size="sm" c="dimmed" truncate>
                  · first edit starts a draft
                </Text>
              )}
            </>
          ) : (
            <>
              <IconGitPullRequest size={15} className={classes.branchIcon} />
              <Anchor
                href={`#/spaces/${spaceId}/change-requests/${number}`}
                size="sm"
                fw={500}
                className={classes.crLink}
                data-testid="save-target-link"
              >
                {short ? `#${number}` : `${crLabel(cr?.status)} #${number}`}
              </Anchor>
              {cr?.subject && !short && (
                <Text size="sm" c="dimmed" truncate>
                  · {cr.subject}
                </Text>
              )}
            </>
          )}
        </div>
      </Tooltip>
      <SaveStatus snap={snap} />
      {editable &&
        cr?.status === 'draft' &&
        (short ? (
          <Tooltip label="Submit for review">
            <ActionIcon
              variant="light"
              size={28}
              aria-label="Submit for review"
              loading={submit.isPending}
              onClick={() => submit.mutate()}
              data-testid="submit-for-review"
            >
              <IconSend size={15} />
            </ActionIcon>
          </Tooltip>
        ) : (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconSend size={14} />}
            loading={submit.isPending}
            onClick={() => submit.mutate()}
            className={classes.nowrap}
            data-testid="submit-for-review"
          >
            Submit for review
          </Button>
        ))}
      {cr?.status === 'open' && (
        <Badge color="indigo" variant="light" className={classes.nowrap}>
          In review
        </Badge>
      )}
    </>
  )
}

function crLabel(status: ChangeRequest['status'] | undefined): string {
  if (status === 'draft' || status === undefined) return 'Draft change request'
  if (status === 'open') return 'Change request'
  if (status === 'merged') return 'Merged change request'
  return 'Archived change request'
}

function SaveStatus({ snap }: { snap: SessionSnapshot }) {
  const { status } = snap.save
  return (
    <div className={classes.status} data-testid="save-status" data-status={status} role="status" aria-live="polite">
      {status === 'saved' && (
        <>
          <IconCheck size={15} className={classes.saved} />
          <Text size="sm" c="dimmed">
            Saved
          </Text>
        </>
      )}
      {status === 'saving' && (
        <>
          <Loader size={12} />
          <Text size="sm" c="dimmed">
            Saving…
          </Text>
        </>
      )}
      {status === 'dirty' && (
        <>
          <IconPointFilled size={14} className={classes.unsaved} />
          <Text size="sm" c="dimmed">
            Unsaved changes
          </Text>
        </>
      )}
      {status === 'failed' && (
        <>
          <IconAlertTriangle size={15} color="var(--mantine-color-red-6)" />
          <Text size="sm" c="red" fw={500}>
            Save failed
          </Text>
        </>
      )}
    </div>
  )
}

/** The API's whole message under the bar (messages are sentences; the bar has room for a word). */
function SaveFailure({
  error,
  onRetry,
  stale
}: {
  error: string | null
  onRetry(): void
  stale?: { keepMine(): void; useTheirs(): void }
}) {
  return (
    <div className={classes.failure} role="alert">
      <Text size="sm" c="red" className={classes.failureText} data-testid="save-error">
        Save failed — {error ?? 'the change could not be written'}
      </Text>
      {stale ? (
        <Group gap={6} wrap="nowrap">
          <Button size="compact-xs" variant="default" onClick={stale.useTheirs} data-testid="save-use-theirs">
            Use theirs
          </Button>
          <Button size="compact-xs" variant="light" color="red" onClick={stale.keepMine} data-testid="save-keep-mine">
            Keep mine
          </Button>
        </Group>
      ) : (
        <Button
          size="compact-xs"
          variant="light"
          color="red"
          leftSection={<IconRefresh size={12} />}
          onClick={onRetry}
          data-testid="save-retry"
        >
          Retry
        </Button>
      )}
    </div>
  )
}

// --- uploads -----------------------------------------------------------------------------------------------------
function Uploads({ uploads, onDismiss }: { uploads: Upload[]; onDismiss(id: number): void }) {
  return (
    <div className={classes.uploads} data-testid="uploads">
      {uploads.map((u) => (
        <div key={u.id} className={classes.upload} data-testid="upload-item" data-phase={u.phase}>
          {u.phase === 'done' ? (
            <IconCheck size={14} color="var(--mantine-color-teal-6)" />
          ) : u.phase === 'failed' ? (
            <IconAlertTriangle size={14} color="var(--mantine-color-red-6)" />
          ) : (
            <IconCloudUpload size={14} />
          )}
          <Text size="xs" fw={500} className={classes.uploadName}>
            {u.name}
          </Text>
          {u.phase === 'failed' ? (
            <Text size="xs" c="red" className={classes.uploadError} data-testid="upload-error">
              {u.error}
            </Text>
          ) : (
            <>
              <Progress
                className={classes.uploadBar}
                size="sm"
                value={u.phase === 'reading' ? Math.round(u.progress * 100) : 100}
                striped={u.phase === 'uploading'}
                animated={u.phase === 'uploading'}
                color={u.phase === 'done' ? 'teal' : undefined}
              />
              <Text size="xs" c="dimmed">
                {u.phase === 'reading' ? 'Reading…' : u.phase === 'uploading' ? 'Uploading…' : 'Uploaded'}
              </Text>
            </>
          )}
          {(u.phase === 'failed' || u.phase === 'done') && (
            <CloseButton size="xs" aria-label={`Dismiss ${u.name}`} onClick={() => onDismiss(u.id)} />
          )}
        </div>
      ))}
    </div>
  )
}

// --- preview -----------------------------------------------------------------------------------------------------
function Preview({
  markdown,
  files,
  includes,
  previewRef,
  onPageLink,
  width
}: {
  markdown: string
  files: { id: string; name: string; downloadURL: string }[] | undefined
  /** What `{% include %}` tags show; undefined while the reusable contents load (or when none is included). */
  includes: PreviewIncludes | undefined
  previewRef: React.RefObject<HTMLDivElement | null>
  /** Opens the page a link names; false when the link names no page (a URL, a file). */
  onPageLink(href: string): boolean
  /** Beside the editor: its width, px (alone it fills the body). */
  width?: number
}) {
  // Typing stays responsive on long pages: the preview renders from a deferred copy of the text.
  const text = useDeferredValue(markdown)
  const fileMap = useMemo(() => new Map<string, PreviewFile>((files ?? []).map((f) => [f.id, f])), [files])
  const html = useMemo(() => renderMarkdown(text, fileMap, includes), [text, fileMap, includes])
  const fm = useMemo(() => readFrontMatter(text), [text])

  // Links to pages of the space open them in the editor.
  const onClick = (e: MouseEvent<HTMLDivElement>) => onPreviewClick(e, previewRef.current, onPageLink)

  return (
    <div ref={previewRef} className={classes.preview} data-testid="preview-pane" style={width === undefined ? undefined : { width }}>
      {fm.present && (
        <div className={classes.frontMatter} data-testid="front-matter">
          {fm.entries.map((e) => (
            <span key={e.key} className={classes.fmEntry}>
              <span className={classes.fmKey}>{e.key}</span>
              <span className={classes.fmValue}>{e.value}</span>
            </span>
          ))}
          {fm.error && (
            <Text size="xs" c="red" data-testid="front-matter-error">
              Front matter is not valid YAML{fm.error.line ? ` (line ${fm.error.line})` : ''}: {fm.error.message}. The page still saves.
            </Text>
          )}
          {!fm.error && fm.entries.length === 0 && (
            <Text size="xs" c="dimmed">
              Empty front matter
            </Text>
          )}
        </div>
      )}
      {text.trim() || fm.present ? (
        <div className={classes.markdown} data-testid="preview" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <Text size="sm" c="dimmed" className={classes.previewEmpty}>
          Nothing to preview yet. Write some Markdown on the left.
        </Text>
      )}
    </div>
  )
}
