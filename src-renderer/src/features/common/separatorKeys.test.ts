import { expect, it } from 'vitest'
import { keyedSize } from './separatorKeys.ts'

it('steps with the arrows (further with Shift) and jumps with Home/End, within the limits', () => {
  expect(keyedSize('ArrowRight', false, 260, [200, 480], true)).toBe(276)
  expect(keyedSize('ArrowLeft', true, 260, [200, 480], true)).toBe(200)
  // A pane right of its separator grows as the separator moves left.
  expect(keyedSize('ArrowLeft', false, 300, [280, 560], false)).toBe(316)
  expect(keyedSize('End', false, 300, [280, 560], false)).toBe(560)
  expect(keyedSize('Home', false, 300, [280, 560], false)).toBe(280)
  expect(keyedSize('Enter', false, 300, [280, 560], false)).toBeNull()
})
