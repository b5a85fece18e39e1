/**
 * What long work (an import, a PDF) is told and tells: a signal that cancels it, and where it is (a phase, the
 * items done, and how many there are when known). Both optional: work run without them behaves as before.
 */
export interface WorkProgress {
  signal?: AbortSignal
  report?(phase: string, done: number, total?: number): void
}

/** Work stopped because its signal was aborted; it wrote nothing. */
export class WorkCancelled extends Error {
  constructor() {
    super('cancelled')
  }
}

export function throwIfCancelled(progress: WorkProgress | undefined): void {
  if (progress?.signal?.aborted) throw new WorkCancelled()
}
