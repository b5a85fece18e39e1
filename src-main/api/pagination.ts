import { dataVersion } from '../storage/database'
import { badRequest } from '../base/errors'
import type { Ctx } from '../workspace/context'

export const DEFAULT_LIMIT = 100

export interface PageArgs {
  page?: string
  limit?: number
}

/** Opaque page identifier: the keyset (sort values of the last row) as base64url JSON. */
export function encodeCursor(key: unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

/** What one position of a list's sort key holds: `integer` for `seq`s, `number` for positions and scores. */
export type CursorField = 'string' | 'number' | 'integer' | 'string?'

type FieldValue<F extends CursorField> = F extends 'string' ? string : F extends 'string?' ? string | null : number

export type Cursor<T extends readonly CursorField[]> = { -readonly [K in keyof T]: FieldValue<T[K]> }

export const INVALID_CURSOR = 'page: invalid cursor'

/**
 * The sort key a `page` identifier encodes, checked against the list's key (`fields`, one per position): a forged
 * one answers 400 before any of it reaches SQL (better-sqlite3 cannot bind an object or a boolean, and a
 * key of the wrong type would page wrongly).
 */
export function decodeCursor<const T extends readonly CursorField[]>(page: string | undefined, fields: T): Cursor<T> | undefined {
  if (page === undefined || page === '') return undefined
  let key: unknown
  try {
    key = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'))
  } catch {
    throw badRequest(INVALID_CURSOR)
  }
  if (!Array.isArray(key) || key.length !== fields.length || !fields.every((field, i) => fits(field, key[i]))) {
    throw badRequest(INVALID_CURSOR)
  }
  return key as Cursor<T>
}

function fits(field: CursorField, value: unknown): boolean {
  switch (field) {
    case 'string':
      return typeof value === 'string'
    case 'string?':
      return value === null || typeof value === 'string'
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'integer':
      return Number.isSafeInteger(value)
  }
}

export interface ListEnvelope<T> {
  items: T[]
  count: number
  next?: { page: string }
}

/**
 * Builds the list envelope from rows fetched with `LIMIT limit + 1` after the cursor: the extra row only
 * tells that a next page exists. `key` gives the sort values of a row (ending with its unique tiebreaker).
 */
export function envelope<Row, Item>(
  rows: Row[],
  limit: number,
  count: number,
  key: (row: Row) => unknown[],
  present: (rows: Row[]) => Item[]
): ListEnvelope<Item> {
  const more = rows.length > limit
  const pageRows = more ? rows.slice(0, limit) : rows
  const result: ListEnvelope<Item> = { items: present(pageRows), count }
  if (more) result.next = { page: encodeCursor(key(pageRows[pageRows.length - 1]!)) }
  return result
}

const countsByDb = new WeakMap<object, Map<string, { writes: number; dataVersion: number; value: number }>>()

/**
 * A list's total, cached until the next write. Counting every matching row on each page would make deep pages
 * of large lists cost O(n); this keeps pages flat. Writes from this process bump `services.writes`; writes
 * from another process (the CLI beside a running server) change SQLite's `data_version`.
 */
export function cachedCount(ctx: Ctx, key: string, compute: () => number): number {
  const writes = ctx.services.writes
  const version = dataVersion(ctx.db)
  let counts = countsByDb.get(ctx.db)
  if (!counts) countsByDb.set(ctx.db, (counts = new Map()))
  const hit = counts.get(key)
  if (hit && hit.writes === writes && hit.dataVersion === version) return hit.value
  const value = compute()
  if (counts.size > 10_000) counts.clear()
  counts.set(key, { writes, dataVersion: version, value })
  return value
}
