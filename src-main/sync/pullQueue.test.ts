import { afterEach, describe, expect, it, vi } from 'vitest'
import { PullQueue } from './pullQueue'

afterEach(() => {
  vi.useRealTimers()
})

/** A queue on a clock the test moves, recording which pulls ran. */
function queue() {
  let now = 1_000_000
  const ran: string[] = []
  const warnings: string[] = []
  const q = new PullQueue(
    (m) => warnings.push(m),
    60_000,
    10_000,
    () => now
  )
  const pull = (name: string) => async () => void ran.push(name)
  return { q, ran, warnings, pull, advance: (ms: number) => (now += ms) }
}

describe('PullQueue', () => {
  it('runs a pull once while it is fresh, and again once it is not', async () => {
    const { q, ran, pull, advance } = queue()
    q.schedule('space:a', pull('a1'))
    // Asked again while the first runs: fresh by the time its turn comes.
    q.schedule('space:a', pull('a2'))
    await q.idle()
    q.schedule('space:a', pull('a3'))
    await q.idle()
    expect(ran).toEqual(['a1'])
    advance(60_000)
    q.schedule('space:a', pull('a4'))
    await q.idle()
    expect(ran).toEqual(['a1', 'a4'])
  })

  it('follows writes at most once per interval, always with a last pull after a burst', async () => {
    vi.useFakeTimers()
    const { q, ran, pull, advance } = queue()
    q.schedule('cr:a', pull('w1'), true)
    await vi.waitFor(() => expect(q.isIdle()).toBe(true))
    // A burst of saves within the interval: one pull at its end, with the last task.
    for (const name of ['w2', 'w3', 'w4']) q.schedule('cr:a', pull(name), true)
    expect(ran).toEqual(['w1'])
    advance(10_000)
    await vi.advanceTimersByTimeAsync(10_000)
    await q.idle()
    expect(ran).toEqual(['w1', 'w4'])
  })

  it('reports a failure and tries again next time; stops taking pulls once stopped', async () => {
    const { q, ran, warnings, pull } = queue()
    q.schedule('space:b', async () => {
      throw new Error('server said no')
    })
    await q.idle()
    expect(warnings).toEqual(['Updating the local copy (space:b) failed: server said no'])
    q.schedule('space:b', pull('b'))
    await q.idle()
    expect(ran).toEqual(['b'])
    await q.stop()
    q.schedule('space:d', pull('d'))
    q.schedule('space:e', pull('e'), true)
    await q.idle()
    expect(ran).toEqual(['b'])
  })
})
