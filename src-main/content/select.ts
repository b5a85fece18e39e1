/**
 * The k-th smallest value of `values` (0-based), in O(n) on average (Hoare's selection): ranking keeps the best
 * hundred of thousands of scores, where a full sort costs several times more. Reorders `values` in place.
 */
export function kthSmallest(values: Float64Array, k: number): number {
  if (k < 0 || k >= values.length) throw new RangeError(`k must be within 0..${values.length - 1}, got ${k}`)
  let lo = 0
  let hi = values.length - 1
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!
    let i = lo
    let j = hi
    while (i <= j) {
      while (values[i]! < pivot) i++
      while (values[j]! > pivot) j--
      if (i <= j) {
        const t = values[i]!
        values[i] = values[j]!
        values[j] = t
        i++
        j--
      }
    }
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else return values[k]!
  }
  return values[k]!
}
