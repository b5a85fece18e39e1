// Pulls of a connected workspace's copy run one at a time in the background. A pull counts as fresh for a minute:
// following every screen the app opens would otherwise ask the server again and again for what it just sent. A
// write makes its pull due even when fresh, but not more than once per few seconds: the editor saves every few
// seconds while someone types, and each save would otherwise read the whole change request back; the last save of
// a burst is always followed (a trailing pull). A failure is reported, and the next pull of the same thing tries again.

/** How long a pull counts as fresh. */
export const PULL_FRESH_MS = 60_000
/** The shortest time between two pulls of the same thing, even when writes make it due. */
export const PULL_MIN_INTERVAL_MS = 10_000

export class PullQueue {
  private readonly queued = new Map<string, { task: () => Promise<void>; due: boolean }>()
  private readonly done = new Map<string, number>()
  /** Pulls made due too soon after the last one: run when the interval is over. */
  private readonly later = new Map<string, { timer: NodeJS.Timeout; task: () => Promise<void> }>()
  private running: Promise<void> | undefined
  private stopped = false

  constructor(
    private readonly warn: (message: string) => void,
    private readonly freshMs = PULL_FRESH_MS,
    private readonly minIntervalMs = PULL_MIN_INTERVAL_MS,
    private readonly now: () => number = Date.now
  ) {}

  /** Queues `task` under `key` (once: a key already queued is not queued twice). `due`: a write changed it. */
  schedule(key: string, task: () => Promise<void>, due = false): void {
    if (this.stopped) return
    const last = this.done.get(key)
    const age = last === undefined ? Infinity : this.now() - last
    if (!due && age < this.freshMs) return
    if (due && age < this.minIntervalMs) {
      const pending = this.later.get(key)
      if (pending) pending.task = task
      else {
        const timer = setTimeout(() => this.runLater(key), this.minIntervalMs - age)
        timer.unref()
        this.later.set(key, { timer, task })
      }
      return
    }
    this.enqueue(key, task, due)
  }

  isIdle(): boolean {
    return !this.running && !this.queued.size && !this.later.size
  }

  /** Resolves once nothing is queued, waiting or running (waiting pulls are run now). */
  async idle(): Promise<void> {
    for (;;) {
      for (const key of [...this.later.keys()]) this.runLater(key)
      if (!this.running) return
      await this.running
    }
  }

  /** No new pulls; waits for the one running. */
  async stop(): Promise<void> {
    this.stopped = true
    this.queued.clear()
    for (const { timer } of this.later.values()) clearTimeout(timer)
    this.later.clear()
    while (this.running) await this.running
  }

  private runLater(key: string): void {
    const pending = this.later.get(key)
    if (!pending) return
    clearTimeout(pending.timer)
    this.later.delete(key)
    this.enqueue(key, pending.task, true)
  }

  private enqueue(key: string, task: () => Promise<void>, due: boolean): void {
    if (this.stopped) return
    this.queued.set(key, { task, due })
    this.running ??= this.drain().finally(() => (this.running = undefined))
  }

  private async drain(): Promise<void> {
    while (this.queued.size && !this.stopped) {
      const [key, { task, due }] = this.queued.entries().next().value as [string, { task: () => Promise<void>; due: boolean }]
      this.queued.delete(key)
      // Queued while the same pull ran: it is fresh now.
      const last = this.done.get(key)
      if (!due && last !== undefined && this.now() - last < this.freshMs) continue
      try {
        await task()
        this.done.set(key, this.now())
      } catch (error) {
        this.warn(`Updating the local copy (${key}) failed: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }
}
