/**
 * `INSERT … ON CONFLICT (key) DO UPDATE SET <update, also> WHERE <any of update differs>`: a row that already holds
 * these values is not written (no change, no trigger, no WAL frame), so writing the same state again changes no
 * row. `also` columns are set along with a change but do not make one (an `updated_at`). Parameters are named
 * after the columns (`@title`). Table and column names are the calling repository's constants, never input.
 */
export function upsertSql(
  table: string,
  key: readonly string[],
  columns: readonly string[],
  update: readonly string[],
  also: readonly string[] = []
): string {
  const set = [...update, ...also].map((c) => `${c} = excluded.${c}`).join(', ')
  const differs = `(${update.map((c) => `${table}.${c}`).join(', ')}) IS NOT (${update.map((c) => `excluded.${c}`).join(', ')})`
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})
    ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${set} WHERE ${differs}`
}
