import type Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startTestServer, type TestServer } from '../testing/harness'
import { dropSearchIndex, indexedRows, spaceRowRange, syncSearchIndex } from './searchIndex'

// Moving a space's index from one revision to the next rewrites only the rows whose text, section, page title or
// path changed, and leaves the index exactly as indexing the new revision from scratch would.

let t: TestServer
let spaceId: string

beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace()
})
afterEach(async () => {
  vi.restoreAllMocks()
  await t.close()
})

const db = () => t.server.api.services.db

/** Applies one change request of the given changes and merges it; answers the space's new primary revision. */
async function merge(changes: unknown[]): Promise<string> {
  const cr = (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' })).body
  expect((await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes })).status).toBe(200)
  expect((await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).body.result).toBe('merge')
  return db().prepare<[string], string>('SELECT revision_id FROM spaces WHERE id = ?').pluck().get(spaceId)!
}

/**
 * The space's rows by page and position in the page (page numbers differ between an update and a rebuild): the
 * words the index holds for each (read from the index itself through fts5vocab: it keeps no text) and what search
 * shows of the row (its page and section, read back by indexedRows).
 */
function rows(): Record<string, unknown>[] {
  const [from, to] = spaceRowRange(db(), spaceId)!
  db().exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_terms USING fts5vocab(main, search_sections, instance)')
  const terms = db()
    .prepare<[number, number], { doc: number; col: string; term: string }>(
      'SELECT doc, col, term FROM temp.search_terms WHERE doc >= ? AND doc < ? ORDER BY doc, col, offset'
    )
    .all(from, to)
  const words = new Map<number, { title: string[]; body: string[] }>()
  for (const { doc, col, term } of terms) {
    const row = words.get(doc) ?? { title: [], body: [] }
    row[col as 'title' | 'body'].push(term)
    words.set(doc, row)
  }
  const shown = indexedRows(db(), words.keys())
  return [...words]
    .map(([rid, w]) => {
      const r = shown.get(rid)!
      return {
        page_id: r.pageId,
        position: rid % 4096,
        section_id: r.sectionId,
        title: r.title,
        body: r.body,
        page_title: r.pageTitle,
        path: r.path,
        words: `${w.title.join(' ')} | ${w.body.join(' ')}`
      }
    })
    .sort((a, b) => (a.page_id < b.page_id ? -1 : a.page_id > b.page_id ? 1 : a.position - b.position))
}

const sync = (revision: string) => db().transaction(() => syncSearchIndex(db(), spaceId, revision))()

describe('search index updates', () => {
  it('rewrite only the rows that changed, and end where a rebuild would', async () => {
    const guide = '# Guide\n\nIntro text.\n\n## Install\n\nRun the installer.\n\n## Configure\n\nEdit the file.\n'
    const first = await merge([
      { operation: 'insert_page', title: 'Guide', document: { markdown: guide } },
      { operation: 'insert_page', title: 'Notes', document: { markdown: '## One\n\nFirst note.\n\n## Two\n\nSecond note.\n' } },
      { operation: 'insert_page', title: 'Other', document: { markdown: 'Plain text only.\n' } }
    ])
    const pages = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as { id: string; title: string }[]
    const id = (title: string) => pages.find((p) => p.title === title)!.id
    // One section of Guide is edited; Notes is renamed (its title is on its title row only); Other is left alone.
    const second = await merge([
      {
        operation: 'update_page',
        page: id('Guide'),
        document: { markdown: guide.replace('Run the installer.', 'Run the new installer.') }
      },
      { operation: 'update_page', page: id('Notes'), title: 'Field notes' }
    ])

    dropSearchIndex(db(), spaceId)
    sync(first)
    const written: string[] = []
    const Statement = Object.getPrototypeOf(db().prepare('SELECT 1')) as Database.Statement
    const run = Statement.run
    vi.spyOn(Statement, 'run').mockImplementation(function (this: Database.Statement, ...args: unknown[]) {
      if (/^(INSERT INTO|DELETE FROM) search_sections\b/.test(this.source)) written.push(`${this.source.split(' ')[0]} ${String(args[0])}`)
      return run.apply(this, args as [])
    })
    sync(second)
    vi.restoreAllMocks()
    const updated = rows()

    // Guide: its Install section only (a delete and an insert); Notes: its title row only.
    expect(written.filter((w) => w.startsWith('DELETE'))).toHaveLength(2)
    expect(written.filter((w) => w.startsWith('INSERT'))).toHaveLength(2)
    expect(updated).toContainEqual(
      expect.objectContaining({
        section_id: 'install',
        body: 'Run the new installer.',
        page_title: 'Guide',
        words: 'install | run the new installer'
      })
    )
    expect(updated.filter((r) => r.page_title === 'Field notes')).toHaveLength(3)
    expect(updated).toContainEqual(expect.objectContaining({ section_id: '', title: 'Field notes', words: 'field notes | ' }))

    dropSearchIndex(db(), spaceId)
    sync(second)
    expect(updated).toEqual(rows())
  })

  it('follow sections that are added, removed and moved within a page', async () => {
    const text = (sections: string[]) => `Intro.\n\n${sections.map((s) => `## ${s}\n\nAbout ${s}.\n`).join('\n')}`
    const first = await merge([{ operation: 'insert_page', title: 'Book', document: { markdown: text(['One', 'Two', 'Three', 'Four']) } }])
    const page = ((await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as { id: string }[])[0]!.id
    const steps = [['One', 'Three', 'Four'], ['One', 'Three', 'Four', 'Five', 'Six'], ['Six', 'One'], []]
    let previous = first
    for (const sections of steps) {
      const next = await merge([{ operation: 'update_page', page, document: { markdown: text(sections) } }])
      dropSearchIndex(db(), spaceId)
      sync(previous)
      sync(next)
      const updated = rows()
      dropSearchIndex(db(), spaceId)
      sync(next)
      expect(updated).toEqual(rows())
      expect(updated.map((r) => r.section_id)).toEqual(['', ...sections.map((s) => s.toLowerCase())])
      previous = next
    }
  })
})
