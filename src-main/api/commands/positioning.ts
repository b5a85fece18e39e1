import { badRequest } from '../../base/errors'

export interface Sibling {
  kind: string
  id: string
  position: number
}

export interface Anchor {
  kind: string
  id: string
  side: 'before' | 'after'
}

/**
 * Position for an item placed among `siblings` (the item itself excluded), before or after an anchor, or at
 * the end. Positions are fractional; when the gap between neighbours runs out, `renumber` is called with the
 * siblings spaced 1..n and the position is computed again.
 */
export function positionAmong(siblings: Sibling[], anchor: Anchor | undefined, renumber: (ordered: Sibling[]) => void): number {
  const ordered = [...siblings].sort((a, b) => a.position - b.position)
  if (!anchor) return (ordered.at(-1)?.position ?? 0) + 1
  const index = ordered.findIndex((s) => s.kind === anchor.kind && s.id === anchor.id)
  if (index < 0) throw badRequest(`position.${anchor.side}: ${anchor.kind} ${anchor.id} is not beside this item under its parent`)
  const lowIndex = anchor.side === 'before' ? index - 1 : index
  const low = ordered[lowIndex]?.position
  const high = ordered[lowIndex + 1]?.position
  if (low === undefined) return high! - 1
  if (high === undefined) return low + 1
  if (high - low > 1e-9) return (low + high) / 2
  const spaced = ordered.map((s, i) => ({ ...s, position: i + 1 }))
  renumber(spaced)
  return positionAmong(spaced, anchor, renumber)
}

/** Reads `{before|after: …}` into an anchor, given how each anchor type names its id. */
export function anchorOf(
  position: { before?: Record<string, unknown>; after?: Record<string, unknown> } | undefined,
  idOf: (ref: Record<string, unknown>) => { kind: string; id: string }
): Anchor | undefined {
  if (!position) return undefined
  if (position.before && position.after) throw badRequest('position: give either before or after, not both')
  const side = position.before ? 'before' : position.after ? 'after' : undefined
  if (!side) return undefined
  return { ...idOf(position[side]!), side }
}
