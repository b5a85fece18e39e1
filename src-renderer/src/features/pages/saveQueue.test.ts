import { describe, expect, it } from 'vitest'
import { SaveQueue, changedFields, type PageFields, type Timers } from './saveQueue.ts'

/** Timers run by hand: `fire()` runs what is due, as if the debounce ran out. */
function manualTimers() {
  let next = 0
  const pending = new Map<number, () => void>()
  const timers: Timers = {
    set: (fn) => {
      pending.set(++next, fn)
      return next
    },
    clear: (h) => void pending.delete(h as number)
  }
  return {
    timers,
    get pending() {
      return pending.size
    },
    fire() {
      const due = [...pending.values()]
      pending.clear()
      due.forEach((fn) => fn())
    }
  }
}

/** A write that resolves or rejects when the test says. */
function manualSend() {
  const calls: { patch: Partial<PageFields>; resolve(): void; reject(e: Error): void }[] = []
  const send = (patch: Partial<PageFields>) => new Promise<void>((resolve, reject) => calls.push({ patch, resolve, reject }))
  return { send, calls }
}

const tick = () => new Promise((r) => setTimeout(r, 0))
const initial = { title: 'Intro', markdown: '# Intro' }

describe('save queue', () => {
  it('takes the server text on reset: nothing left to save, the failure gone, no debounce pending', async () => {
    const t = manualTimers()
    const s = manualSend()
    const q = new SaveQueue({ initial, send: s.send, timers: t.timers })
    q.edit({ markdown: '# Intro\n\nmine' })
    t.fire()
    await tick()
    s.calls[0]!.reject(new Error('changed elsewhere'))
    await tick()
    q.edit({ markdown: '# Intro\n\nmine, more' })
    expect(q.snapshot()).toMatchObject({ status: 'failed', error: 'changed elsewhere' })
    q.reset({ title: 'Intro ', markdown: '# Intro\n\ntheirs' })
    expect(q.snapshot()).toMatchObject({ status: 'saved', error: null })
    expect(q.fields).toEqual({ title: 'Intro ', markdown: '# Intro\n\ntheirs' })
    expect(q.dirty).toBe(false)
    expect(t.pending).toBe(0)
    // The editor echoing the new text back is not an edit to save.
    q.edit({ markdown: '# Intro\n\ntheirs' })
    expect(q.snapshot().status).toBe('saved')
    expect(t.pending).toBe(0)
  })

  it('writes once the debounce runs out, only the fields that changed', async () => {
    const t = manualTimers()
    const s = manualSend()
    const q = new SaveQueue({ initial, send: s.send, timers: t.timers })
    q.edit({ markdown: '# Intro\n\na' })
    q.edit({ markdown: '# Intro\n\nab' })
    expect(q.snapshot().status).toBe('dirty')
    expect(t.pending).toBe(1)
    t.fire()
    await tick()
    expect(q.snapshot().status).toBe('saving')
    expect(s.calls.map((c) => c.patch)).toEqual([{ markdown: '# Intro\n\nab' }])
    s.calls[0]!.resolve()
    await tick()
    expect(q.snapshot()).toMatchObject({ status: 'saved', saves: 1, error: null })
    expect(q.dirty).toBe(false)
  })

  it('never has two writes in flight, and the newest text wins', async () => {
    const t = manualTimers()
    const s = manualSend()
    const q = new SaveQueue({ initial, send: s.send, timers: t.timers })
    q.edit({ markdown: 'one' })
    const first = q.flush()
    await tick()
    q.edit({ markdown: 'two' })
    q.edit({ markdown: 'three', title: 'New title ' })
    t.fire() // the debounce runs out while the first write is still under way
    await tick()
    expect(s.calls).toHaveLength(1)
    s.calls[0]!.resolve()
    await tick()
    expect(s.calls.map((c) => c.patch)).toEqual([{ markdown: 'one' }, { markdown: 'three', title: 'New title' }])
    s.calls[1]!.resolve()
    expect(await first).toBe(true)
    expect(q.snapshot()).toMatchObject({ status: 'saved', saves: 2 })
  })

  it('waits for the debounce when typing goes on during a write', async () => {
    const t = manualTimers()
    const s = manualSend()
    const q = new SaveQueue({ initial, send: s.send, timers: t.timers })
    q.edit({ markdown: 'a' })
    const flushed = q.flush()
    await tick()
    q.edit({ markdown: 'ab' })
    s.calls[0]!.resolve()
    expect(await flushed).toBe(false)
    expect(s.calls).toHaveLength(1)
    expect(q.snapshot().status).toBe('dirty')
    t.fire()
    await tick()
    expect(s.calls[1]!.patch).toEqual({ markdown: 'ab' })
  })

  it('keeps the text when a write fails, and retries on demand', async () => {
    const t = manualTimers()
    const s = manualSend()
    const q = new SaveQueue({ initial, send: s.send, timers: t.timers })
    q.edit({ markdown: 'kept' })
    const attempt = q.flush()
    await tick()
    s.calls[0]!.reject(new Error('The space is locked'))
    expect(await attempt).toBe(false)
    expect(q.snapshot()).toMatchObject({ status: 'failed', error: 'The space is locked' })
    expect(q.fields.markdown).toBe('kept')
    expect(q.dirty).toBe(true)
    // More typing keeps the failure visible until the next attempt.
    q.edit({ markdown: 'kept!' })
    expect(q.snapshot().status).toBe('failed')
    const retry = q.flush()
    await tick()
    expect(q.snapshot().status).toBe('saving')
    s.calls[1]!.resolve()
    expect(await retry).toBe(true)
    expect(s.calls[1]!.patch).toEqual({ markdown: 'kept!' })
    expect(q.snapshot()).toMatchObject({ status: 'saved', error: null })
  })

  it('writes again from the server fields a send rebased on, and counts only the write', async () => {
    const t = manualTimers()
    const sent: Partial<PageFields>[] = []
    const theirs = { title: 'Intro', markdown: '# Intro\n\ntheirs' }
    // The first send finds the server moved on: the editor now shows both edits, the server has theirs.
    let q: SaveQueue
    const send = async (patch: Partial<PageFields>) => {
      sent.push(patch)
      if (sent.length > 1) return
      q.edit({ markdown: '# Intro\n\ntheirs\n\nmine' })
      return { rebased: theirs }
    }
    q = new SaveQueue({ initial, send, timers: t.timers })
    q.edit({ markdown: '# Intro\n\nmine' })
    await q.flush()
    expect(sent).toEqual([{ markdown: '# Intro\n\nmine' }, { markdown: '# Intro\n\ntheirs\n\nmine' }])
    expect(q.savedFields).toEqual({ title: 'Intro', markdown: '# Intro\n\ntheirs\n\nmine' })
    expect(q.dirty).toBe(false)
    expect(q.snapshot()).toMatchObject({ saves: 1, error: null })
  })

  it('leaves an empty title out of writes and stays unsaved until it is fixed', async () => {
    const t = manualTimers()
    const s = manualSend()
    const q = new SaveQueue({ initial, send: s.send, timers: t.timers })
    q.edit({ title: '  ' })
    expect(q.snapshot()).toMatchObject({ status: 'dirty', titleInvalid: true })
    expect(await q.flush()).toBe(false)
    expect(s.calls).toHaveLength(0)
    q.edit({ title: 'Renamed' })
    const done = q.flush()
    await tick()
    expect(s.calls[0]!.patch).toEqual({ title: 'Renamed' })
    s.calls[0]!.resolve()
    expect(await done).toBe(true)
  })

  it('typing back to the saved text is not a change', () => {
    expect(changedFields(initial, { ...initial })).toBeNull()
    const t = manualTimers()
    const q = new SaveQueue({ initial, send: manualSend().send, timers: t.timers })
    q.edit({ markdown: 'x' })
    q.edit({ markdown: initial.markdown })
    expect(q.snapshot().status).toBe('saved')
    expect(t.pending).toBe(0)
  })
})
