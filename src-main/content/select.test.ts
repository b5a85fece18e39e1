import { describe, expect, it } from 'vitest'
import { kthSmallest } from './select'

describe('kthSmallest', () => {
  it('finds the k-th smallest value as a sort would, duplicates and all', () => {
    let seed = 42
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (const n of [1, 2, 3, 10, 101, 1000, 4677]) {
      for (const spread of [3, 1e6]) {
        const values = Float64Array.from({ length: n }, () => Math.floor(random() * spread) - spread / 2)
        const sorted = Float64Array.from(values).sort()
        for (const k of [0, Math.floor(n / 3), n - 1]) expect(kthSmallest(Float64Array.from(values), k)).toBe(sorted[k])
      }
    }
  })

  it('refuses a k outside the values', () => {
    expect(() => kthSmallest(new Float64Array(3), 3)).toThrow(RangeError)
    expect(() => kthSmallest(new Float64Array(0), 0)).toThrow(RangeError)
  })
})
