// How a connected workspace's unsent writes (its outbox) are put into words: the header's pill, what a send did,
// what a discard loses, and where a change request renumbered by its server is now. Pure (tested under Node).
import type { OutboxItem, OutboxSummary, OutboxSyncResult } from '../../../../src-shared/workspaces.ts'
import { plural } from '../common/format.ts'

/** The pill's words: refused writes first (they wait for the user), then the others. Null when nothing waits. */
export function unsentLabel(outbox: OutboxSummary | undefined): { label: string; refused: boolean } | null {
  if (!outbox || outbox.unsent <= 0) return null
  const { unsent, failed } = outbox
  if (failed <= 0) return { label: `${plural(unsent, 'change')} not sent`, refused: false }
  const waiting = unsent - failed
  return { label: `${plural(failed, 'change')} refused${waiting > 0 ? ` · ${waiting} not sent` : ''}`, refused: true }
}

/** `#12 Edit “Install”`: a change request as the outbox names it. */
export function changeRequestLabel(item: Pick<OutboxItem, 'changeRequest'>): string {
  const { number, subject } = item.changeRequest
  return subject ? `#${number} ${subject}` : `#${number}`
}

/**
 * What discarding write `seq` loses: it and the later writes of its change request (made on top of it), and, when
 * the change request was made on this computer and its opening goes too, the change request itself. Otherwise
 * the copy goes back to the server's version of the change request.
 */
export function discardConsequence(items: readonly OutboxItem[], seq: number): { later: number; removesChangeRequest: boolean } | null {
  const item = items.find((i) => i.seq === seq)
  if (!item) return null
  const same = items.filter((i) => i.changeRequest.id === item.changeRequest.id && i.seq >= seq)
  return {
    later: same.length - 1,
    removesChangeRequest: same.some((i) => i.kind === 'create-change-request'),
  }
}

export type SyncTone = 'sent' | 'waiting' | 'problem'

/**
 * What a send did, in one sentence, and how it went: everything sent, some still waiting (out of reach, refused
 * writes left for the user), or a problem with the server. `stopped` is read as a string so a reason added later
 * still reads as a stop.
 */
export function syncOutcome(result: Pick<OutboxSyncResult, 'sent' | 'failed' | 'items' | 'message'> & { stopped?: string }, host: string): { text: string; tone: SyncTone } {
  const sent = result.sent > 0 ? `Sent ${plural(result.sent, 'change')}` : ''
  const refused = result.failed > 0 ? `${host} refused ${plural(result.failed, 'change')}: the reason is shown with it` : ''
  const stop = stopReason(result.stopped, host, result.sent > 0, result.message)
  if (stop) return { text: sentence([sent, refused, stop.text]), tone: stop.tone }
  if (refused) return { text: sentence([sent, refused]), tone: 'problem' }
  if (result.items.length) {
    // Nothing stopped it, yet writes wait: behind a refused one of their change request, for the user.
    return { text: sentence([sent || 'Nothing was sent', 'the changes left wait behind a refused one']), tone: 'waiting' }
  }
  return { text: result.sent > 0 ? `${sent} to ${host}` : 'Nothing was waiting to be sent', tone: 'sent' }
}

function stopReason(stopped: string | undefined, host: string, sentSome: boolean, message?: string): { text: string; tone: SyncTone } | null {
  if (!stopped) return null
  if (stopped === 'unreachable') return { text: sentSome ? `then ${host} went out of reach again` : `Still out of reach: ${host} did not answer`, tone: 'waiting' }
  if (stopped === 'refused') return { text: `${host} refused this workspace's token: the changes wait for a new one`, tone: 'problem' }
  if (stopped === 'server-error') {
    const said = message ? ` (“${message}”)` : ''
    return { text: `${host} answered with an error of its own${said}: the changes wait, send them again later`, tone: 'problem' }
  }
  return { text: `${host} stopped the send (${stopped})`, tone: 'problem' }
}

// Parts that may come first start with a capital or with the host (left as it is written).
const sentence = (parts: string[]): string => parts.filter(Boolean).join('; ')

/**
 * The address of a change request's screen (or a page in it) with the number its server gave it, when the address
 * names one of the `renumbered` change requests by the number the copy gave it; null otherwise.
 */
export function renumberedPath(pathname: string, renumbered: OutboxSyncResult['renumbered']): string | null {
  const match = /^\/spaces\/([^/]+)\/change-requests\/(\d+)(\/.*)?$/.exec(pathname)
  if (!match) return null
  const [, spaceId, number, rest = ''] = match
  const moved = renumbered.find((r) => r.spaceId === decodeURIComponent(spaceId!) && String(r.from) === number)
  if (!moved || moved.to === moved.from) return null
  return `/spaces/${spaceId}/change-requests/${moved.to}${rest}`
}

/**
 * How many writes a send would try: not the refused ones, nor the later writes of their change requests (they
 * wait for the user).
 */
export function sendableCount(items: readonly Pick<OutboxItem, 'changeRequest' | 'failed'>[]): number {
  const held = new Set<string>()
  let count = 0
  for (const item of items) {
    if (item.failed || held.has(item.changeRequest.id)) held.add(item.changeRequest.id)
    else count++
  }
  return count
}

/** The change requests a list of writes touches, once each (their queries are read again after a send or discard). */
export function changeRequestsOf(items: readonly Pick<OutboxItem, 'space' | 'changeRequest'>[]): { spaceId: string; number: number }[] {
  const seen = new Map<string, { spaceId: string; number: number }>()
  for (const { space, changeRequest } of items) seen.set(`${space.id}:${changeRequest.number}`, { spaceId: space.id, number: changeRequest.number })
  return [...seen.values()]
}
