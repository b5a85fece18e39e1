import type { Db } from '../database'

const statements = new WeakMap<Db, Map<string, ReturnType<Db['prepare']>>>()

/**
 * `UPDATE <table> SET <the patch's columns> WHERE id = @id`. Column names come from the typed patch keys of
 * the calling repository, never from request input; one statement is prepared per table and set of columns.
 */
export function updateById(db: Db, table: string, id: string, patch: object): void {
  const keys = Object.keys(patch)
    .filter((k) => (patch as Record<string, unknown>)[k] !== undefined)
    .sort()
  if (!keys.length) return
  const sql = `UPDATE ${table} SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`
  let byDb = statements.get(db)
  if (!byDb) statements.set(db, (byDb = new Map()))
  let statement = byDb.get(sql)
  if (!statement) byDb.set(sql, (statement = db.prepare(sql)))
  const params: Record<string, unknown> = { id }
  for (const k of keys) params[k] = (patch as Record<string, unknown>)[k]
  statement.run(params)
}
