// The history operations: a space's revisions listed, opened, compared and restored, through the HTTP API.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadFiles, writeRevision } from '../../../content/revisions'
import { startTestServer, walk, type Client, type TestServer } from '../../../testing/harness'

let t: TestServer
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace('Docs')
})
afterEach(() => t.close())

const db = () => t.server.api.services.db

const spacePath = (rest = '', space = spaceId) => `/v1/spaces/${space}${rest}`
const revPath = (revision: string, rest = '', space = spaceId) => `/v1/spaces/${space}/revisions/${revision}${rest}`
const envelope = (code: number, message: string) => ({ error: { code, message } })
const insert = (title: string, markdown: string, extra: Record<string, unknown> = {}) => ({
  operation: 'insert_page',
  title,
  document: { markdown },
  ...extra
})
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

const primaryRevision = async (space = spaceId) => (await t.owner.api.get(spacePath('', space))).body.revision as string

/** Opens a change request, applies `changes`, merges it; answers the change request and the new primary revision. */
async function change(changes: unknown[], subject = 'Edit', space = spaceId, api: Client = t.owner.api) {
  const cr = (await api.post(spacePath('/change-requests', space), { subject })).body
  const applied = await api.post(spacePath(`/change-requests/${cr.id}/content`, space), { changes })
  expect(applied.status, JSON.stringify(applied.body)).toBe(200)
  const merged = await api.post(spacePath(`/change-requests/${cr.id}/merge`, space))
  expect(merged.body.result).toBe('merge')
  return { cr, revision: merged.body.revision as string }
}

/** Page ids by title in the primary content (or a revision). */
async function pageIds(revision?: string): Promise<Record<string, string>> {
  const res = await t.owner.api.get(revision ? revPath(revision, '/pages') : spacePath('/content/pages'))
  const ids: Record<string, string> = {}
  const visit = (pages: any[]) => pages.forEach((p) => ((ids[p.title] = p.id), visit(p.pages)))
  visit(res.body.pages)
  return ids
}

/** Titles of a page list, nested lists for children. */
const outline = (pages: any[]): unknown[] => pages.map((p) => (p.pages.length ? [p.title, outline(p.pages)] : p.title))

/** Everything a revision's pages hold that a restore must bring back, by page id. */
async function snapshot(path: string) {
  const tree = (await t.owner.api.get(`${path}/pages`)).body.pages
  const out: Record<string, unknown> = {}
  const visit = async (pages: any[], parent: string | null) => {
    for (const p of pages) {
      const page = (await t.owner.api.get(`${path}/page/${p.id}`)).body
      out[p.id] = { parent, title: page.title, path: page.path, markdown: page.markdown, emoji: page.emoji, hidden: page.hidden }
      await visit(p.pages, p.id)
    }
  }
  await visit(tree, null)
  return { outline: outline(tree), pages: out }
}

describe('GET /v1/spaces/{spaceId}/revisions', () => {
  it('lists the space’s history newest first, with authors and the change requests merges came from, not change requests’ own revisions', async () => {
    const first = await primaryRevision()
    const a = await change([insert('Intro', 'Hello.\n')], 'Add the intro')
    // Work in progress of an open change request is not the space's history.
    const open = (await t.owner.api.post(spacePath('/change-requests'), { subject: 'Draft' })).body
    const wip = await t.owner.api.post(spacePath(`/change-requests/${open.id}/content`), { changes: [insert('Draft', 'WIP\n')] })
    expect(wip.status).toBe(200)
    const b = await change([insert('Guide', 'Read.\n')], 'Add the guide')

    const res = await t.owner.api.get(spacePath('/revisions'))
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(3)
    expect(res.body.next).toBeUndefined()
    expect(res.body.items.map((r: any) => r.id)).toEqual([b.revision, a.revision, first])
    expect(res.body.items[0]).toEqual({
      object: 'revision',
      id: b.revision,
      parents: [a.revision, expect.any(String)],
      createdAt: expect.any(String),
      type: 'merge',
      createdBy: expect.objectContaining({ object: 'user', id: t.owner.user.id }),
      changeRequest: { id: b.cr.id, number: b.cr.number, subject: 'Add the guide' }
    })
    expect(res.body.items[2]).toMatchObject({ id: first, parents: [], type: 'edits' })
    expect(res.body.items[2].changeRequest).toBeUndefined()
    expect(res.body.items.map((r: any) => r.id)).not.toContain(wip.body.revision)
    expect(res.body.items[0].pages).toBeUndefined()
  })

  it('pages with limit and next page (keyset), and refuses a forged cursor', async () => {
    for (let i = 0; i < 4; i++) await change([insert(`Page ${i}`, `Text ${i}\n`)])
    const all = (await t.owner.api.get(spacePath('/revisions'))).body.items.map((r: any) => r.id)
    expect(all).toHaveLength(5)
    const first = await t.owner.api.get(spacePath('/revisions'), { limit: 2 })
    expect(first.body).toMatchObject({ count: 5, next: { page: expect.any(String) } })
    expect(first.body.items.map((r: any) => r.id)).toEqual(all.slice(0, 2))
    const second = await t.owner.api.get(spacePath('/revisions'), { limit: 2, page: first.body.next.page })
    expect(second.body.items.map((r: any) => r.id)).toEqual(all.slice(2, 4))
    const { items } = await walk(t.owner.api, spacePath('/revisions'), { limit: 2 })
    expect(items.map((r: any) => r.id)).toEqual(all)

    expect(await t.owner.api.get(spacePath('/revisions'), { page: 'not-a-cursor' })).toMatchObject({
      status: 400,
      body: envelope(400, 'page: invalid cursor')
    })
    expect((await t.owner.api.get(spacePath('/revisions'), { limit: 0 })).status).toBe(400)
    expect((await t.owner.api.get(spacePath('/revisions'), { limit: 'many' })).status).toBe(400)
  })

  it('answers 404 for a space the caller cannot see or that does not exist', async () => {
    const guest = await t.user({ role: null })
    expect(await guest.api.get(spacePath('/revisions'))).toMatchObject({ status: 404, body: envelope(404, 'Space not found') })
    expect((await t.owner.api.get('/v1/spaces/nope/revisions')).status).toBe(404)
    expect((await t.owner.api.get(`/v1/spaces/${'x'.repeat(101)}/revisions`)).status).toBe(400)
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.get(spacePath('/revisions'))).status).toBe(200)
  })
})

describe('GET /v1/spaces/{spaceId}/revisions/{revisionId}/summary', () => {
  it('answers one revision as the history lists it; a change request’s own revision names no merge; 404 elsewhere', async () => {
    await primaryRevision()
    const a = await change([insert('Intro', 'Hello.\n')], 'Add the intro')
    const listed = (await t.owner.api.get(spacePath('/revisions'))).body.items[0]
    const res = await t.owner.api.get(spacePath(`/revisions/${a.revision}/summary`))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(listed)
    expect(res.body).toMatchObject({
      id: a.revision,
      type: 'merge',
      createdBy: { id: t.owner.user.id },
      changeRequest: { id: a.cr.id, subject: 'Add the intro' }
    })

    const open = (await t.owner.api.post(spacePath('/change-requests'), { subject: 'Draft' })).body
    const wip = (await t.owner.api.post(spacePath(`/change-requests/${open.id}/content`), { changes: [insert('Draft', 'WIP\n')] })).body
    const own = await t.owner.api.get(spacePath(`/revisions/${wip.revision}/summary`))
    expect(own.status).toBe(200)
    expect(own.body).toMatchObject({ id: wip.revision, createdBy: { id: t.owner.user.id } })
    expect(own.body.changeRequest).toBeUndefined()

    expect(await t.owner.api.get(spacePath('/revisions/nope/summary'))).toMatchObject({
      status: 404,
      body: envelope(404, 'Revision not found')
    })
    const other = (await t.owner.api.post(`/v1/orgs/${t.orgId}/spaces`, { title: 'Other', empty: true })).body
    expect(other.id).toEqual(expect.any(String))
    expect((await t.owner.api.get(`/v1/spaces/${other.id}/revisions/${a.revision}/summary`)).status).toBe(404)
    const guest = await t.user({ role: null })
    expect((await guest.api.get(spacePath(`/revisions/${a.revision}/summary`))).status).toBe(404)
  })
})

describe('GET /v1/spaces/{spaceId}/revisions/{revisionId} and its pages and files', () => {
  it('answers an old revision as the current content is answered: the Revision, pages, a page by id and by path, files', async () => {
    const { revision: old, cr } = await change([
      insert('Guide', '# Guide\n\nOld text.\n', { ref: 'guide' }),
      insert('Install', 'Run it.\n', { into: 'guide' }),
      { operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: PNG }] }
    ])
    const ids = await pageIds()
    await change([
      { operation: 'update_page', page: ids.Guide, document: { markdown: 'New text.\n' }, title: 'Handbook' },
      { operation: 'delete_page', page: ids.Install }
    ])

    const revision = await t.owner.api.get(revPath(old))
    expect(revision.status).toBe(200)
    expect(revision.headers.get('etag')).toContain(old)
    expect(revision.body).toMatchObject({
      object: 'revision',
      id: old,
      type: 'merge',
      files: [{ name: 'pixel.png', contentType: 'image/png' }]
    })
    // A merge names the change request it merged; no tags; a document page's kind is its older name.
    expect(revision.body).toMatchObject({
      tags: [],
      mergedFrom: { object: 'change-request', id: cr.id, space: spaceId, status: 'merged', revisionMerged: old }
    })
    expect(revision.body.pages[0]).toMatchObject({ type: 'document', kind: 'sheet', tags: [] })
    expect(outline(revision.body.pages)).toEqual([['Guide', ['Install']]])

    const pages = await t.owner.api.get(revPath(old, '/pages'))
    expect(outline(pages.body.pages)).toEqual([['Guide', ['Install']]])
    expect(outline((await t.owner.api.get(spacePath('/content/pages'))).body.pages)).toEqual(['Handbook'])

    const page = await t.owner.api.get(revPath(old, `/page/${ids.Guide}`))
    expect(page.body).toMatchObject({ id: ids.Guide, title: 'Guide', path: 'guide', markdown: '# Guide\n\nOld text.\n' })
    expect(outline(page.body.pages)).toEqual(['Install'])
    expect((await t.owner.api.get(revPath(old, `/page/${ids.Guide}`), { format: 'document' })).body.document).toBeDefined()

    const install = { id: ids.Install, title: 'Install', path: 'guide/install', markdown: 'Run it.\n' }
    expect((await t.owner.api.get(revPath(old, '/path/guide%2Finstall'))).body).toMatchObject(install)
    expect((await t.owner.api.get(revPath(old, '/path/guide/install'))).body).toMatchObject(install)
    expect((await t.owner.api.get(revPath(old, '/path/guide'))).body).toMatchObject({ id: ids.Guide })
    expect(await t.owner.api.get(revPath(old, '/path/handbook'))).toMatchObject({ status: 404, body: envelope(404, 'Page not found') })

    const files = await t.owner.api.get(revPath(old, '/files'))
    expect(files.body).toMatchObject({ count: 1, items: [{ name: 'pixel.png', size: 70 }] })
    const fileId = files.body.items[0].id
    expect((await t.owner.api.get(revPath(old, `/files/${fileId}`))).body).toMatchObject({ id: fileId, name: 'pixel.png' })
    expect((await t.owner.api.get(revPath(old, '/files/nope'))).status).toBe(404)
    expect(await t.owner.api.get(revPath(old, '/page/nope'))).toMatchObject({ status: 404, body: envelope(404, 'Page not found') })
  })

  it('pages a revision’s files with limit and next page', async () => {
    const files = ['a.txt', 'b.txt', 'c.txt'].map((name) => ({
      name,
      contentType: 'text/plain',
      base64: Buffer.from(name).toString('base64')
    }))
    const { revision } = await change([{ operation: 'insert_files', files }])
    const first = await t.owner.api.get(revPath(revision, '/files'), { limit: 2 })
    expect(first.body).toMatchObject({ count: 3, next: { page: expect.any(String) } })
    expect(first.body.items.map((f: any) => f.name)).toEqual(['a.txt', 'b.txt'])
    const second = await t.owner.api.get(revPath(revision, '/files'), { limit: 2, page: first.body.next.page })
    expect(second.body.items.map((f: any) => f.name)).toEqual(['c.txt'])
    expect(second.body.next).toBeUndefined()
    expect((await t.owner.api.get(revPath(revision, '/files'), { page: 'bad' })).status).toBe(400)
  })

  it('answers 404 for an unknown revision, another space’s revision and a space the caller cannot see; 400 for bad ids', async () => {
    const { revision } = await change([insert('Intro', 'Hello.\n')])
    const ids = await pageIds()
    const other = await t.emptySpace('Other')
    const otherRevision = await primaryRevision(other)
    const guest = await t.user({ role: null })
    for (const rest of ['', '/pages', `/page/${ids.Intro}`, '/path/intro', '/files', '/files/x', '/changes']) {
      expect(await t.owner.api.get(revPath('nope', rest)), `unknown ${rest}`).toMatchObject({
        status: 404,
        body: envelope(404, 'Revision not found')
      })
      expect(await t.owner.api.get(revPath(otherRevision, rest)), `other space ${rest}`).toMatchObject({
        status: 404,
        body: envelope(404, 'Revision not found')
      })
      expect(await guest.api.get(revPath(revision, rest)), `invisible ${rest}`).toMatchObject({
        status: 404,
        body: envelope(404, 'Space not found')
      })
      expect((await t.owner.api.get(revPath('r'.repeat(101), rest))).status, `bad id ${rest}`).toBe(400)
    }
    expect((await t.owner.api.get(revPath(revision, `/page/${'p'.repeat(101)}`))).status).toBe(400)
    expect((await t.owner.api.get(revPath(revision), { metadata: 'perhaps' })).status).toBe(400)
  })
})

describe('GET /v1/spaces/{spaceId}/revisions/{revisionId}/changes', () => {
  it('lists pages created, edited, moved and deleted, and files created and deleted, against the first parent', async () => {
    const { revision: seeded } = await change([
      insert('Guide', 'Guide.\n', { ref: 'guide' }),
      insert('Install', 'Run it.\n'),
      insert('Old', 'Bye.\n'),
      { operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: PNG }] }
    ])
    const ids = await pageIds()
    const created = await t.owner.api.get(revPath(seeded, '/changes'), { limit: 100 })
    expect(created.status).toBe(200)
    expect(created.body.changes.map((c: any) => [c.type, c.page?.title ?? c.file?.name])).toEqual([
      ['page_created', 'Guide'],
      ['page_created', 'Install'],
      ['page_created', 'Old'],
      ['file_created', 'pixel.png']
    ])

    const { cr, revision } = await change(
      [
        { operation: 'update_page', page: ids.Guide, document: { markdown: 'Guide, again.\n' }, title: 'Handbook' },
        { operation: 'update_page', page: ids.Install, into: ids.Guide },
        { operation: 'delete_page', page: ids.Old },
        insert('New', 'Hi.\n')
      ],
      'Reorganize'
    )
    const res = await t.owner.api.get(revPath(revision, '/changes'))
    expect(res.status).toBe(200)
    expect(res.body.more).toBeUndefined()
    expect(res.body.mergedFrom).toMatchObject({
      object: 'change-request',
      id: cr.id,
      number: cr.number,
      subject: 'Reorganize',
      status: 'merged'
    })
    expect(res.body.changes).toEqual([
      {
        type: 'page_edited',
        page: { id: ids.Guide, type: 'document', title: 'Handbook', path: 'handbook' },
        attributes: {
          title: { before: 'Guide', after: 'Handbook' },
          // The slug followed the title.
          slug: { before: 'guide', after: 'handbook' },
          document: {
            before: expect.any(String),
            after: expect.any(String),
            hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-Guide.', '+Guide, again.'] }]
          }
        }
      },
      // From the root (no parent before) to under the handbook, named as the newer revision has it.
      {
        type: 'page_moved',
        page: { id: ids.Install, type: 'document', title: 'Install', path: 'handbook/install' },
        parent: { after: { id: ids.Guide, type: 'document', title: 'Handbook', path: 'handbook' } },
        path: { before: 'install', after: 'handbook/install' }
      },
      { type: 'page_created', page: { id: expect.any(String), type: 'document', title: 'New', path: 'new' } },
      { type: 'page_deleted', page: { id: ids.Old, type: 'document', title: 'Old', path: 'old' } }
    ])
  })

  it('lists a page moved among its siblings once, not the siblings it shifted', async () => {
    await change(['A', 'B', 'C', 'D'].map((title) => insert(title, `${title}\n`)))
    const ids = await pageIds()
    const { revision } = await change([{ operation: 'update_page', page: ids.C, at: 0 }])
    const res = await t.owner.api.get(revPath(revision, '/changes'))
    expect(res.body.changes.map((c: any) => [c.type, c.page.title])).toEqual([['page_moved', 'C']])
  })

  it('compares with any other revision of the space (against), in either direction; 404 for another space’s', async () => {
    const first = await primaryRevision()
    const { revision: a } = await change([insert('One', '1\n'), { operation: 'insert_files', files: [{ name: 'a.txt', base64: 'YQ==' }] }])
    const { revision: b } = await change([insert('Two', '2\n')])
    const forward = await t.owner.api.get(revPath(b, '/changes'), { against: first })
    expect(forward.body.changes.map((c: any) => [c.type, c.page?.title ?? c.file?.name])).toEqual([
      ['page_created', 'One'],
      ['page_created', 'Two'],
      ['file_created', 'a.txt']
    ])
    const back = await t.owner.api.get(revPath(first, '/changes'), { against: b })
    expect(back.body.changes.map((c: any) => [c.type, c.page?.title ?? c.file?.name])).toEqual([
      ['page_deleted', 'One'],
      ['page_deleted', 'Two'],
      ['file_deleted', 'a.txt']
    ])
    expect(back.body.mergedFrom).toBeUndefined()
    expect((await t.owner.api.get(revPath(a, '/changes'), { against: a })).body.changes).toEqual([])

    const other = await primaryRevision(await t.emptySpace('Other'))
    expect(await t.owner.api.get(revPath(b, '/changes'), { against: other })).toMatchObject({
      status: 404,
      body: envelope(404, 'Revision not found')
    })
    expect(await t.owner.api.get(revPath(b, '/changes'), { against: 'nope' })).toMatchObject({ status: 404 })
    expect((await t.owner.api.get(revPath(b, '/changes'), { against: '' })).status).toBe(400)
  })

  it('answers at most `limit` changes (10 by default) and how many more there are', async () => {
    const { revision } = await change(Array.from({ length: 13 }, (_, i) => insert(`Page ${i}`, `${i}\n`)))
    const res = await t.owner.api.get(revPath(revision, '/changes'))
    expect(res.body.changes).toHaveLength(10)
    expect(res.body.more).toBe(3)
    const few = await t.owner.api.get(revPath(revision, '/changes'), { limit: 4 })
    expect(few.body.changes.map((c: any) => c.page.title)).toEqual(['Page 0', 'Page 1', 'Page 2', 'Page 3'])
    expect(few.body.more).toBe(9)
    expect((await t.owner.api.get(revPath(revision, '/changes'), { limit: 13 })).body.more).toBeUndefined()
    expect((await t.owner.api.get(revPath(revision, '/changes'), { limit: 0 })).status).toBe(400)
    expect((await t.owner.api.get(revPath(revision, '/changes'), { limit: 1001 })).status).toBe(400)
  })

  it('reports a file edited: the same file id under another name, type or content', async () => {
    const { revision: withFile } = await change([
      {
        operation: 'insert_files',
        files: [
          { name: 'a.txt', contentType: 'text/plain', base64: 'YQ==' },
          { name: 'b.txt', contentType: 'text/plain', base64: 'YmI=' }
        ]
      }
    ])
    const [file, other] = loadFiles(db(), withFile)
    // No content operation rewrites a file in place (a Git import does): write such a revision directly.
    const edited = writeRevision(db(), {
      spaceId,
      parents: [withFile],
      type: 'update',
      createdBy: null,
      now: '2026-03-01T11:00:00.000Z',
      base: withFile,
      pages: { upsert: [], remove: [] },
      files: { upsert: [{ ...file!, name: 'c.txt', size: other!.size, blobHash: other!.blobHash }], remove: [] }
    })
    const res = await t.owner.api.get(revPath(edited, '/changes'))
    expect(res.body.changes).toEqual([
      {
        type: 'file_edited',
        file: {
          id: file!.id,
          name: 'c.txt',
          contentType: 'text/plain',
          size: 2,
          downloadURL: expect.stringContaining(`/files/${spaceId}/${edited}/${file!.id}/c.txt?`)
        },
        attributes: {
          name: { before: 'a.txt', after: 'c.txt' },
          size: { before: 1, after: 2 },
          // Each side downloads from its own revision.
          downloadURL: {
            before: expect.stringContaining(`/files/${spaceId}/${withFile}/${file!.id}/a.txt?`),
            after: res.body.changes[0].file.downloadURL
          }
        }
      }
    ])
    const before = await fetch(res.body.changes[0].attributes.downloadURL.before)
    expect(before.status).toBe(200)
    expect((await before.arrayBuffer()).byteLength).toBe(1)
  })
})

describe('POST /v1/spaces/{spaceId}/revisions/{revisionId}/restore', () => {
  it('opens a change request holding exactly the old content; merged, the space equals that revision', async () => {
    const { revision: old } = await change([
      insert('Guide', '# Guide\n\nOld text.\n', { ref: 'guide' }),
      insert('Install', 'Run it.\n', { into: 'guide' }),
      insert('FAQ', 'Questions.\n'),
      { operation: 'insert_files', files: [{ name: 'old.png', contentType: 'image/png', base64: PNG }] }
    ])
    const ids = await pageIds()
    const before = await snapshot(revPath(old))
    await change([
      { operation: 'update_page', page: ids.Guide, document: { markdown: 'New text.\n' }, title: 'Handbook' },
      { operation: 'update_page', page: ids.FAQ, into: ids.Guide },
      { operation: 'delete_page', page: ids.Install },
      insert('Later', 'Added later.\n'),
      { operation: 'insert_files', files: [{ name: 'new.txt', base64: 'bmV3' }] }
    ])
    const primaryBefore = await primaryRevision()

    const res = await t.owner.api.post(revPath(old, '/restore'), {})
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      object: 'change-request',
      status: 'draft',
      subject: `Restore revision ${old}`,
      revisionInitial: primaryBefore
    })
    const cr = res.body
    expect(cr.revision).not.toBe(primaryBefore)
    // Nothing changed in the space yet: a restore is reviewed and merged like any change.
    expect(await primaryRevision()).toBe(primaryBefore)
    expect(await snapshot(spacePath(`/change-requests/${cr.id}/content`))).toEqual(before)
    const crFiles = (await t.owner.api.get(spacePath(`/change-requests/${cr.id}/content/files`))).body.items.map((f: any) => f.name)
    expect(crFiles).toEqual(['old.png'])
    const head = await t.owner.api.get(revPath(cr.revision))
    expect(head.body).toMatchObject({ type: 'rollback', parents: [primaryBefore] })

    expect((await t.owner.api.post(spacePath(`/change-requests/${cr.id}/merge`))).body.result).toBe('merge')
    expect(await snapshot(spacePath('/content'))).toEqual(before)
    expect((await t.owner.api.get(spacePath('/content/files'))).body.items.map((f: any) => f.name)).toEqual(['old.png'])
  })

  it('restores only the pages asked for, as they were, leaving the rest as it is now', async () => {
    const { revision: old } = await change([
      insert('Guide', 'Old guide.\n'),
      insert('FAQ', 'Old FAQ.\n'),
      insert('Gone', 'Deleted later.\n')
    ])
    const ids = await pageIds()
    await change([
      { operation: 'update_page', page: ids.Guide, document: { markdown: 'New guide.\n' } },
      { operation: 'update_page', page: ids.FAQ, document: { markdown: 'New FAQ.\n' } },
      { operation: 'delete_page', page: ids.Gone }
    ])
    const res = await t.owner.api.post(revPath(old, '/restore'), { pages: [ids.Guide, ids.Gone], subject: 'Bring back the guide' })
    expect(res.status).toBe(201)
    expect(res.body.subject).toBe('Bring back the guide')
    const cr = res.body.id
    const md = async (page: string) => (await t.owner.api.get(spacePath(`/change-requests/${cr}/content/page/${page}`))).body.markdown
    expect(await md(ids.Guide)).toBe('Old guide.\n')
    expect(await md(ids.FAQ)).toBe('New FAQ.\n')
    expect(await md(ids.Gone)).toBe('Deleted later.\n')
    expect(outline((await t.owner.api.get(spacePath(`/change-requests/${cr}/content/pages`))).body.pages)).toEqual(['Guide', 'FAQ', 'Gone'])
    expect((await t.owner.api.post(spacePath(`/change-requests/${cr}/merge`))).body.result).toBe('merge')
    expect((await t.owner.api.get(spacePath(`/content/page/${ids.Guide}`))).body.markdown).toBe('Old guide.\n')
    expect((await t.owner.api.get(spacePath(`/content/page/${ids.FAQ}`))).body.markdown).toBe('New FAQ.\n')
  })

  it('refuses pages not in the revision (400), a bad body (400), a role below edit or a locked space (403), unknown and other spaces’ revisions (404), changing nothing', async () => {
    const first = await primaryRevision()
    const { revision } = await change([insert('Intro', 'Hello.\n')])
    const ids = await pageIds()
    const count = async () => (await t.owner.api.get(spacePath('/change-requests'), { status: 'draft' })).body.count
    const drafts = await count()

    expect(await t.owner.api.post(revPath(first, '/restore'), { pages: [ids.Intro] })).toMatchObject({
      status: 400,
      body: envelope(400, `pages.0: no page ${ids.Intro} in revision ${first}`)
    })
    expect((await t.owner.api.post(revPath(revision, '/restore'), { pages: [] })).status).toBe(400)
    expect((await t.owner.api.post(revPath(revision, '/restore'), { pages: 'all' })).status).toBe(400)
    expect((await t.owner.api.post(revPath(revision, '/restore'), { pages: [7] })).status).toBe(400)
    expect((await t.owner.api.post(revPath(revision, '/restore'), { subject: 's'.repeat(101) })).status).toBe(400)

    const reviewer = await t.user({ role: 'comment' })
    expect(await reviewer.api.post(revPath(revision, '/restore'), {})).toMatchObject({ status: 403, body: { error: { code: 403 } } })
    const editor = await t.user({ role: 'edit' })
    expect((await editor.api.post(revPath(first, '/restore'), {})).status).toBe(201)
    // Restoring what the space already holds opens nothing.
    expect(await editor.api.post(revPath(revision, '/restore'), {})).toMatchObject({
      status: 409,
      body: envelope(409, `revision ${revision} holds the space's current content: nothing to restore`)
    })
    expect(await editor.api.post(revPath(revision, '/restore'), { pages: [ids.Intro] })).toMatchObject({
      status: 409,
      body: envelope(409, `pages: already as they were in revision ${revision}`)
    })

    const guest = await t.user({ role: null })
    expect(await guest.api.post(revPath(revision, '/restore'), {})).toMatchObject({ status: 404, body: envelope(404, 'Space not found') })
    expect(await t.owner.api.post(revPath('nope', '/restore'), {})).toMatchObject({
      status: 404,
      body: envelope(404, 'Revision not found')
    })
    const other = await primaryRevision(await t.emptySpace('Other'))
    expect(await t.owner.api.post(revPath(other, '/restore'), {})).toMatchObject({ status: 404, body: envelope(404, 'Revision not found') })
    expect(await count()).toBe(drafts + 1)

    expect((await t.owner.api.patch(spacePath(), { editMode: 'locked' })).status).toBe(200)
    expect(await t.owner.api.post(revPath(revision, '/restore'), {})).toMatchObject({
      status: 403,
      body: { error: { message: expect.stringContaining('locked') } }
    })
    expect(await count()).toBe(drafts + 1)
  })
})

describe('/v1/openapi.json', () => {
  it('documents the history operations once each (a path sent with its slashes unencoded is not a second operation)', async () => {
    const doc = (await t.anonymous.get('/v1/openapi.json')).body
    expect(
      Object.keys(doc.paths)
        .filter((p) => p.includes('/revisions'))
        .sort()
    ).toEqual([
      '/v1/spaces/{spaceId}/revisions',
      '/v1/spaces/{spaceId}/revisions/{revisionId}',
      '/v1/spaces/{spaceId}/revisions/{revisionId}/changes',
      '/v1/spaces/{spaceId}/revisions/{revisionId}/files',
      '/v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}',
      '/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}',
      '/v1/spaces/{spaceId}/revisions/{revisionId}/pages',
      '/v1/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}',
      '/v1/spaces/{spaceId}/revisions/{revisionId}/restore',
      '/v1/spaces/{spaceId}/revisions/{revisionId}/summary'
    ])
    expect(doc.paths['/v1/spaces/{spaceId}/revisions/{revisionId}/restore'].post.responses['201']).toBeDefined()
  })
})
