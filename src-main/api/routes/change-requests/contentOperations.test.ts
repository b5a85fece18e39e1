// Failure and option coverage of the content and change request operations: statuses, error envelopes and
// what each call leaves behind.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { bareRepo, removeTempDirs } from '../../../git/testing/repos'
import { startTestServer, walk, type Client, type TestServer } from '../../../testing/harness'
import { download } from '../files/fixtures'
import { sync } from '../git/fixtures'
import { serveSite } from '../import/fixtures'

let t: TestServer
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await newSpace('Docs')
})
afterEach(async () => {
  await t.close()
  removeTempDirs()
})

async function newSpace(title: string): Promise<string> {
  const res = await t.owner.api.post(`/v1/orgs/${t.orgId}/spaces`, { title, empty: true })
  expect(res.status).toBe(201)
  return res.body.id
}

const spacePath = (rest = '', space = spaceId) => `/v1/spaces/${space}${rest}`
const crPath = (cr: string | number, rest = '', space = spaceId) => `/v1/spaces/${space}/change-requests/${cr}${rest}`
const openCr = async (subject = 'Edit', api: Client = t.owner.api, space = spaceId) => {
  const res = await api.post(`/v1/spaces/${space}/change-requests`, { subject })
  expect(res.status).toBe(201)
  return res.body
}
const batch = (cr: string, changes: unknown[], api: Client = t.owner.api, space = spaceId) =>
  api.post(crPath(cr, '/content', space), { changes })
const merge = (cr: string, api: Client = t.owner.api) => api.post(crPath(cr, '/merge'))
const update = (cr: string, api: Client = t.owner.api) => api.post(crPath(cr, '/update'))
const getCr = async (cr: string) => (await t.owner.api.get(crPath(cr))).body
const primaryRevision = async (space = spaceId) => (await t.owner.api.get(spacePath('', space))).body.revision as string
const pageMarkdown = async (pageId: string, cr?: string) =>
  (await t.owner.api.get(cr ? crPath(cr, `/content/page/${pageId}`) : spacePath(`/content/page/${pageId}`))).body.markdown
const envelope = (code: number, message: string) => ({ error: { code, message } })
const insert = (title: string, markdown: string, extra: Record<string, unknown> = {}) => ({
  operation: 'insert_page',
  title,
  document: { markdown },
  ...extra
})
const editDoc = (page: string, markdown: string) => ({ operation: 'update_page', page, document: { markdown } })

/** Seeds the primary content through a merged change request; returns the page ids by title. */
async function seed(changes: unknown[], space = spaceId): Promise<Record<string, string>> {
  const cr = await openCr('Seed', t.owner.api, space)
  const res = await batch(cr.id, changes, t.owner.api, space)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect((await t.owner.api.post(crPath(cr.id, '/merge', space))).body.result).toBe('merge')
  const ids: Record<string, string> = {}
  const visit = (pages: any[]) => pages.forEach((p) => ((ids[p.title] = p.id), visit(p.pages)))
  visit((await t.owner.api.get(spacePath('/content/pages', space))).body.pages)
  return ids
}

/** Titles of a page list, nested lists for children. */
const outline = (pages: any[]): unknown[] => pages.map((p) => (p.pages.length ? [p.title, outline(p.pages)] : p.title))

const LINES = 'line one\nline two\nline three\nline four\nline five\n'
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

describe('GET /v1/spaces/{spaceId}/content (the revision)', () => {
  it('answers the Revision of the spec: pages as a tree without documents, files, reusableContents, parents', async () => {
    const primaryBefore = await primaryRevision()
    const cr = await openCr('Seed')
    const applied = await batch(cr.id, [
      insert('Guide', '# Guide\n\nRead me.', { ref: 'guide' }),
      insert('Install', 'Run it.', { into: 'guide' }),
      insert('FAQ', 'Questions.'),
      { operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: PNG }] }
    ])
    expect(applied.status).toBe(200)

    // The change request's own content: its head revision, on top of the revision it started from.
    const draft = await t.owner.api.get(crPath(cr.id, '/content'))
    expect(draft.status).toBe(200)
    expect(draft.body).toMatchObject({ object: 'revision', id: applied.body.revision, parents: [cr.revision], type: 'edits' })

    expect((await merge(cr.id)).body.result).toBe('merge')
    const res = await t.owner.api.get(spacePath('/content'))
    expect(res.status).toBe(200)
    const revision = res.body
    expect(revision).toMatchObject({
      object: 'revision',
      id: await primaryRevision(),
      parents: [primaryBefore, applied.body.revision],
      reusableContents: [],
      createdAt: '2026-03-01T10:00:00.000Z',
      urls: { app: expect.any(String) },
      type: 'merge'
    })
    expect(outline(revision.pages)).toEqual([['Guide', ['Install']], 'FAQ'])
    expect(revision.pages[0]).toMatchObject({
      title: 'Guide',
      path: 'guide',
      slug: 'guide',
      type: 'document',
      hidden: false,
      urls: { app: expect.any(String) }
    })
    expect(revision.pages[0].pages[0]).toMatchObject({ title: 'Install', path: 'guide/install' })
    // Listings leave documents out: a page's document is read from content/page/{pageId}.
    expect(revision.pages[0].markdown).toBeUndefined()
    expect(revision.pages[0].document).toBeUndefined()
    expect(revision.files).toEqual([
      {
        id: expect.any(String),
        name: 'pixel.png',
        contentType: 'image/png',
        downloadURL: expect.any(String),
        size: 70,
        dimensions: { width: 1, height: 1 }
      }
    ])
    expect(revision.git).toBeUndefined()
  })

  it(
    'metadata=false leaves out the git members of the revision, its pages and its files, and nothing else',
    { timeout: 60_000 },
    async () => {
      const png = Buffer.from(PNG, 'base64')
      const repo = await bareRepo({
        'README.md': '# Home\n\n![diagram](.gitbook/assets/diagram.png)\n',
        'guide.md': '# Guide\n',
        '.gitbook/assets/diagram.png': png
      })
      expect((await sync(t.owner.api, spaceId, 'import', { url: repo, ref: 'refs/heads/main' })).status).toBe('succeeded')

      const full = (await t.owner.api.get(spacePath('/content'))).body
      expect(full.git).toMatchObject({ oid: expect.any(String) })
      expect(full.pages.length).toBe(2)
      for (const page of full.pages) expect(page.git).toMatchObject({ path: expect.any(String), oid: expect.any(String) })
      expect(full.files).toHaveLength(1)
      expect(full.files[0].git).toMatchObject({ path: '.gitbook/assets/diagram.png' })

      const bare = await t.owner.api.get(spacePath('/content'), { metadata: false })
      expect(bare.status).toBe(200)
      expect(bare.body.git).toBeUndefined()
      expect(bare.body.pages.map((p: any) => p.git)).toEqual([undefined, undefined])
      expect(bare.body.files[0].git).toBeUndefined()
      const strip = (revision: any) => ({
        ...revision,
        git: undefined,
        pages: revision.pages.map((p: any) => ({ ...p, git: undefined })),
        // The download URL carries a signed token of its own; the rest of the file must match.
        files: revision.files.map((f: any) => ({ ...f, git: undefined, downloadURL: undefined }))
      })
      expect(strip(bare.body)).toEqual(strip(full))

      // The same option on the page tree and on one page; metadata=true is the default.
      const pages = (await t.owner.api.get(spacePath('/content/pages'), { metadata: false })).body.pages
      expect(pages.map((p: any) => p.git)).toEqual([undefined, undefined])
      const page = await t.owner.api.get(spacePath(`/content/page/${full.pages[0].id}`), { metadata: false })
      expect(page.body.git).toBeUndefined()
      expect((await t.owner.api.get(spacePath(`/content/page/${full.pages[0].id}`), { metadata: true })).body.git).toEqual(
        full.pages[0].git
      )
      expect((await t.owner.api.get(spacePath('/content'), { metadata: 'maybe' })).body).toEqual(envelope(400, 'metadata: must be boolean'))
    }
  )
})

describe('GET /v1/spaces/{spaceId}/content/page/{pageId}', () => {
  it('answers markdown by default and with format=markdown, the document model with format=document', async () => {
    const ids = await seed([insert('Guide', '# Guide\n\nRead **this**.\n', { ref: 'guide' }), insert('Child', 'child', { into: 'guide' })])
    const path = spacePath(`/content/page/${ids.Guide}`)
    const byDefault = await t.owner.api.get(path)
    expect(byDefault.status).toBe(200)
    expect(byDefault.body).toMatchObject({ id: ids.Guide, title: 'Guide', path: 'guide', markdown: '# Guide\n\nRead **this**.\n' })
    expect(byDefault.body.document).toBeUndefined()
    // The page comes with its children (without their documents).
    expect(byDefault.body.pages.map((p: any) => [p.title, p.path, p.markdown])).toEqual([['Child', 'guide/child', undefined]])
    expect((await t.owner.api.get(path, { format: 'markdown' })).body).toEqual(byDefault.body)

    const doc = await t.owner.api.get(path, { format: 'document' })
    expect(doc.status).toBe(200)
    expect(doc.body.markdown).toBeUndefined()
    expect(doc.body.document).toEqual({
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'heading-1',
          data: {},
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Guide', marks: [] }] }]
        },
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [
            {
              object: 'text',
              leaves: [
                { object: 'leaf', text: 'Read ', marks: [] },
                { object: 'leaf', text: 'this', marks: [{ object: 'mark', type: 'bold' }] },
                { object: 'leaf', text: '.', marks: [] }
              ]
            }
          ]
        }
      ]
    })
    const { document: _document, ...rest } = doc.body
    const { markdown: _markdown, ...same } = byDefault.body
    expect(rest).toEqual(same)

    expect((await t.owner.api.get(path, { format: 'html' })).body).toEqual(envelope(400, 'format: must be one of: document, markdown'))
  })

  it('answers 404 for an unknown page, and for a page of the change request only on the primary content', async () => {
    const missing = await t.owner.api.get(spacePath('/content/page/nope'))
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual(envelope(404, 'Page not found'))
    const cr = await openCr()
    await batch(cr.id, [insert('Draft', 'draft')])
    const draftId = (await t.owner.api.get(crPath(cr.id, '/content/pages'))).body.pages[0].id
    expect((await t.owner.api.get(crPath(cr.id, `/content/page/${draftId}`))).body.markdown).toBe('draft')
    expect((await t.owner.api.get(spacePath(`/content/page/${draftId}`))).body).toEqual(envelope(404, 'Page not found'))
  })

  it('lets a reader read; answers 404 to a non-member and to a guest, 401 without a token', async () => {
    const ids = await seed([insert('Guide', 'guide text')])
    const path = spacePath(`/content/page/${ids.Guide}`)
    const reader = await t.user({ role: 'read' })
    const read = await reader.api.get(path)
    expect(read.status).toBe(200)
    expect(read.body.markdown).toBe('guide text')
    for (const role of ['none', null] as const) {
      const other = await t.user({ role })
      const res = await other.api.get(path)
      expect(res.status, String(role)).toBe(404)
      expect(res.body).toEqual(envelope(404, 'Space not found'))
    }
    expect((await t.anonymous.get(path)).status).toBe(401)
  })
})

describe('GET …/content/pages', () => {
  it('answers 401 without a token or with an unknown one, 404 for unknown spaces and change requests', async () => {
    const cr = await openCr()
    for (const path of [spacePath('/content/pages'), crPath(cr.id, '/content/pages')]) {
      const anonymous = await t.anonymous.get(path)
      expect(anonymous.status).toBe(401)
      expect(anonymous.body).toEqual(envelope(401, 'Authentication required: send Authorization: Bearer <token>'))
      expect((await t.client('not-a-token').get(path)).body).toEqual(envelope(401, 'The token is unknown or has been revoked'))
    }
    expect((await t.owner.api.get('/v1/spaces/nope/content/pages')).body).toEqual(envelope(404, 'Space not found'))
    expect((await t.owner.api.get(`/v1/spaces/nope/change-requests/${cr.id}/content/pages`)).body).toEqual(envelope(404, 'Space not found'))
    expect((await t.owner.api.get(crPath('nope', '/content/pages'))).body).toEqual(envelope(404, 'Change request not found'))
    expect((await t.owner.api.get(crPath(99, '/content/pages'))).body).toEqual(envelope(404, 'Change request not found'))
    // A change request of another space is not found through this one.
    const other = await newSpace('Other')
    const elsewhere = await openCr('Elsewhere', t.owner.api, other)
    expect((await t.owner.api.get(crPath(elsewhere.id, '/content/pages'))).status).toBe(404)
    expect((await t.owner.api.get(spacePath('/content/pages'))).body).toEqual({ pages: [] })
  })
})

describe('GET …/content/files', () => {
  it('pages with limit and page: every file once, in name order, with the total on each page', async () => {
    const names = ['e.txt', 'a.txt', 'same.txt', 'c.txt', 'same.txt', 'b.txt', 'd.txt']
    await seed([
      { operation: 'insert_files', files: names.map((name, i) => ({ name, base64: Buffer.from(`file ${i}`).toString('base64') })) }
    ])
    const { items, pages } = await walk(t.owner.api, spacePath('/content/files'), { limit: 2 })
    expect(pages).toHaveLength(4)
    expect(pages.map((p) => p.count)).toEqual([7, 7, 7, 7])
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 2, 1])
    expect(pages[3].next).toBeUndefined()
    expect(items.map((f) => f.name)).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'same.txt', 'same.txt'])
    // Two files of one name are told apart by id: both come, once each.
    expect(new Set(items.map((f) => f.id)).size).toBe(7)
    const all = (await t.owner.api.get(spacePath('/content/files'))).body
    expect(all.items.map((f: any) => f.id)).toEqual(items.map((f) => f.id))
    expect(all.next).toBeUndefined()

    expect((await t.owner.api.get(spacePath('/content/files'), { limit: 0 })).body).toEqual(envelope(400, 'limit: must be at least 1'))
    expect((await t.owner.api.get(spacePath('/content/files'), { limit: 1001 })).body).toEqual(envelope(400, 'limit: must be at most 1000'))
    expect((await t.owner.api.get(spacePath('/content/files'), { page: 'garbage' })).body).toEqual(envelope(400, 'page: invalid cursor'))
  })

  it('answers a file by id, and 404 for an unknown id or a file of the change request only', async () => {
    await seed([{ operation: 'insert_files', files: [{ name: 'kept.txt', base64: Buffer.from('kept').toString('base64') }] }])
    const kept = (await t.owner.api.get(spacePath('/content/files'))).body.items[0]
    const one = await t.owner.api.get(spacePath(`/content/files/${kept.id}`))
    expect(one.status).toBe(200)
    expect(one.body).toEqual({ ...kept, downloadURL: expect.any(String) })
    const missing = await t.owner.api.get(spacePath('/content/files/nope'))
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual(envelope(404, 'File not found'))

    const cr = await openCr()
    await batch(cr.id, [{ operation: 'insert_files', files: [{ name: 'draft.txt', base64: Buffer.from('draft').toString('base64') }] }])
    const draft = (await t.owner.api.get(crPath(cr.id, '/content/files'))).body.items.find((f: any) => f.name === 'draft.txt')
    expect((await t.owner.api.get(crPath(cr.id, `/content/files/${draft.id}`))).status).toBe(200)
    expect((await t.owner.api.get(spacePath(`/content/files/${draft.id}`))).body).toEqual(envelope(404, 'File not found'))
    expect((await t.owner.api.get(crPath(cr.id, '/content/files/nope'))).status).toBe(404)
  })
})

describe('POST …/change-requests/{changeRequestId}/update', () => {
  it('answers 409 for merged and archived change requests', async () => {
    const merged = await openCr('Merged')
    expect((await merge(merged.id)).body.result).toBe('merge')
    const res = await update(merged.id)
    expect(res.status).toBe(409)
    expect(res.body).toEqual(envelope(409, 'A merged change request cannot be updated'))

    const archived = await openCr('Archived')
    expect((await t.owner.api.patch(crPath(archived.id), { status: 'archived' })).body.status).toBe('archived')
    const refused = await update(archived.id)
    expect(refused.status).toBe(409)
    expect(refused.body).toEqual(envelope(409, 'An archived change request cannot be updated: reopen it first'))
    expect(await getCr(archived.id)).toMatchObject({ status: 'archived', revision: archived.revision })
  })

  it('answers 403 to a reader and in a locked space, 404 for an unknown change request', async () => {
    const cr = await openCr()
    const reader = await t.user({ role: 'read' })
    const res = await update(cr.id, reader.api)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(envelope(403, 'This operation needs the edit role on this space'))
    expect((await t.owner.api.patch(spacePath(), { editMode: 'locked' })).status).toBe(200)
    const locked = await update(cr.id)
    expect(locked.status).toBe(403)
    expect(locked.body).toEqual(envelope(403, 'The space is locked: an admin must unlock it before its content can change'))
    expect((await update('nope')).body).toEqual(envelope(404, 'Change request not found'))
  })

  it('answers result update and the same revision when there is nothing to pull', async () => {
    const cr = await openCr()
    await batch(cr.id, [insert('Mine', 'mine')])
    const before = await getCr(cr.id)
    const res = await update(cr.id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ result: 'update', revision: before.revision })
    expect(await getCr(cr.id)).toEqual(before)
  })

  it('answers conflicts when both sides edited the same line, and leaves the change request as it was', async () => {
    const ids = await seed([insert('Page', LINES)])
    const theirs = await openCr('Theirs')
    const mine = await openCr('Mine')
    await batch(mine.id, [editDoc(ids.Page!, LINES.replace('line two', 'line 2 (mine)'))])
    await batch(theirs.id, [editDoc(ids.Page!, LINES.replace('line two', 'line 2 (theirs)'))])
    expect((await merge(theirs.id)).body.result).toBe('merge')
    const before = await getCr(mine.id)
    expect(before.outdated).toBe(true)

    const res = await update(mine.id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      result: 'conflicts',
      revision: before.revision,
      conflicts: [{ page: { id: ids.Page, title: 'Page' }, reason: 'content' }]
    })
    const after = await getCr(mine.id)
    expect(after).toEqual(before)
    expect(after.revisionMergedAncestor).toBeUndefined()
    expect(await pageMarkdown(ids.Page!, mine.id)).toBe(LINES.replace('line two', 'line 2 (mine)'))
  })
})

describe('POST …/change-requests/{changeRequestId}/merge', () => {
  it('answers 403 to a reader and changes nothing', async () => {
    const cr = await openCr()
    await batch(cr.id, [insert('New', 'new')])
    const reader = await t.user({ role: 'read' })
    const primary = await primaryRevision()
    const res = await merge(cr.id, reader.api)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(envelope(403, 'This operation needs the edit role on this space'))
    expect(await primaryRevision()).toBe(primary)
    expect((await getCr(cr.id)).status).toBe('draft')
  })

  it('merges a title renamed on one side and the document edited on the other into both', async () => {
    const ids = await seed([insert('Page', LINES)])
    const renamer = await openCr('Rename')
    const editor = await openCr('Edit')
    await batch(renamer.id, [{ operation: 'update_page', page: ids.Page, title: 'Renamed page' }])
    await batch(editor.id, [editDoc(ids.Page!, LINES.replace('line three', 'line 3'))])
    expect((await merge(renamer.id)).body.result).toBe('merge')
    const res = await merge(editor.id)
    expect(res.status).toBe(200)
    expect(res.body.result).toBe('merge')
    const page = (await t.owner.api.get(spacePath(`/content/page/${ids.Page}`))).body
    expect(page).toMatchObject({ title: 'Renamed page', markdown: LINES.replace('line three', 'line 3') })
    // The slug, still the title's, followed the rename.
    expect(page.path).toBe('renamed-page')
  })

  it('keeps a page removed on the primary content removed when the change request left it alone', async () => {
    const ids = await seed([insert('Kept', 'kept'), insert('Gone', 'gone')])
    const cr = await openCr('Unrelated')
    await batch(cr.id, [editDoc(ids.Kept!, 'kept, edited')])
    const remover = await openCr('Remove')
    await batch(remover.id, [{ operation: 'delete_page', page: ids.Gone }])
    expect((await merge(remover.id)).body.result).toBe('merge')

    const res = await merge(cr.id)
    expect(res.body.result).toBe('merge')
    const pages = (await t.owner.api.get(spacePath('/content/pages'))).body.pages
    expect(pages.map((p: any) => p.title)).toEqual(['Kept'])
    expect(await pageMarkdown(ids.Kept!)).toBe('kept, edited')
    expect((await t.owner.api.get(spacePath(`/content/page/${ids.Gone}`))).status).toBe(404)
  })
})

describe('PATCH …/change-requests/{changeRequestId}', () => {
  it('answers 403 to a reader, 400 naming subject past 100 characters, and changes nothing', async () => {
    const cr = await openCr('Subject')
    const before = await getCr(cr.id)
    const reader = await t.user({ role: 'read' })
    const refused = await reader.api.patch(crPath(cr.id), { subject: 'Mine now' })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual(envelope(403, 'This operation needs the edit role on this space'))
    const long = await t.owner.api.patch(crPath(cr.id), { subject: 'x'.repeat(101) })
    expect(long.status).toBe(400)
    expect(long.body).toEqual(envelope(400, 'subject: must be at most 100 characters'))
    expect(await getCr(cr.id)).toEqual(before)
    expect((await t.owner.api.patch(crPath(cr.id), { subject: 'x'.repeat(100) })).body.subject).toBe('x'.repeat(100))
  })
})

describe('GET …/change-requests/{changeRequestId}/changes', () => {
  it('answers 404 for an unknown change request id and number', async () => {
    await openCr()
    for (const ref of ['nope', '99']) {
      const res = await t.owner.api.get(crPath(ref, '/changes'))
      expect(res.status, ref).toBe(404)
      expect(res.body).toEqual(envelope(404, 'Change request not found'))
    }
    expect((await t.owner.api.get(crPath(1, '/changes'))).body).toEqual({ changes: [] })
  })
})

describe('content batch validation', () => {
  it('refuses revert_page to a revision of another space and changes nothing', async () => {
    const ids = await seed([insert('Page', 'original')])
    const other = await newSpace('Other')
    await seed([insert('Elsewhere', 'elsewhere')], other)
    const foreign = await primaryRevision(other)
    const cr = await openCr()
    await batch(cr.id, [editDoc(ids.Page!, 'edited')])
    const before = await getCr(cr.id)

    const res = await batch(cr.id, [insert('Added', 'added'), { operation: 'revert_page', page: ids.Page, revision: foreign }])
    expect(res.status).toBe(400)
    expect(res.body).toEqual(envelope(400, `changes.1.revision: no revision ${foreign} in this space`))
    expect(await getCr(cr.id)).toEqual(before)
    expect(outline((await t.owner.api.get(crPath(cr.id, '/content/pages'))).body.pages)).toEqual(['Page'])
    expect(await pageMarkdown(ids.Page!, cr.id)).toBe('edited')
  })

  it('refuses base64 that is not standard base64, naming the field, and changes nothing', async () => {
    const cr = await openCr()
    const before = await getCr(cr.id)
    const blobs = () => t.server.api.services.db.prepare('SELECT count(*) FROM blobs').pluck().get()
    const blobsBefore = blobs()
    const files = (base64: string) => ({
      operation: 'insert_files',
      files: [
        { name: 'ok.txt', base64: 'b2s=' },
        { name: 'bad.bin', base64 }
      ]
    })
    const ALPHABET = 'changes.1.files.1.base64: must be standard base64 (A-Z, a-z, 0-9, + and /, with = padding only at the end)'
    const LENGTH = 'changes.1.files.1.base64: must be complete base64: a character is missing or the = padding is wrong'
    const cases: [string, string][] = [
      ['!!!not base64***', ALPHABET],
      ['aGVsbG8-d29ybGQ_', ALPHABET], // base64url
      ['aGk=aGk=', ALPHABET], // padding inside
      ['aGk===', ALPHABET],
      ['data:text/plain;base64,aGk=', ALPHABET],
      ['aGVsbG8\u00a0', ALPHABET], // a non-ASCII space
      ['QUJDR', LENGTH], // a lone last character
      ['QQ=', LENGTH],
      ['QUJD=', LENGTH],
      ['QUI==', LENGTH]
    ]
    for (const [base64, message] of cases) {
      const res = await batch(cr.id, [insert('Added', 'added'), files(base64)])
      expect(res.status, base64).toBe(400)
      expect(res.body, base64).toEqual(envelope(400, message))
    }
    // The batch is one transaction: the page, the first file and its bytes went with the failure.
    expect(await getCr(cr.id)).toEqual(before)
    expect((await t.owner.api.get(crPath(cr.id, '/content/files'))).body).toEqual({ items: [], count: 0 })
    expect((await t.owner.api.get(crPath(cr.id, '/content/pages'))).body.pages).toEqual([])
    expect(blobs()).toBe(blobsBefore)
  })

  it('accepts base64 padded or not, wrapped in lines or spaced, and stores the exact bytes', async () => {
    const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) % 256))
    const wrapped = bytes.toString('base64').replace(/.{76}/g, '$&\r\n')
    const cases: [string, string, Buffer][] = [
      ['padded.txt', 'aGk=', Buffer.from('hi')],
      ['unpadded.txt', 'aGk', Buffer.from('hi')],
      ['two.txt', 'aGVsbG8gd29ybGQ', Buffer.from('hello world')],
      ['spaced.txt', ' aGVs bG8=\n', Buffer.from('hello')],
      ['wrapped.bin', wrapped, bytes]
    ]
    const cr = await openCr()
    const res = await batch(cr.id, [{ operation: 'insert_files', files: cases.map(([name, base64]) => ({ name, base64 })) }])
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const stored = (await t.owner.api.get(crPath(cr.id, '/content/files'))).body.items
    for (const [name, , expected] of cases) {
      const file = stored.find((f: any) => f.name === name)
      expect(file.size, name).toBe(expected.length)
      const body = await download(file.downloadURL, t.owner.token)
      expect(body.status).toBe(200)
      expect(body.bytes.equals(expected), name).toBe(true)
    }
  })

  it('still refuses base64 decoding to more than 1 MB', async () => {
    const cr = await openCr()
    const res = await batch(cr.id, [
      { operation: 'insert_files', files: [{ name: 'big.bin', base64: Buffer.alloc(1024 * 1024 + 3).toString('base64') }] }
    ])
    expect(res.status).toBe(400)
    expect(res.body).toEqual(envelope(400, 'changes.0.files.0.base64: must decode to at most 1 MB'))
  })
})

describe('titles derived from content', () => {
  const codePoints = (text: string) => Array.from(text).length

  it('cuts a title from a long first heading to 255 characters, on a word, with an ellipsis', async () => {
    const heading = 'Very long heading words '.repeat(250).trim()
    const cr = await openCr()
    const res = await batch(cr.id, [
      { operation: 'insert_page', document: { markdown: `# ${heading}\n\nBody.` } },
      { operation: 'insert_page', document: { markdown: `---\ntitle: ${'t'.repeat(5000)}\n---\nBody.` } }
    ])
    expect(res.status).toBe(200)
    const [fromHeading, fromFrontMatter] = (await t.owner.api.get(crPath(cr.id, '/content/pages'))).body.pages
    expect(codePoints(fromHeading.title)).toBeLessThanOrEqual(255)
    expect(fromHeading.title.endsWith('…')).toBe(true)
    expect(heading.startsWith(`${fromHeading.title.slice(0, -1)} `)).toBe(true)
    expect(fromFrontMatter.title).toBe(`${'t'.repeat(254)}…`)
    // The document itself is kept whole.
    expect(await pageMarkdown(fromHeading.id, cr.id)).toBe(`# ${heading}\n\nBody.`)
    // An explicit title is held to the same limit by validation.
    const explicit = await batch(cr.id, [insert('x'.repeat(256), 'body')])
    expect(explicit.body).toEqual(envelope(400, 'changes.0.title: must be at most 255 characters'))
  })

  it('cuts titles imported from an HTML h1 and a markdown heading the same way', async () => {
    const words = 'Imported heading words '.repeat(250).trim()
    const site = await serveSite({
      '/page': {
        body: `<!doctype html><html><head><title>Short</title></head><body><main><h1>${words}</h1><p>Text.</p></main></body></html>`
      },
      '/notes.md': { body: `# ${words}\n\nNotes.\n`, type: 'text/markdown; charset=utf-8' }
    })
    try {
      const cr = await openCr()
      for (const [path, source] of [
        ['/page', 'html'],
        ['/notes.md', 'markdown']
      ]) {
        const res = await t.owner.api.post(crPath(cr.id, '/content/import'), { url: `${site.url}${path}`, source })
        expect(res.status, JSON.stringify(res.body)).toBe(201)
      }
      const pages = (await t.owner.api.get(crPath(cr.id, '/content/pages'))).body.pages
      expect(pages).toHaveLength(2)
      for (const page of pages) {
        expect(codePoints(page.title)).toBeLessThanOrEqual(255)
        expect(page.title.endsWith('…')).toBe(true)
        expect(words.startsWith(`${page.title.slice(0, -1)} `)).toBe(true)
      }
    } finally {
      await site.close()
    }
  })
})

describe('slugs in every script', () => {
  it('keeps the letters of a title in its page slug and path, unique among siblings, and in heading anchors', async () => {
    const cr = await openCr('Scripts')
    const applied = await batch(cr.id, [
      insert('Größe 文档', '## Größe 文档\n\nText.', { ref: 'a' }),
      insert('Größe 文档', 'Again.'),
      insert('Привет, мир', 'Кириллица.', { into: 'a' }),
      insert('Ελληνικά', 'Κείμενο.', { into: 'a' }),
      insert('مرحبا', 'نص.'),
      insert('東京のラーメン', '本文。')
    ])
    expect(applied.status).toBe(200)
    expect((await merge(cr.id)).body.result).toBe('merge')
    const pages = (await t.owner.api.get(spacePath('/content'))).body.pages
    expect(pages.map((p: any) => [p.slug, p.path])).toEqual([
      ['größe-文档', 'größe-文档'],
      ['größe-文档-2', 'größe-文档-2'],
      ['مرحبا', 'مرحبا'],
      ['東京のラーメン', '東京のラーメン']
    ])
    expect(pages[0].pages.map((p: any) => p.path)).toEqual(['größe-文档/привет-мир', 'größe-文档/ελληνικά'])
    // A search result's section is the heading's anchor, with its letters.
    const found = (await t.owner.api.get(spacePath('/search'), { query: '文档' })).body.items
    const section = found.find((p: any) => p.id === pages[0].id).sections[0]
    expect(section).toMatchObject({ id: 'größe-文档', path: 'größe-文档#größe-文档' })
  })
})
