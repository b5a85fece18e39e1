// One page being edited: its autosave queue, the change request its writes go to, its uploads, and the editor
// state handed from the main-content route to the change-request route when the first write lands (the two are
// different routes, so React mounts a new editor; this object outlives it).
import type { QueryClient } from '@tanstack/react-query'
import type { EditorState } from '@codemirror/state'
import type { EditorView } from '@codemirror/view'
import { fetchAll } from '../../api/lists.ts'
import { ApiError } from '../../api/client.ts'
import type { ContentChangeInput, ContentFile } from '../../api/types.ts'
import { fileMarkdown, fileProblem, newFiles, readAsBase64, uploadName } from './fileUpload.ts'
import { applyChanges, filesQuery, pageQuery, pagesQuery, rememberPageWrite, resolveDraft, type ContentScope } from './queries.ts'
import { SaveQueue, type PageFields, type SaveSnapshot } from './saveQueue.ts'
import { mergeText } from '../../../../src-shared/textMerge.ts'
import { notifyInfo } from '../../app/notify.ts'

export interface Upload {
  id: number
  name: string
  /** 0..1 while reading, then the write (no progress of its own). */
  progress: number
  phase: 'reading' | 'uploading' | 'done' | 'failed'
  error?: string
}

export interface SessionSnapshot {
  /** The title and markdown the editor shows (the newest, saved or not). */
  fields: PageFields
  save: SaveSnapshot
  /** The change request writes go to; undefined on main until the first write finds or opens a draft. */
  target: number | undefined
  /** True once a write reached `target`: the moment a page opened on main moves to its change request. */
  landed: boolean
  /** True when the last write was refused because someone changed the page since it was read (412). */
  stale: boolean
  uploads: Upload[]
}

/** What a remounted editor picks up: selection, undo history, scroll and focus. */
export interface ViewHandoff {
  state: EditorState
  scroll: ReturnType<EditorView['scrollSnapshot']>
  focused: boolean
}

const IDLE_TTL_MS = 20_000
/** Saves of others merged in a row before the editor asks instead. */
const MAX_MERGES = 3

let uploadIds = 0

export class PageSession {
  readonly queue: SaveQueue
  target: number | undefined
  handoff: ViewHandoff | null = null
  /** The editor showing this page now, if any (uploads insert their links through it). */
  view: EditorView | null = null
  private landed = false
  private stale = false
  /** The next write overwrites whatever the page holds now (the user chose to keep their text). */
  private overwrite = false
  /** Merges of others' saves in a row (a page saved elsewhere as fast as here ends in the choice, not a loop). */
  private merges = 0
  /** The revision the saved text was read at or last written to: writes send it as If-Match. */
  private readAt: string | undefined
  private uploads: Upload[] = []
  private snap: SessionSnapshot
  private listeners = new Set<() => void>()
  private refs = 0
  private expiry: ReturnType<typeof setTimeout> | null = null

  constructor(
    private readonly client: QueryClient,
    readonly spaceId: string,
    readonly pageId: string,
    target: number | undefined,
    /** The page as first loaded: on main, a draft holding another version of it is not reused. */
    private readonly base: PageFields,
    readAt: string | undefined
  ) {
    this.target = target
    this.readAt = readAt
    this.queue = new SaveQueue({ initial: base, send: (patch) => this.write(patch) })
    this.snap = this.build()
    this.queue.subscribe(() => this.changed())
  }

  get key(): string {
    return sessionKey(this.spaceId, this.pageId, this.target)
  }

  snapshot = (): SessionSnapshot => this.snap

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private build(): SessionSnapshot {
    return {
      fields: this.queue.fields,
      save: this.queue.snapshot(),
      target: this.target,
      landed: this.landed,
      stale: this.stale,
      uploads: this.uploads
    }
  }

  private changed() {
    this.snap = this.build()
    for (const l of this.listeners) l()
  }

  /** An edit from the editor, the title field, an upload or a rename in the tree. */
  edit(fields: Partial<PageFields>) {
    this.queue.edit(fields)
    this.changed()
  }

  private scope(): ContentScope {
    return { spaceId: this.spaceId, changeRequest: this.target }
  }

  /** The change request to write to: on main, the draft found or opened by the first write. */
  private async ensureTarget(): Promise<number> {
    if (this.target !== undefined) return this.target
    const title = this.queue.fields.title.trim() || this.base.title
    const cr = await resolveDraft(this.client, this.spaceId, { subject: `Edit “${title}”`, page: { id: this.pageId, ...this.base } })
    if (this.target === undefined) {
      sessions.delete(this.key)
      this.target = cr.number
      sessions.set(this.key, this)
      this.changed()
    }
    return this.target
  }

  private markLanded() {
    if (this.landed) return
    this.landed = true
    this.changed()
  }

  private async write(patch: Partial<PageFields>): Promise<void | { rebased: PageFields }> {
    const number = await this.ensureTarget()
    const change: ContentChangeInput = {
      operation: 'update_page',
      page: this.pageId,
      ...(patch.markdown !== undefined ? { document: { markdown: patch.markdown } } : {}),
      ...(patch.title !== undefined ? { title: patch.title } : {})
    }
    let cr
    try {
      // Sent with the revision the text was read at: the server refuses to overwrite what someone changed since.
      cr = await applyChanges(this.client, this.spaceId, number, [change], this.overwrite ? undefined : this.readAt)
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 412)) throw error
      const rebased = this.merges < MAX_MERGES ? await this.mergeTheirs() : undefined
      if (rebased) {
        this.merges += 1
        return { rebased }
      }
      this.stale = true
      this.changed()
      throw new Error(
        'someone else changed the same lines of this page since you opened it. Use theirs drops your text for theirs; Keep mine saves yours over theirs.'
      )
    }
    this.merges = 0
    this.readAt = cr.revision
    this.overwrite = false
    if (this.stale) {
      this.stale = false
      this.changed()
    }
    rememberPageWrite(this.client, this.scope(), this.pageId, patch, { updatedAt: cr.updatedAt, revision: cr.revision })
    this.markLanded()
  }

  /**
   * Writes the page's fields that are not its text (its slug, its emoji) to where the edits go, as one change
   * of its own; the page and the tree are read again (a slug changes the paths under it). Errors are the caller's
   * to show (a slug a sibling has answers 409).
   */
  async saveFields(fields: { slug?: string; emoji?: string | null }): Promise<void> {
    const number = await this.ensureTarget()
    await applyChanges(this.client, this.spaceId, number, [{ operation: 'update_page', page: this.pageId, ...fields }])
    const scope = this.scope()
    await Promise.all([
      this.client.invalidateQueries({ queryKey: pagesQuery(scope).queryKey, exact: true }),
      this.client.invalidateQueries({ queryKey: pageQuery(scope, this.pageId).queryKey, exact: true })
    ])
    this.markLanded()
  }

  /**
   * After a write refused because someone saved the page meanwhile: merges their save into the editor's text, as
   * a change request merge would (src-shared/textMerge.ts: edits of different lines merge, the same lines
   * conflict). On success the editor shows the merged text, the next write is checked against their revision,
   * and their fields are returned as what the server has; undefined when the edits conflict.
   */
  private async mergeTheirs(): Promise<PageFields | undefined> {
    const page = await this.client.fetchQuery({ ...pageQuery(this.scope(), this.pageId), staleTime: 0 })
    const theirs = { title: page.title, markdown: page.markdown ?? '' }
    // From here to the editor's update nothing awaits, so no keystroke falls between the merge and the text.
    const base = this.queue.savedFields
    const mine = this.queue.fields
    const markdown = mergeText(base.markdown, mine.markdown, theirs.markdown)
    const myTitle = mine.title.trim()
    const titleClash = myTitle !== base.title && theirs.title !== base.title && myTitle !== theirs.title
    if (markdown === undefined || titleClash) return undefined
    this.readAt = page.readAt
    if (myTitle === base.title && theirs.title !== base.title) this.edit({ title: theirs.title })
    this.rewrite(markdown)
    notifyInfo('Someone else saved this page meanwhile: their edits and yours are merged.')
    return theirs
  }

  /** After a refused write (stale): drop the editor's text and show the page as it is now. */
  async useTheirs(): Promise<void> {
    // A write under way ends first (refused again, as it is checked), so nothing lands after the reset.
    await this.queue.flush()
    const page = await this.client.fetchQuery({ ...pageQuery(this.scope(), this.pageId), staleTime: 0 })
    const fields = { title: page.title, markdown: page.markdown ?? '' }
    this.queue.reset(fields)
    this.readAt = page.readAt
    this.overwrite = false
    this.stale = false
    const view = this.view
    // The editor's own change listener then finds nothing to save.
    if (view && view.state.doc.toString() !== fields.markdown)
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: fields.markdown } })
    this.changed()
  }

  /** After a refused write (stale): save the editor's text over the page as it is now. */
  async keepMine(): Promise<boolean> {
    this.overwrite = true
    // A write already under way (leaving the editor for the button saves too) went out checked and is refused
    // again: let it end, then write over.
    const saved = await this.queue.flush()
    return this.overwrite ? this.queue.flush() : saved
  }

  // --- uploads -------------------------------------------------------------------------------------------------
  private setUpload(id: number, patch: Partial<Upload>) {
    this.uploads = this.uploads.map((u) => (u.id === id ? { ...u, ...patch } : u))
    this.changed()
  }

  dismissUpload(id: number) {
    this.uploads = this.uploads.filter((u) => u.id !== id)
    this.changed()
  }

  /**
   * Uploads files one by one into the change request and puts their links where the cursor was (or at `pos`).
   * Each file first shows as an "Uploading…" placeholder in the text, as it would on a code host, so the link
   * lands in the right place however the text changes meanwhile. Files over the limit are refused before any
   * byte is sent.
   */
  async upload(files: File[], pos?: number): Promise<void> {
    const accepted: { upload: Upload; file: File; name: string; placeholder: string }[] = []
    for (const file of files) {
      const name = uploadName(file)
      const problem = fileProblem({ name, size: file.size })
      const upload: Upload = {
        id: ++uploadIds,
        name,
        progress: 0,
        phase: problem ? 'failed' : 'reading',
        ...(problem ? { error: problem } : {})
      }
      this.uploads = [...this.uploads, upload]
      if (!problem) accepted.push({ upload, file, name, placeholder: `![Uploading ${name} (${upload.id})…]()` })
    }
    this.changed()
    if (!accepted.length) return
    this.insertText(accepted.map((a) => a.placeholder).join('\n\n'), pos)

    let known: Set<string> | null = null
    for (const { upload, file, name, placeholder } of accepted) {
      try {
        const base64 = await readAsBase64(file, (progress) => this.setUpload(upload.id, { progress }))
        this.setUpload(upload.id, { phase: 'uploading', progress: 1 })
        const number = await this.ensureTarget()
        const scope = this.scope()
        known ??= new Set(
          (await fetchAll<ContentFile>(`/v1/spaces/${this.spaceId}/change-requests/${number}/content/files`)).map((f) => f.id)
        )
        await applyChanges(this.client, this.spaceId, number, [
          { operation: 'insert_files', files: [{ name, base64, ...(file.type ? { contentType: file.type } : {}) }] }
        ])
        const after = await fetchAll<ContentFile>(`/v1/spaces/${this.spaceId}/change-requests/${number}/content/files`)
        this.client.setQueryData(filesQuery(scope).queryKey, after)
        const [created] = newFiles(known, after, [name])
        known = new Set(after.map((f) => f.id))
        if (!created) throw new Error(`“${name}” was uploaded but is not listed among the change request's files`)
        this.replaceText(placeholder, fileMarkdown(created))
        this.setUpload(upload.id, { phase: 'done' })
        this.markLanded()
        setTimeout(() => this.dismissUpload(upload.id), 4000)
      } catch (error) {
        this.replaceText(placeholder, '')
        this.setUpload(upload.id, { phase: 'failed', error: error instanceof Error ? error.message : String(error) })
      }
    }
  }

  /**
   * Inserts text at `pos` (or the cursor) as a block of its own (blank lines around it, so an image is not run
   * into the paragraph above), through the editor when one shows the page.
   */
  private insertText(text: string, pos?: number) {
    const view = this.view
    if (!view) {
      const md = this.queue.fields.markdown
      this.edit({ markdown: md + (!md ? '' : md.endsWith('\n\n') ? '' : md.endsWith('\n') ? '\n' : '\n\n') + text + '\n' })
      return
    }
    const doc = view.state.doc
    const at = Math.max(0, Math.min(pos ?? view.state.selection.main.head, doc.length))
    const line = doc.lineAt(at)
    const blank = (n: number) => n < 1 || n > doc.lines || !doc.line(n).text.trim()
    const before = at > line.from ? '\n\n' : blank(line.number - 1) ? '' : '\n'
    const after = at < line.to ? '\n\n' : blank(line.number + 1) ? '' : '\n'
    const insert = `${before}${text}${after}`
    view.dispatch({ changes: { from: at, insert }, selection: { anchor: at + insert.length }, scrollIntoView: true })
  }

  /**
   * Replaces the whole text with `next` (a settings change rewriting the front matter) as one edit of the span
   * that differs, through the editor when one shows the page: the cursor keeps its place and one undo takes it back.
   */
  rewrite(next: string) {
    const view = this.view
    if (!view) {
      this.edit({ markdown: next })
      return
    }
    const current = view.state.doc.toString()
    if (current === next) return
    let start = 0
    while (start < current.length && start < next.length && current[start] === next[start]) start++
    let end = 0
    while (end < current.length - start && end < next.length - start && current[current.length - 1 - end] === next[next.length - 1 - end])
      end++
    view.dispatch({ changes: { from: start, to: current.length - end, insert: next.slice(start, next.length - end) } })
  }

  private replaceText(search: string, replacement: string) {
    const view = this.view
    if (!view) {
      this.edit({ markdown: this.queue.fields.markdown.replace(search, replacement) })
      return
    }
    const from = view.state.doc.toString().indexOf(search)
    if (from < 0) return
    view.dispatch({ changes: { from, to: from + search.length, insert: replacement } })
  }

  // --- lifetime ------------------------------------------------------------------------------------------------
  get inUse(): boolean {
    return this.refs > 0
  }

  retain() {
    this.refs += 1
    if (this.expiry) clearTimeout(this.expiry)
    this.expiry = null
  }

  /**
   * The editor went away. Unsaved text is written first; the session then stays a little while, so the editor
   * of the change-request route (or a quick return to this page) picks up the cursor and undo history.
   */
  release() {
    this.refs -= 1
    if (this.refs > 0) return
    if (this.queue.dirty) void this.queue.flush()
    this.expiry = setTimeout(() => this.expire(), IDLE_TTL_MS)
  }

  private expire() {
    if (this.refs > 0) return
    if (this.queue.dirty && this.queue.snapshot().status !== 'failed') {
      this.expiry = setTimeout(() => this.expire(), IDLE_TTL_MS)
      return
    }
    if (sessions.get(this.key) === this) sessions.delete(this.key)
  }
}

const sessions = new Map<string, PageSession>()

function sessionKey(spaceId: string, pageId: string, target: number | undefined) {
  return `${spaceId}:${pageId}:${target ?? 'main'}`
}

/** The session of a page in a scope: the one still alive (handed over, or still saving), else a new one. */
export function openSession(
  client: QueryClient,
  scope: ContentScope,
  pageId: string,
  base: () => PageFields & { readAt?: string }
): PageSession {
  const key = sessionKey(scope.spaceId, pageId, scope.changeRequest)
  let session = sessions.get(key)
  if (!session) {
    const { readAt, ...fields } = base()
    session = new PageSession(client, scope.spaceId, pageId, scope.changeRequest, fields, readAt)
    sessions.set(key, session)
  }
  return session
}

/** The live session of a page, if one exists (tree actions flush it before they move or delete its page). */
export function findSession(scope: ContentScope, pageId: string): PageSession | undefined {
  return sessions.get(sessionKey(scope.spaceId, pageId, scope.changeRequest))
}

/** The live sessions writing to a change request (its pages being edited, or still saving). */
export function sessionsOf(spaceId: string, changeRequest: number): PageSession[] {
  return [...sessions.values()].filter((s) => s.spaceId === spaceId && s.target === changeRequest)
}

/** Drops a page's idle session after the page changed elsewhere (renamed in the tree, deleted), so it is read again. */
export function forgetSession(scope: ContentScope, pageId: string): void {
  const session = findSession(scope, pageId)
  if (session && !session.inUse && !session.queue.dirty) sessions.delete(session.key)
}
