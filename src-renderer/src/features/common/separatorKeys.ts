// The keys of a pane separator (`PaneSeparator.tsx`), apart from the DOM so they are tested.

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi))

/** A separator's next size for a key (arrows step, Shift steps further, Home/End go to the ends); null for other keys. */
export function keyedSize(key: string, shift: boolean, value: number, [min, max]: [number, number], growsRight: boolean): number | null {
  const step = shift ? 64 : 16
  const right = growsRight ? step : -step
  const next =
    key === 'ArrowRight' ? value + right : key === 'ArrowLeft' ? value - right : key === 'Home' ? min : key === 'End' ? max : null
  return next === null ? null : clamp(next, min, max)
}
