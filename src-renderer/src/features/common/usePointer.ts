import { useEffect, useRef } from 'react'

/**
 * The pointer's last viewport position, tracked for the component's whole life. Trees use it to split the row
 * under a drag into before / inside / after: dnd-kit reports moves from effects, after React rendered, so a
 * listener that started with the drag could run behind fast moves and leave a stale position.
 */
export function usePointer(): { current: { x: number; y: number } } {
  const pointer = useRef({ x: 0, y: 0 })
  useEffect(() => {
    const track = (e: PointerEvent) => {
      pointer.current = { x: e.clientX, y: e.clientY }
    }
    window.addEventListener('pointermove', track, { capture: true, passive: true })
    return () => window.removeEventListener('pointermove', track, { capture: true })
  }, [])
  return pointer
}
