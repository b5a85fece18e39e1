import type { Db } from '../database'

const instances = new WeakMap<Db, Map<unknown, unknown>>()

/**
 * One instance of a repository per database, so its prepared statements are compiled once and reused by every
 * request. Repositories are plain factories `(db) => ({ ...methods })`.
 */
export function repository<T>(db: Db, factory: (db: Db) => T): T {
  let byFactory = instances.get(db)
  if (!byFactory) instances.set(db, (byFactory = new Map()))
  let repo = byFactory.get(factory) as T | undefined
  if (!repo) byFactory.set(factory, (repo = factory(db)))
  return repo
}
