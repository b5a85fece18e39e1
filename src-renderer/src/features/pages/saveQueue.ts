// Autosave of one page's editable fields: debounced after typing stops, serialized (never two writes in flight),
// the newest text wins, and a failed write keeps the text and waits for a retry or the next edit. Pure (the
// write and the timer are injected): tested in Node.

export interface PageFields {
  title: string
  markdown: string
}

export type SaveStatus = 'saved' | 'dirty' | 'saving' | 'failed'

export interface SaveSnapshot {
  status: SaveStatus
  /** The API's message when the last write failed. */
  error: string | null
  /** True while the title is not one the API accepts (it is then left out of writes). */
  titleInvalid: boolean
  /** How many writes succeeded: the first one is when a page on main lands in its change request. */
  saves: number
}

export interface Timers {
  set(fn: () => void, ms: number): unknown
  clear(handle: unknown): void
}

export interface SaveQueueOptions {
  initial: PageFields
  /**
   * Writes the fields that changed since the last successful write. Rejects with an Error whose message is shown.
   * Resolves with `{rebased}` instead when it wrote nothing because the server's fields had moved on: those are
   * what the server has now (the editor's text having been merged with them), and the queue writes again from there.
   */
  send(patch: Partial<PageFields>): Promise<void | { rebased: PageFields }>
  delay?: number
  timers?: Timers
}

export const TITLE_MAX = 255

export function validTitle(title: string): boolean {
  const t = title.trim()
  return t.length > 0 && t.length <= TITLE_MAX
}

/** The fields that differ from what the server has; the title only when the API would accept it. */
export function changedFields(saved: PageFields, current: PageFields): Partial<PageFields> | null {
  const patch: Partial<PageFields> = {}
  if (current.markdown !== saved.markdown) patch.markdown = current.markdown
  const title = current.title.trim()
  if (title !== saved.title && validTitle(title)) patch.title = title
  return Object.keys(patch).length ? patch : null
}

const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) }

export class SaveQueue {
  /** What the server has (as far as this queue knows). */
  private saved: PageFields
  /** What the editor shows. */
  private current: PageFields
  private timer: unknown = null
  private runner: Promise<boolean> | null = null
  private listeners = new Set<() => void>()
  private phase: 'idle' | 'saving' | 'failed' = 'idle'
  private error: string | null = null
  private saves = 0
  private snap: SaveSnapshot
  private readonly send: SaveQueueOptions['send']
  private readonly delay: number
  private readonly timers: Timers

  constructor(options: SaveQueueOptions) {
    this.saved = { ...options.initial, title: options.initial.title.trim() }
    this.current = { ...options.initial }
    this.send = options.send
    this.delay = options.delay ?? 800
    this.timers = options.timers ?? realTimers
    this.snap = { status: 'saved', error: null, titleInvalid: !validTitle(this.current.title), saves: 0 }
  }

  get fields(): PageFields {
    return this.current
  }

  /** What the server has, as far as this queue knows: the text the editor's edits are based on. */
  get savedFields(): PageFields {
    return this.saved
  }

  /** True while something typed has not reached the server. */
  get dirty(): boolean {
    return this.current.markdown !== this.saved.markdown || this.current.title.trim() !== this.saved.title
  }

  snapshot(): SaveSnapshot {
    return this.snap
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Takes `fields` as what the server has and what the editor shows (the user chose the server's text over
   * theirs): nothing left to save, no failure. Call with no write under way (flush first).
   */
  reset(fields: PageFields): void {
    if (this.timer !== null) this.timers.clear(this.timer)
    this.timer = null
    this.saved = { ...fields, title: fields.title.trim() }
    this.current = { ...fields }
    this.phase = 'idle'
    this.error = null
    this.update()
  }

  /** Records an edit and (re)starts the debounce. */
  edit(fields: Partial<PageFields>): void {
    this.current = { ...this.current, ...fields }
    if (this.timer !== null) this.timers.clear(this.timer)
    this.timer = this.dirty ? this.timers.set(() => void this.flush(), this.delay) : null
    this.update()
  }

  /**
   * Writes now (blur, Ctrl/Cmd+S, leaving, Retry). Resolves true once everything typed is saved, false when a
   * write failed or newer typing is still waiting for its debounce.
   */
  flush(): Promise<boolean> {
    if (this.timer !== null) this.timers.clear(this.timer)
    this.timer = null
    if (!this.runner) this.runner = this.drain().finally(() => (this.runner = null))
    return this.runner
  }

  private async drain(): Promise<boolean> {
    for (;;) {
      const patch = changedFields(this.saved, this.current)
      if (!patch) {
        this.phase = this.phase === 'failed' && this.dirty ? 'failed' : 'idle'
        this.update()
        return !this.dirty
      }
      this.phase = 'saving'
      this.update()
      let result
      try {
        result = await this.send(patch)
      } catch (error) {
        this.phase = 'failed'
        this.error = error instanceof Error ? error.message : String(error)
        this.update()
        return false
      }
      if (result) {
        this.saved = { ...result.rebased, title: result.rebased.title.trim() }
        continue
      }
      this.saved = { ...this.saved, ...patch }
      this.saves += 1
      this.phase = 'idle'
      this.error = null
      // Typing during the write restarted the debounce: let it run out rather than write on every keystroke.
      if (this.timer !== null) {
        this.update()
        return false
      }
    }
  }

  private update(): void {
    const status: SaveStatus = this.phase === 'saving' ? 'saving' : this.phase === 'failed' ? 'failed' : this.dirty ? 'dirty' : 'saved'
    const next: SaveSnapshot = { status, error: this.error, titleInvalid: !validTitle(this.current.title), saves: this.saves }
    const prev = this.snap
    if (next.status === prev.status && next.error === prev.error && next.titleInvalid === prev.titleInvalid && next.saves === prev.saves)
      return
    this.snap = next
    for (const listener of this.listeners) listener()
  }
}
