// Pulls of a connected workspace's copy run one at a time in the background, each at most once per period unless
// forced (after a write): following every screen the app opens would otherwise ask the server again and again for
// what it just sent. A failure is reported and the next pull of the same thing tries again.

/** How long a pull counts as fresh. */
export const PULL_FRESH_MS = 60_000

export class PullQueue {
  private readonly queued = new Map<string, () => Promise<void>>()
  private readonly done = new Map<string, number>()
  private running: Promise<void> | undefined
  private stopped = false

  constructor(
    private readonly warn: (message: string) => void,
    private readonly freshMs = PULL_FRESH_MS,
    private readonly now: () => number = Date.now
  ) {}

  /** Queues `task` under `key` (once: a key already queued is not queued twice). */
  schedule(key: string, task: () => Promise<void>, force = false): void {
    if (this.stopped) return
    const last = this.done.get(key)
    if (!force && last !== undefined && this.now() - last < this.freshMs) return
    this.queued.set(key, task)
    this.running ??= this.drain().finally(() => (this.running = undefined))
  }

  isIdle(): boolean {
    return !this.running && !this.queued.size
  }

  /** Resolves once nothing is queued or running. */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }

  /** No new pulls; waits for the one running. */
  async stop(): Promise<void> {
    this.stopped = true
    this.queued.clear()
    await this.idle()
  }

  private async drain(): Promise<void> {
    while (this.queued.size && !this.stopped) {
      const [key, task] = this.queued.entries().next().value as [string, () => Promise<void>]
      this.queued.delete(key)
      try {
        await task()
        this.done.set(key, this.now())
      } catch (error) {
        this.warn(`Updating the local copy (${key}) failed: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }
}
