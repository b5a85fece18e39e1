import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dropSearchIndex, scheduleStaleSearchIndexes } from '../../../content/searchIndex'
import { startTestServer, walk, type Client, type TestServer } from '../../../testing/harness'

let t: TestServer
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await newSpace('Docs')
})
afterEach(() => t.close())

async function newSpace(title: string, api: Client = t.owner.api): Promise<string> {
  const res = await api.post(`/v1/orgs/${t.orgId}/spaces`, { title, empty: true })
  expect(res.status).toBe(201)
  return res.body.id
}

/** Applies one batch of changes through a change request, merges it, and returns the primary pages by title. */
async function edit(space: string, changes: unknown[]): Promise<Record<string, string>> {
  const cr = (await t.owner.api.post(`/v1/spaces/${space}/change-requests`, { subject: 'Edit' })).body
  const batch = await t.owner.api.post(`/v1/spaces/${space}/change-requests/${cr.id}/content`, { changes })
  expect(batch.status).toBe(200)
  expect((await t.owner.api.post(`/v1/spaces/${space}/change-requests/${cr.id}/merge`)).body.result).toBe('merge')
  const ids: Record<string, string> = {}
  const visit = (pages: any[]) => pages.forEach((p) => ((ids[p.title] = p.id), visit(p.pages)))
  visit((await t.owner.api.get(`/v1/spaces/${space}/content/pages`)).body.pages)
  return ids
}
const insert = (title: string, markdown: string, extra: Record<string, unknown> = {}) => ({
  operation: 'insert_page',
  title,
  document: { markdown },
  ...extra
})
const search = (query: string, params: Record<string, unknown> = {}, api: Client = t.owner.api, space = spaceId) =>
  api.get(`/v1/spaces/${space}/search`, { query, ...params })

const GUIDE = `Welcome text about the product.

## Installation

Run the setup wizard and pick a folder.

## Configuration

Edit the settings file to change the theme.
`

describe('GET /v1/spaces/{spaceId}/search', () => {
  it('answers 401 without a token, 404 for unknown spaces and non-members', async () => {
    expect((await t.anonymous.get(`/v1/spaces/${spaceId}/search`, { query: 'x' })).status).toBe(401)
    const missing = await search('x', {}, t.owner.api, 'nope')
    expect(missing.status).toBe(404)
    expect(missing.body.error).toEqual({ code: 404, message: 'Space not found' })
    const outsider = await t.user({ role: 'none' })
    expect((await search('x', {}, outsider.api)).status).toBe(404)
    const guest = await t.user({ role: null })
    expect((await search('x', {}, guest.api)).status).toBe(404)
  })

  it('validates query, limit and page', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'query: is required'],
      [{ query: '' }, 'query: must be at least 1 characters'],
      [{ query: 'x'.repeat(513) }, 'query: must be at most 512 characters'],
      [{ query: 'x', limit: 0 }, 'limit: must be at least 1'],
      [{ query: 'x', limit: 1001 }, 'limit: must be at most 1000'],
      [{ query: 'x', page: 'garbage' }, 'page: invalid cursor'],
      [{ query: 'x', page: Buffer.from(JSON.stringify(['a', 'b'])).toString('base64url') }, 'page: invalid cursor']
    ]
    for (const [query, message] of cases) {
      const res = await t.owner.api.get(`/v1/spaces/${spaceId}/search`, query)
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message })
    }
    expect((await search('x'.repeat(512))).status).toBe(200)
  })

  it('finds a word of a just-merged page with the section it is under', async () => {
    const before = await search('wizard')
    expect(before.body).toEqual({ items: [], count: 0 })
    const ids = await edit(spaceId, [insert('Getting started', GUIDE)])
    const res = await search('wizard')
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(1)
    expect(res.body.next).toBeUndefined()
    const page = res.body.items[0]
    const app = `${t.url}/#/spaces/${spaceId}/pages/${ids['Getting started']}`
    expect(page).toEqual({
      id: ids['Getting started'],
      title: 'Getting started',
      description: '',
      path: 'getting-started',
      score: expect.any(Number),
      rank: 1,
      ancestors: [],
      urls: { app },
      sections: [
        {
          id: 'installation',
          title: 'Installation',
          path: 'getting-started#installation',
          body: 'Run the setup wizard and pick a folder.',
          score: page.score,
          urls: { app: `${app}#installation` }
        }
      ]
    })
    expect(page.score).toBeGreaterThan(0)
  })

  it('gives each page its description, its ancestors top-level first, a higher-better score and its rank across list pages', async () => {
    await edit(spaceId, [
      insert('Handbook', 'Top.\n', { ref: 'top' }),
      insert('Setup', 'Middle.\n', { ref: 'mid', into: 'top' }),
      insert('Wizard', 'The wizard wizard wizard.\n', { into: 'mid', description: 'All about the wizard' }),
      insert('Other', 'A wizard here, and many other words around it to dilute it somewhat.\n'),
      insert('Third', 'Wizard.\n\nMore text, more text, more text, more text, more text, more text, more text.\n')
    ])
    const all = (await search('wizard')).body.items
    expect(all.map((p: any) => p.rank)).toEqual([1, 2, 3])
    for (let i = 1; i < all.length; i++) expect(all[i].score).toBeLessThanOrEqual(all[i - 1].score)
    const wizard = all.find((p: any) => p.title === 'Wizard')
    expect(wizard).toMatchObject({ description: 'All about the wizard', ancestors: [{ title: 'Handbook' }, { title: 'Setup' }] })
    expect(all.find((p: any) => p.title === 'Other')).toMatchObject({ description: '', ancestors: [] })
    // Paged one by one, each page keeps its rank in the whole list.
    const paged: any[] = []
    let cursor: string | undefined
    do {
      const res = (await search('wizard', { limit: 1, ...(cursor ? { page: cursor } : {}) })).body
      paged.push(...res.items)
      cursor = res.next?.page
    } while (cursor)
    expect(paged.map((p) => [p.id, p.rank])).toEqual(all.map((p: any) => [p.id, p.rank]))
  })

  it('does not search change requests before they merge, and forgets removed pages', async () => {
    const ids = await edit(spaceId, [insert('Getting started', GUIDE)])
    const cr = (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, {})).body
    await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      changes: [
        {
          operation: 'update_page',
          page: ids['Getting started'],
          document: { markdown: `${GUIDE}\n## Upgrading\n\nDownload the zeppelin build.\n` }
        }
      ]
    })
    expect((await search('zeppelin')).body.count).toBe(0)
    await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)
    const found = await search('zeppelin')
    expect(found.body.items[0].sections.map((s: any) => s.id)).toEqual(['upgrading'])

    await edit(spaceId, [{ operation: 'delete_page', page: ids['Getting started'] }])
    expect((await search('zeppelin')).body).toEqual({ items: [], count: 0 })
  })

  it('keeps the index in step after a merge: in the background, and before any search that reads it', async () => {
    const db = t.server.api.services.db
    const state = () => db.prepare<[string], string>('SELECT revision_id FROM search_state WHERE space_id = ?').pluck().get(spaceId)
    const primary = () => db.prepare<[string], string>('SELECT revision_id FROM spaces WHERE id = ?').pluck().get(spaceId)
    const before = primary()
    await edit(spaceId, [insert('Airships', 'The zeppelin hangar is north of the field.')])
    // The merge answered before the index caught up; it does so on the next turns of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(state()).toBe(primary())
    expect(state()).not.toBe(before)

    // An index left behind (a merge committed by another process, a catch-up that failed) catches up before
    // the space's search answers.
    db.prepare('UPDATE search_state SET revision_id = ? WHERE space_id = ?').run(before, spaceId)
    dropSearchIndex(db, spaceId)
    expect((await search('zeppelin')).body.items.map((p: any) => p.title)).toEqual(['Airships'])
    expect(state()).toBe(primary())
  })

  it('at start-up, indexes left behind their space catch up in the background (startMaintenance)', async () => {
    const db = t.server.api.services.db
    const before = db.prepare<[string], string>('SELECT revision_id FROM spaces WHERE id = ?').pluck().get(spaceId)
    await edit(spaceId, [insert('Airships', 'The zeppelin hangar is north of the field.')])
    await new Promise((resolve) => setTimeout(resolve, 50))
    db.prepare('UPDATE search_state SET revision_id = ? WHERE space_id = ?').run(before, spaceId)
    scheduleStaleSearchIndexes(db)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const state = db
      .prepare('SELECT st.revision_id = s.revision_id FROM spaces s JOIN search_state st ON st.space_id = s.id WHERE s.id = ?')
      .pluck()
      .get(spaceId)
    expect(state).toBe(1)
  })

  it('ranks title matches first, matches the last word as a prefix, and needs every word', async () => {
    await edit(spaceId, [
      insert('Notes', 'Some text that mentions a telescope in passing, among many other words that dilute it.'),
      insert('Telescope', 'All about it.'),
      insert('Lenses', '## Mirrors\n\nA telescope mirror is polished.')
    ])
    const ranked = (await search('telescope ')).body
    expect(ranked.count).toBe(3)
    expect(ranked.items[0].title).toBe('Telescope')
    // The text before the first heading is a section without an id; its path is the page's.
    expect(ranked.items[0].sections).toEqual([
      expect.objectContaining({ id: '', title: 'Telescope', path: 'telescope', body: 'All about it.' })
    ])

    expect((await search('telesc')).body.items.map((p: any) => p.title).sort()).toEqual(['Lenses', 'Notes', 'Telescope'])
    // A complete word (followed by a space) is not a prefix.
    expect((await search('telesc ')).body.count).toBe(0)
    expect((await search('telescope mirror')).body.items.map((p: any) => p.title)).toEqual(['Lenses'])
    expect((await search('TÉLÉSCOPE mirror')).body.items.map((p: any) => p.title)).toEqual(['Lenses'])
  })

  it('still ranks by frequency and length a word that is on most sections', async () => {
    // bm25's idf of a word on more than half of the rows is clamped to a millionth: the scores that are left must
    // not collapse into ties (which would fall back to page order).
    await edit(spaceId, [
      insert(
        'First',
        `Quire has a long page here. ${'Many unrelated words follow to make this body longer than the rest. '.repeat(4)}And quire again.`
      ),
      insert('Second', 'Quire quire quire.'),
      insert('Third', `Quire ${'and some filler words '.repeat(3)}quire.`)
    ])
    expect((await search('quire ')).body.items.map((p: any) => p.title)).toEqual(['Second', 'Third', 'First'])
  })

  it("finds the text inside GitBook's block tags, and not the tag lines", async () => {
    await edit(spaceId, [
      insert('Tags', '# Tags\n\n## Upgrade\n{% hint style="warning" %}\nMigrate the zanzibar schema first.\n{% endhint %}\n')
    ])
    const found = (await search('zanzibar')).body
    expect(found.items).toEqual([
      expect.objectContaining({
        title: 'Tags',
        sections: [expect.objectContaining({ id: 'upgrade', body: 'Migrate the zanzibar schema first.' })]
      })
    ])
    for (const word of ['endhint', 'warning']) expect((await search(word)).body.count, word).toBe(0)
  })

  it('treats search syntax as plain words', async () => {
    await edit(spaceId, [insert('Operators', 'Use NEAR and OR and AND with title: prefixes.')])
    for (const query of ['"unbalanced', 'NEAR(', 'title:operators', 'a OR', '*', '-x', '^near', 'near"', '()', '!!!', 'and or not']) {
      const res = await search(query)
      expect(res.status, query).toBe(200)
    }
    expect((await search('title:operators')).body.count).toBe(1)
    expect((await search('!!!')).body).toEqual({ items: [], count: 0 })
  })

  it('walks pages of results in rank order, each page once', async () => {
    await edit(
      spaceId,
      Array.from({ length: 7 }, (_, i) => insert(`Page ${i}`, `${'filler '.repeat(i * 3)}comet\n\n## Tail ${i}\n\nAnother comet here.`))
    )
    const full = (await search('comet', { limit: 1000 })).body
    expect(full.count).toBe(7)
    const { items, pages } = await walk(t.owner.api, `/v1/spaces/${spaceId}/search`, { query: 'comet', limit: 2 })
    expect(items.map((p) => p.id)).toEqual(full.items.map((p: any) => p.id))
    expect(new Set(items.map((p) => p.id)).size).toBe(7)
    expect(pages).toHaveLength(4)
    expect(pages.every((p) => p.count === 7)).toBe(true)
    expect(pages.at(-1).next).toBeUndefined()
    // Shorter documents rank first (bm25 normalizes by length).
    expect(full.items[0].title).toBe('Page 0')
  })

  it('lets readers search and keeps spaces apart', async () => {
    await edit(spaceId, [insert('Alpha', 'The quasar is bright.')])
    const other = await newSpace('Other')
    await edit(other, [insert('Beta', 'Another quasar.')])
    const reader = await t.user({ role: 'read' })
    const res = await search('quasar', {}, reader.api)
    expect(res.status).toBe(200)
    expect(res.body.items.map((p: any) => p.title)).toEqual(['Alpha'])
  })

  it('numbers a space anew when its page numbers run out, keeping every page findable', async () => {
    const db = t.server.api.services.db
    const ids = await edit(spaceId, [insert('Alpha', 'The nebula drifts.'), insert('Beta', 'A nebula glows.')])
    // Pretend the space has handed out all but one of its page numbers: the next two new pages do not fit.
    db.prepare('UPDATE search_spaces SET next_page = ? WHERE space_id = ?').run(2 ** 20 - 1, spaceId)
    await edit(spaceId, [
      insert('Gamma', 'Nebula dust.'),
      insert('Delta', 'Nebula gas.'),
      { operation: 'update_page', page: ids.Alpha, title: 'Alpha one' }
    ])
    await search('x')
    const found = (await search('nebula', { limit: 1000 })).body
    expect(found.items.map((p: any) => p.title).sort()).toEqual(['Alpha one', 'Beta', 'Delta', 'Gamma'])
    expect(db.prepare('SELECT next_page FROM search_spaces WHERE space_id = ?').pluck().get(spaceId)).toBe(4)
    // Each page's rows are in one place: page numbers are distinct.
    const ords = db
      .prepare('SELECT ord FROM search_pages WHERE space_ord = (SELECT ord FROM search_spaces WHERE space_id = ?)')
      .pluck()
      .all(spaceId)
    expect(new Set(ords).size).toBe(4)
  })

  it('hands out the number of a removed space again once every number is taken', async () => {
    const db = t.server.api.services.db
    await edit(spaceId, [insert('Alpha', 'The pulsar spins.')])
    // The largest number is taken (by a space that no longer exists): a new space gets a free one below it.
    db.prepare("INSERT INTO search_spaces (space_id, ord, next_page) VALUES ('gone', ?, 0)").run(2 ** 21 - 1)
    const other = await newSpace('Other')
    await edit(other, [insert('Beta', 'Another pulsar.')])
    const ord = db.prepare<[string], number>('SELECT ord FROM search_spaces WHERE space_id = ?').pluck().get(other)!
    expect(ord).toBeLessThan(2 ** 21 - 1)
    expect((await search('pulsar', {}, t.owner.api, other)).body.items.map((p: any) => p.title)).toEqual(['Beta'])
    expect((await search('pulsar')).body.items.map((p: any) => p.title)).toEqual(['Alpha'])
  })

  it('keeps every section of a page with very many headings findable', async () => {
    const markdown = Array.from({ length: 4200 }, (_, i) => `## Heading ${i}\n\nText ${i === 4150 ? 'quokka' : 'plain'}.`).join('\n\n')
    await edit(spaceId, [insert('Huge', markdown)])
    const found = (await search('quokka')).body
    expect(found.items.map((p: any) => p.title)).toEqual(['Huge'])
    expect(found.items[0].sections[0].body).toContain('quokka')
  })
})

describe('text in every language', () => {
  const orgSearch = (query: string) => t.owner.api.get(`/v1/orgs/${t.orgId}/search`, { query })
  const titles = async (query: string) => (await search(query)).body.items.map((p: any) => p.title).sort()
  const spacesOf = async (query: string) => (await orgSearch(query)).body.items.map((s: any) => s.title).sort()

  it('finds Chinese, Japanese and Korean words inside running text, in space and organization search', async () => {
    await edit(spaceId, [
      insert('Chinese', '这是一个文档系统，用于团队。'),
      insert('Japanese', '東京のラーメン屋は美味しいです。'),
      insert('Korean', '한국어 문서를 작성합니다.'),
      insert('Mixed', 'The API文档 lives here.')
    ])
    expect(await titles('文档')).toEqual(['Chinese', 'Mixed'])
    expect(await titles('文档系统')).toEqual(['Chinese'])
    expect(await titles('ラーメン')).toEqual(['Japanese'])
    expect(await titles('东京')).toEqual([])
    expect(await titles('東京 ラーメン')).toEqual(['Japanese'])
    expect(await titles('문서')).toEqual(['Korean'])
    expect(await titles('api文档')).toEqual(['Mixed'])
    // Characters of a word out of order, or apart, are not the word.
    expect(await titles('档文')).toEqual([])
    expect(await titles('文系')).toEqual([])
    // The excerpt is the text as written, and starts where it should.
    const hit = (await search('ラーメン')).body.items[0]
    expect(hit.sections[0].body).toBe('東京のラーメン屋は美味しいです。')
    expect(hit.title).toBe('Japanese')

    const other = await newSpace('Other')
    await edit(other, [insert('更多文档', '别的内容。')])
    expect(await spacesOf('文档')).toEqual(['Docs', 'Other'])
    expect((await orgSearch('文档')).body.items.find((s: any) => s.title === 'Other').pages[0].title).toBe('更多文档')
    expect(await spacesOf('한국어')).toEqual(['Docs'])
  })

  it('folds case, diacritics and ß/ss alike in space and organization search', async () => {
    await edit(spaceId, [
      insert('Maße', 'Die Größe der Tabelle.'),
      insert('Adresse', 'Wohnt in der Strasse am Bach.'),
      insert('Other', 'Die GROSSE Halle.')
    ])
    for (const query of ['GRÖSSE', 'Größe', 'größe', 'GROSSE', 'grosse']) expect(await titles(query), query).toEqual(['Maße', 'Other'])
    for (const query of ['Straße', 'strasse', 'STRASSE']) expect(await titles(query), query).toEqual(['Adresse'])
    expect(await titles('masse')).toEqual(['Maße'])
    // A prefix of a word with ß.
    expect(await titles('Stra')).toEqual(['Adresse'])
    expect(await titles('Größ')).toEqual(['Maße', 'Other'])
    expect(await spacesOf('GRÖSSE')).toEqual(['Docs'])
    expect(await spacesOf('straße')).toEqual(['Docs'])
    // The excerpt shows the text as written.
    expect((await search('Strasse')).body.items[0].sections[0].body).toBe('Wohnt in der Strasse am Bach.')
  })

  it('matches a quoted phrase only where its words are adjacent and in order; prefixes still work', async () => {
    await edit(spaceId, [
      insert('Adjacent', 'Read the install guide first.'),
      insert('Apart', 'A guide to everything you install.'),
      insert('Reversed', 'This guide install is odd.')
    ])
    expect(await titles('install guide')).toEqual(['Adjacent', 'Apart', 'Reversed'])
    expect(await titles('"install guide"')).toEqual(['Adjacent'])
    expect(await titles('"guide install"')).toEqual(['Reversed'])
    expect(await titles('"the install guide" first')).toEqual(['Adjacent'])
    expect(await titles('"install guide" odd')).toEqual([])
    expect(await titles('"文档系统"')).toEqual([])
    // The last word, unquoted, is a prefix; a quoted word is whole.
    expect(await titles('guide instal')).toEqual(['Adjacent', 'Apart', 'Reversed'])
    expect(await titles('"instal"')).toEqual([])
    expect((await orgSearch('"install guide"')).body.items[0].pages.map((p: any) => p.title)).toEqual(['Adjacent'])
  })

  it('rebuilds an index in the background once its state is forgotten (migration 18)', async () => {
    await edit(spaceId, [insert('Chinese', '这是一个文档系统。')])
    await new Promise((resolve) => setTimeout(resolve, 50))
    const db = t.server.api.services.db
    // An index of the old form: the CJK run as one word.
    const rowid = db.prepare<[], number>(`SELECT rowid FROM search_sections WHERE search_sections MATCH '"文 档"'`).pluck().get()!
    db.prepare('DELETE FROM search_sections WHERE rowid = ?').run(rowid)
    db.prepare('INSERT INTO search_sections (rowid, title, body) VALUES (?, ?, ?)').run(rowid, 'Chinese', '这是一个文档系统。')
    expect(await titles('文档')).toEqual([])
    db.exec('DELETE FROM search_state')
    scheduleStaleSearchIndexes(db)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(db.prepare('SELECT count(*) FROM search_state').pluck().get()).toBe(1)
    expect(await titles('文档')).toEqual(['Chinese'])
  })
})

describe('GET /v1/orgs/{organizationId}/search', () => {
  const orgSearch = (query: string, api: Client = t.owner.api, params: Record<string, unknown> = {}) =>
    api.get(`/v1/orgs/${t.orgId}/search`, { query, ...params })

  it('answers 401, 404 for non-members and validates the query', async () => {
    expect((await t.anonymous.get(`/v1/orgs/${t.orgId}/search`, { query: 'x' })).status).toBe(401)
    const outsider = await t.user({ role: 'none' })
    expect((await orgSearch('x', outsider.api)).status).toBe(404)
    expect((await t.owner.api.get('/v1/orgs/nope/search', { query: 'x' })).status).toBe(404)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/search`, {})).body.error.message).toBe('query: is required')
    expect((await orgSearch('y'.repeat(513))).body.error).toEqual({ code: 400, message: 'query: must be at most 512 characters' })
  })

  it('groups pages by space, best space first', async () => {
    const ids = await edit(spaceId, [insert('Nebula', 'Nebula overview.'), insert('Stars', '## Dust\n\nA nebula is dust.')])
    const other = await newSpace('Other')
    const otherIds = await edit(other, [insert('Misc', 'Text with many words before the nebula appears once at the end of it all.')])
    const res = await orgSearch('nebula')
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(2)
    expect(res.body.items.map((s: any) => s.title)).toEqual(['Docs', 'Other'])
    expect(res.body.items[0]).toMatchObject({
      id: spaceId,
      pages: [{ id: ids.Nebula }, { id: ids.Stars, sections: [{ id: 'dust', path: 'stars#dust' }] }]
    })
    expect(res.body.items[1]).toMatchObject({
      id: other,
      pages: [{ id: otherIds.Misc, urls: { app: `${t.url}/#/spaces/${other}/pages/${otherIds.Misc}` } }]
    })

    // Each space scores as its best page; pages rank among all the matching pages of every space, best first.
    for (const space of res.body.items)
      expect(space).toMatchObject({ type: 'space', score: Math.max(...space.pages.map((p: any) => p.score)) })
    const pages = res.body.items.flatMap((s: any) => s.pages).sort((a: any, b: any) => a.rank - b.rank)
    expect(pages.map((p: any) => p.rank)).toEqual([1, 2, 3])
    for (let i = 1; i < pages.length; i++) expect(pages[i].score).toBeLessThanOrEqual(pages[i - 1].score)

    const walked = await walk(t.owner.api, `/v1/orgs/${t.orgId}/search`, { query: 'nebula', limit: 1 })
    expect(walked.items.map((s) => s.id)).toEqual([spaceId, other])
    expect(walked.items.flatMap((s) => s.pages.map((p: any) => p.rank))).toEqual(
      res.body.items.flatMap((s: any) => s.pages.map((p: any) => p.rank))
    )
    expect(walked.pages[0].next).toBeDefined()
    expect(walked.pages[1].next).toBeUndefined()
  })

  it('lists at most 10 pages of a space, best first, and only spaces of the organization', async () => {
    await edit(
      spaceId,
      Array.from({ length: 12 }, (_, i) => insert(`Comet ${i}`, `${'filler '.repeat(i * 4)}comet tail.`))
    )
    const otherOrg = (await t.owner.api.post('/v1/orgs', { title: 'Elsewhere' })).body.id
    const foreign = (await t.owner.api.post(`/v1/orgs/${otherOrg}/spaces`, { title: 'Foreign', empty: true })).body.id
    await edit(foreign, [insert('Comet abroad', 'A comet.')])
    const res = await orgSearch('comet')
    expect(res.body.count).toBe(1)
    expect(res.body.items.map((s: any) => s.id)).toEqual([spaceId])
    const titles = res.body.items[0].pages.map((p: any) => p.title)
    expect(titles).toHaveLength(10)
    // Shorter pages rank first: the two longest are the ones left out.
    expect(titles).not.toContain('Comet 10')
    expect(titles).not.toContain('Comet 11')
    expect(titles[0]).toBe('Comet 0')
  })

  it('shows guests only the spaces granted to them, and hides deleted spaces', async () => {
    await edit(spaceId, [insert('Secret', 'The password is pumpkin.')])
    const shared = await newSpace('Shared')
    await edit(shared, [insert('Open', 'A pumpkin pie recipe.')])
    const guest = await t.user({ role: null })
    expect((await orgSearch('pumpkin', guest.api)).body).toEqual({ items: [], count: 0 })
    expect((await t.owner.api.post(`/v1/spaces/${shared}/permissions`, { role: 'read', users: [guest.user.id] })).status).toBe(204)
    const seen = await orgSearch('pumpkin', guest.api)
    expect(seen.body.count).toBe(1)
    expect(seen.body.items.map((s: any) => s.id)).toEqual([shared])

    const member = await t.user({ role: 'read' })
    expect((await orgSearch('pumpkin', member.api)).body.count).toBe(2)
    expect((await t.owner.api.delete(`/v1/spaces/${shared}`)).status).toBe(205)
    expect((await orgSearch('pumpkin', member.api)).body.items.map((s: any) => s.id)).toEqual([spaceId])
    expect((await orgSearch('pumpkin', guest.api)).body.count).toBe(0)
  })
})
