import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { buildSearchQuery, rankSpace, searchSpace } from '../../../content/search'
import { ensureSearchIndex } from '../../../content/searchIndex'
import { createSearchPool, searchThreads } from '../../../content/searchPool'
import { workspaceFile } from '../../../workspace/workspace'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'

// Search ranked on threads (a workspace file) answers exactly what ranking in process answers, and falls back to
// it when the threads fail or the index changed while they ranked.

let dir: string
let t: TestServer
let spaceId: string

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-search-threads-'))
  t = await startTestServer({ dataDir: dir, searchThreads: 2 })
  spaceId = await t.emptySpace()
})
afterEach(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

const services = () => t.server.api.services

/** Merges one change request inserting the given pages. */
async function insertPages(space: string, pages: { title: string; markdown: string }[]): Promise<void> {
  const cr = (await t.owner.api.post(`/v1/spaces/${space}/change-requests`, { subject: 'Pages' })).body
  const changes = pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } }))
  expect((await t.owner.api.post(`/v1/spaces/${space}/change-requests/${cr.id}/content`, { changes })).status).toBe(200)
  expect((await t.owner.api.post(`/v1/spaces/${space}/change-requests/${cr.id}/merge`)).body.result).toBe('merge')
}

/** 40 pages: every one mentions "anchor" (some several times, some in a heading), so both halves of the space match. */
const PAGES = Array.from({ length: 40 }, (_, i) => ({
  title: `Page ${i}${i % 7 === 0 ? ' anchor' : ''}`,
  markdown: `Intro ${'anchor '.repeat(1 + (i % 4))}text ${i}.\n\n## Part ${i % 3 ? 'alpha' : 'anchor'}\n\nMore words ${i % 5 ? 'beta' : 'anchoring'} here.\n`
}))

// Plain words are ranked from postings on the main thread; phrases go to the threads.
const QUERIES = ['anchor', 'anc', 'anchor beta', 'alpha', 'page 1', '"intro anchor"', '"words anchoring" here']

/** Every page of every query's results (walking `next.page` with a small limit), space and organization search. */
async function everyResult(): Promise<unknown[]> {
  const results: unknown[] = []
  for (const query of QUERIES) {
    results.push(await walk(t.owner.api, `/v1/spaces/${spaceId}/search`, { query, limit: 3 }))
    results.push((await t.owner.api.get(`/v1/spaces/${spaceId}/search`, { query })).body)
    results.push((await t.owner.api.get(`/v1/orgs/${t.orgId}/search`, { query })).body)
  }
  return results
}

describe('search threads', () => {
  it('has one thread per core besides the calling one, for at most 4 parts, and none on one core', () => {
    expect([1, 2, 3, 8].map((cores) => searchThreads(cores))).toEqual([0, 1, 2, 3])
  })

  it('rank on the threads, splitting the space, and answer what ranking in process answers', async () => {
    await insertPages(spaceId, PAGES)
    const other = (await t.owner.api.post(`/v1/orgs/${t.orgId}/spaces`, { title: 'Other', empty: true })).body.id
    await insertPages(other, PAGES.slice(0, 5))
    const pool = services().searchPool!
    const run = vi.spyOn(pool, 'run')

    const threaded = await everyResult()
    // Space searches split the space's rows in three parts, two for the threads and one ranked here; organization
    // search splits the whole index. One-word queries are ranked here from their postings (searchWord.ts).
    expect(run).toHaveBeenCalled()
    expect(run.mock.calls.every(([, params]) => params.length === 2)).toBe(true)
    const anchor = threaded[1] as { items: { title: string }[]; count: number }
    expect(anchor.count).toBe(40)
    expect(anchor.items.map((p) => p.title)).toEqual(expect.arrayContaining(['Page 0 anchor', 'Page 35 anchor']))

    // The same answers, ranked in process: a closed pool (its workspace closing) makes every search fall back.
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    await pool.close()
    expect(await everyResult()).toEqual(threaded)
    expect(error).not.toHaveBeenCalled()

    // So do threads that fail (here: they cannot open the file), and the failure is said once.
    services().searchPool = createSearchPool(join(dir, 'missing.db'), 2)
    expect(await everyResult()).toEqual(threaded)
    expect(error).toHaveBeenCalledTimes(1)
    expect(String(error.mock.calls[0]![0])).toContain('Search threads failed')
    error.mockRestore()
    await services().searchPool!.close()
  })

  it('split every query, however few rows it matches: one part per thread and the last one here', async () => {
    await insertPages(spaceId, PAGES)
    await services().searchPool!.close()
    const pool = (services().searchPool = createSearchPool(workspaceFile(dir), 1))
    const run = vi.spyOn(pool, 'run')
    // The phrase "words anchoring" is on 8 sections, "intro anchor" on every page.
    const narrow = (await t.owner.api.get(`/v1/spaces/${spaceId}/search`, { query: '"words anchoring"' })).body
    expect(narrow.count).toBe(8)
    expect(run).toHaveBeenCalledTimes(1)
    expect(run.mock.calls[0]![1]).toHaveLength(1)
    const broad = (await t.owner.api.get(`/v1/spaces/${spaceId}/search`, { query: '"intro anchor"' })).body
    expect(broad.count).toBe(40)
    expect(run).toHaveBeenCalledTimes(2)
    // A one-word query is ranked here from its postings (searchWord.ts), not on the threads, with the same answer
    // as bm25() ranking in process.
    const byWord = (await t.owner.api.get(`/v1/spaces/${spaceId}/search`, { query: 'anchor' })).body
    expect(run).toHaveBeenCalledTimes(2)
    expect(byWord.count).toBe(40)
    await pool.close()
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/search`, { query: 'anchor' })).body).toEqual(byWord)
  })

  it('rank again in process when the index changed while the threads ranked', async () => {
    await insertPages(spaceId, PAGES.slice(0, 10))
    const searchPool = services().searchPool!
    const { db } = services()
    const query = buildSearchQuery('"rigid airship"')!
    const ranked = await rankSpace(db, searchPool, spaceId, query)
    expect(ranked?.matches.rids.length).toBe(0)

    // A merge lands between the ranking and the answer: the answer holds the merged page all the same.
    await insertPages(spaceId, [{ title: 'Airships', markdown: '## Zeppelin\n\nA rigid airship.\n' }])
    ensureSearchIndex(db, [spaceId])
    const found = searchSpace(db, spaceId, query, { limit: 10 }, ranked)
    expect(found.items.map((p) => [p.title, p.sections.map((s) => s.title)])).toEqual([['Airships', ['Zeppelin']]])
    expect(found).toEqual(searchSpace(db, spaceId, query, { limit: 10 }))
  })

  it('stop with the server', async () => {
    const pool = services().searchPool!
    await insertPages(spaceId, PAGES.slice(0, 3))
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/search`, { query: 'anchor' })).body.count).toBe(3)
    await t.close()
    await expect(pool.run('SELECT 1, 1', [{}])).rejects.toThrow('search pool closed')
    t = await startTestServer({ dataDir: dir, searchThreads: 2 })
  })
})
