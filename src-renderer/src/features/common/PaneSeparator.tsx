import { useRef } from 'react'
import { keyedSize } from './separatorKeys.ts'
import classes from './PaneSeparator.module.css'

/**
 * A vertical separator that resizes the pane on one side of it: drag it, or focus it and use the arrow keys
 * (Shift for bigger steps, Home/End for the ends). `growsRight`: the pane is left of the separator, so it grows as
 * the separator moves right.
 */
export function PaneSeparator({
  label,
  value,
  limits,
  growsRight,
  onResize,
  testId
}: {
  label: string
  value: number
  limits: [number, number]
  growsRight: boolean
  onResize(size: number): void
  testId?: string
}) {
  const drag = useRef<{ x: number; start: number } | null>(null)
  const [min, max] = limits
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={Math.round(value)}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      className={classes.separator}
      data-testid={testId}
      onPointerDown={(e) => {
        if (e.button !== 0) return
        e.preventDefault()
        e.currentTarget.setPointerCapture(e.pointerId)
        e.currentTarget.focus()
        drag.current = { x: e.clientX, start: value }
      }}
      onPointerMove={(e) => {
        const d = drag.current
        if (!d) return
        const delta = e.clientX - d.x
        onResize(Math.min(max, Math.max(min, Math.round(d.start + (growsRight ? delta : -delta)))))
      }}
      onPointerUp={() => (drag.current = null)}
      onPointerCancel={() => (drag.current = null)}
      onKeyDown={(e) => {
        const next = keyedSize(e.key, e.shiftKey, value, limits, growsRight)
        if (next === null) return
        e.preventDefault()
        onResize(next)
      }}
    />
  )
}
