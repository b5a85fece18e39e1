// How a connected workspace's unsent writes (its outbox) are put into words: the header's pill, what a send did,
// what a discard loses, and where a change request renumbered by its server is now. Pure (tested under Node).
import type { OutboxItem, OutboxSummary, OutboxSyncResult } from '../../../../src-shared/workspaces.ts'
import { diff3Merge } from 'node-diff3'
import { plural } from '../common/format.ts'

/**
 * The pill's words: what waits for the user first (conflicts to resolve, refused writes), then the others. Null
 * when nothing waits. `refused`: something needs the user.
 */
export function unsentLabel(outbox: OutboxSummary | undefined): { label: string; refused: boolean } | null {
  if (!outbox || outbox.unsent <= 0) return null
  const { unsent, failed } = outbox
  const conflicts = outbox.conflicts ?? 0
  if (failed <= 0 && conflicts <= 0) return { label: `${plural(unsent, 'change')} not sent`, refused: false }
  const waiting = unsent - failed - conflicts
  const parts = [
    conflicts > 0 ? `${plural(conflicts, 'conflict')} to resolve` : '',
    failed > 0 ? `${plural(failed, 'change')} refused` : '',
    waiting > 0 ? `${waiting} not sent` : ''
  ]
  return { label: parts.filter(Boolean).join(' · '), refused: true }
}

/** `#12 Edit “Install”`: a change request as the outbox names it. */
export function changeRequestLabel(item: Pick<OutboxItem, 'changeRequest'>): string {
  const { number, subject } = item.changeRequest
  return subject ? `#${number} ${subject}` : `#${number}`
}

/**
 * What discarding write `seq` loses: that write only (later writes are merged onto the server's version without
 * it), unless it opened a change request made on this computer: then the change request goes, with every write
 * to it. `last`: nothing of its change request is left to send, so the copy goes back to the server's version.
 */
export function discardConsequence(
  items: readonly OutboxItem[],
  seq: number
): { later: number; removesChangeRequest: boolean; last: boolean } | null {
  const item = items.find((i) => i.seq === seq)
  if (!item) return null
  const same = items.filter((i) => i.changeRequest.id === item.changeRequest.id)
  const removesChangeRequest = item.kind === 'create-change-request'
  return {
    later: removesChangeRequest ? same.filter((i) => i.seq > seq).length : 0,
    removesChangeRequest,
    last: removesChangeRequest || same.length === 1
  }
}

export type SyncTone = 'sent' | 'waiting' | 'problem'

/**
 * What a send did, in one sentence, and how it went: everything sent, some still waiting (out of reach, refused
 * writes left for the user), or a problem with the server. `stopped` is read as a string so a reason added later
 * still reads as a stop.
 */
export function syncOutcome(
  result: Pick<OutboxSyncResult, 'sent' | 'failed' | 'items' | 'message'> & { conflicts?: number; stopped?: string },
  host: string
): { text: string; tone: SyncTone } {
  const sent = result.sent > 0 ? `Sent ${plural(result.sent, 'change')}` : ''
  const conflicts = result.conflicts ?? 0
  const conflicting =
    conflicts > 0
      ? `${plural(conflicts, 'change')} ${conflicts === 1 ? 'conflicts' : 'conflict'} with what was changed on ${host}: choose what to keep`
      : ''
  const refused = result.failed > 0 ? `${host} refused ${plural(result.failed, 'change')}: the reason is shown with it` : ''
  const stop = stopReason(result.stopped, host, result.sent > 0, result.message)
  if (stop) return { text: sentence([sent, conflicting, refused, stop.text]), tone: stop.tone }
  if (conflicting || refused) return { text: sentence([sent, conflicting, refused]), tone: 'problem' }
  if (result.items.length) {
    // Nothing stopped it, yet writes wait: behind a conflict or a refused one of their change request, for the user.
    return { text: sentence([sent || 'Nothing was sent', 'the changes left wait behind one that needs you']), tone: 'waiting' }
  }
  return { text: result.sent > 0 ? `${sent} to ${host}` : 'Nothing was waiting to be sent', tone: 'sent' }
}

function stopReason(
  stopped: string | undefined,
  host: string,
  sentSome: boolean,
  message?: string
): { text: string; tone: SyncTone } | null {
  if (!stopped) return null
  if (stopped === 'unreachable')
    return { text: sentSome ? `then ${host} went out of reach again` : `Still out of reach: ${host} did not answer`, tone: 'waiting' }
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
export function sendableCount(items: readonly Pick<OutboxItem, 'changeRequest' | 'failed' | 'conflict'>[]): number {
  const held = new Set<string>()
  let count = 0
  for (const item of items) {
    if (item.failed || item.conflict || held.has(item.changeRequest.id)) held.add(item.changeRequest.id)
    else count++
  }
  return count
}

/** The change requests a list of writes touches, once each (their queries are read again after a send or discard). */
export function changeRequestsOf(items: readonly Pick<OutboxItem, 'space' | 'changeRequest'>[]): { spaceId: string; number: number }[] {
  const seen = new Map<string, { spaceId: string; number: number }>()
  for (const { space, changeRequest } of items)
    seen.set(`${space.id}:${changeRequest.number}`, { spaceId: space.id, number: changeRequest.number })
  return [...seen.values()]
}

// --- conflicts ----------------------------------------------------------------------------------------------

/** A stretch of a conflicting page: lines all three versions agree on (after merging what merges), or the three versions of a clash. */
export type ConflictRegion = { same: string[] } | { base: string[]; mine: string[]; theirs: string[] }

/**
 * A page's three versions, line by line: where they agree (or only one side changed), and each place both changed
 * (node-diff3's three-way regions; a place both changed alike is not a clash).
 */
export function conflictRegions(base: string, mine: string, theirs: string): ConflictRegion[] {
  const regions: ConflictRegion[] = []
  for (const region of diff3Merge(mine.split('\n'), base.split('\n'), theirs.split('\n'), { excludeFalseConflicts: true })) {
    if (region.ok) {
      const last = regions.at(-1)
      if (last && 'same' in last) last.same.push(...region.ok)
      else regions.push({ same: [...region.ok] })
    } else if (region.conflict) regions.push({ base: region.conflict.o, mine: region.conflict.a, theirs: region.conflict.b })
  }
  return regions
}

export const MARKER_MINE = '<<<<<<< this computer'
export const MARKER_SPLIT = '======='
export const MARKER_THEIRS = '>>>>>>> the server'

/** The text an edited merge starts from: what merges, merged; each clash as both versions between markers. */
export function conflictDraft(regions: readonly ConflictRegion[]): string {
  return regions.flatMap((r) => ('same' in r ? r.same : [MARKER_MINE, ...r.mine, MARKER_SPLIT, ...r.theirs, MARKER_THEIRS])).join('\n')
}

/** True while an edited merge still holds a marker line (the user has not chosen there yet). */
export function hasConflictMarkers(text: string): boolean {
  return text.split('\n').some((line) => line === MARKER_MINE || line === MARKER_SPLIT || line === MARKER_THEIRS)
}
