import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../testing/harness'
import { workspaceFile } from '../workspace/workspace'
import { bm25Matches, buildSearchQuery, wordRankedMatches } from './search'
import { ensureSearchIndex, spaceRowRange } from './searchIndex'
import { plainWords } from './searchWord'

// Ranking a query of plain words from the words' postings gives bm25()'s scores to the bit, for every row, in every
// state of the index: after pages are written again (the row sizes kept in memory catch up), removed (FTS5's
// tombstones), and after another connection wrote the index.

let dir: string
let t: TestServer

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-search-word-'))
  t = await startTestServer({ dataDir: dir })
})
afterEach(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A seeded generator (mulberry32): the same pages on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = [
  'anchor',
  'anchoring',
  'anvil',
  'beta',
  'bet',
  'better',
  'cargo',
  'carbon',
  'delta',
  'dune',
  'echo',
  'x1',
  'x2y',
  'grüße',
  '文档'
]

/** Text of `n` words drawn unevenly (early words are common), so some words are on most rows and some on few. */
function text(next: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(next() ** 2 * WORDS.length)]).join(' ')
}

function page(next: () => number, i: number): { title: string; markdown: string } {
  const sections = Array.from(
    { length: 1 + Math.floor(next() * 4) },
    () => `## ${text(next, 1 + Math.floor(next() * 3))}\n\n${text(next, 1 + Math.floor(next() * 60))}\n`
  )
  // A rare word on rows with a common one of the same prefix: a short run merged into a long one row by row.
  const rare = i % 16 === 0 ? '\n\nanchor anchorage\n' : ''
  return { title: `${text(next, 2)} ${i}`, markdown: `${text(next, Math.floor(next() * 20))}\n\n${sections.join('\n')}${rare}` }
}

async function merged(space: string, changes: unknown[]): Promise<void> {
  for (let at = 0; at < changes.length; at += 50) {
    const cr = (await t.owner.api.post(`/v1/spaces/${space}/change-requests`, { subject: 'Pages' })).body
    const res = await t.owner.api.post(`/v1/spaces/${space}/change-requests/${cr.id}/content`, { changes: changes.slice(at, at + 50) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((await t.owner.api.post(`/v1/spaces/${space}/change-requests/${cr.id}/merge`)).body.result).toBe('merge')
  }
}

async function pageIds(space: string): Promise<string[]> {
  const ids: string[] = []
  const visit = (pages: { id: string; pages: unknown[] }[]) => pages.forEach((p) => (ids.push(p.id), visit(p.pages as never)))
  visit((await t.owner.api.get(`/v1/spaces/${space}/content/pages`)).body.pages)
  return ids
}

/**
 * Every one-word query (whole words and prefixes of 1 to 4 letters) and queries of two and three words (the last
 * one a prefix, a word twice) ranked both ways over each range; the rows compared.
 */
function compareAll(ranges: [number, number][]): number {
  const { db } = t.server.api.services
  const queries = new Set<string>()
  for (const word of WORDS) {
    queries.add(`${word} `)
    for (let n = 1; n <= Math.min(4, word.length); n++) queries.add(word.slice(0, n))
  }
  for (const [i, word] of WORDS.entries()) {
    const other = WORDS[(i * 7 + 3) % WORDS.length]!
    queries.add(`${word} ${other.slice(0, 3)}`)
    queries.add(`${other} ${word} `)
    queries.add(`${word} ${word} ${WORDS[(i + 1) % WORDS.length]!.slice(0, 2)}`)
  }
  let rows = 0
  for (const text of queries) {
    const match = buildSearchQuery(text)!.match
    for (const [from, to] of ranges) {
      const ranked = wordRankedMatches(db, match, from, to)
      if (!plainWords(match)) {
        expect(ranked, match).toBeUndefined()
        continue
      }
      const expected = bm25Matches(db, match, from, to)
      expect(ranked, match).toBeDefined()
      expect(Array.from(ranked!.rids), match).toEqual(Array.from(expected.rids))
      expect(Array.from(ranked!.scores), match).toEqual(Array.from(expected.scores))
      rows += expected.rids.length
    }
  }
  return rows
}

describe('plain-word ranking', () => {
  it('scores every row as bm25() does, through edits, removals and another connection writing the index', async () => {
    const next = random(19)
    const big = await t.emptySpace('Big')
    const small = await t.emptySpace('Small')
    await merged(
      big,
      Array.from({ length: 120 }, (_, i) => ({
        operation: 'insert_page',
        ...page(next, i),
        document: { markdown: page(next, i).markdown }
      }))
    )
    await merged(
      small,
      Array.from({ length: 20 }, (_, i) => ({ operation: 'insert_page', ...page(next, i), document: { markdown: page(next, i).markdown } }))
    )
    const { db } = t.server.api.services
    ensureSearchIndex(db)
    const ranges = (): [number, number][] => [spaceRowRange(db, big)!, spaceRowRange(db, small)!, [0, Number.MAX_SAFE_INTEGER]]
    // Thousands of rows compared, and prefixes that span several terms ("an", "bet", "x").
    expect(compareAll(ranges())).toBeGreaterThan(5000)

    // Pages written again (sections added, dropped, changed) and pages removed: the kept sizes catch up.
    const ids = await pageIds(big)
    await merged(big, [
      ...ids.slice(0, 30).map((page) => ({
        operation: 'update_page',
        page,
        document: { markdown: `${text(next, 5)}\n\n## ${text(next, 2)}\n\n${text(next, 80)}\n` }
      })),
      ...ids.slice(30, 45).map((page) => ({ operation: 'delete_page', page }))
    ])
    ensureSearchIndex(db)
    compareAll(ranges())

    // Another connection writes the index (a row of the big space's range): this one reads every size again.
    const other = new Database(workspaceFile(dir))
    other
      .prepare('INSERT INTO search_sections (rowid, title, body) VALUES (?, ?, ?)')
      .run(BigInt(spaceRowRange(db, big)![0] + 4096 * 1000), 'anchor', 'anchor anvil beta beta')
    other.close()
    compareAll(ranges())
  })

  it('is taken only for ASCII words, whole or a prefix, that must all match', () => {
    expect(plainWords(buildSearchQuery('Anchor')!.match)).toEqual([{ term: 'anchor', prefix: true }])
    expect(plainWords(buildSearchQuery('x2y ')!.match)).toEqual([{ term: 'x2y', prefix: false }])
    expect(plainWords(buildSearchQuery('anchor Beta')!.match)).toEqual([
      { term: 'anchor', prefix: false },
      { term: 'beta', prefix: true }
    ])
    for (const text of ['grüße', '文档', 'anchor grüße', '"anchor beta"', '"x and y"', 'class', 'anchor class'])
      expect(plainWords(buildSearchQuery(text)!.match), text).toBeUndefined()
  })
})
