import { useRef, useState } from 'react'
import { PointerSensor, useSensor, useSensors } from '@dnd-kit/core'
import { usePointer } from './usePointer.ts'

/**
 * A tree's drag state for dnd-kit: its sensors (a drag starts after the pointer moved `distance` pixels, so a
 * click stays a click), the dragged row, the drop target under the pointer, the pointer's position, and a guard
 * for the click that follows a drag ending where it started: `endDrag()` clears the drag and `justDragged` stays
 * true until that click has been dispatched, so it does not open the row.
 */
export function useTreeDrag<Row, Drop>(distance = 6) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance } }))
  const [dragged, setDragged] = useState<Row | null>(null)
  const [drop, setDrop] = useState<Drop | null>(null)
  const pointer = usePointer()
  const justDragged = useRef(false)
  const endDrag = () => {
    setDragged(null)
    setDrop(null)
    justDragged.current = true
    setTimeout(() => (justDragged.current = false), 0)
  }
  return { sensors, dragged, setDragged, drop, setDrop, pointer, justDragged, endDrag }
}
