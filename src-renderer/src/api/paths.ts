// Building API paths. Pure (tested under Node).

/** `/v1/x` + `{a: 1, b: undefined}` → `/v1/x?a=1` (undefined and empty values are left out). */
export function withQuery(path: string, query: Record<string, string | number | boolean | null | undefined>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value))
  }
  const qs = params.toString()
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path
}
