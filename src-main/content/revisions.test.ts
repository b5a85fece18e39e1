// Revision storage: what a revision costs in rows, and that every revision reads back what was written, whichever
// way it is stored (snapshot or delta) and after revisions it was stored over are deleted.
import { createHash } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { purgeExpiredSpaces } from '../workspace/workspace'
import type { Db } from '../storage/database'
import { openDatabase } from '../storage/database'
import { startTestServer, type TestServer } from '../testing/harness'
import {
  collectUnreferenced,
  countFiles,
  deleteRevisions,
  loadFile,
  loadFiles,
  loadFilesPage,
  loadPage,
  loadPages,
  loadReusableContents,
  writeRevision,
  type FileRecord,
  type PageRecord,
  type ReusableContentRecord
} from './revisions'
import { hashDocument, storeDocument } from './documents'

let t: TestServer | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const hashBytes = (text: string) => createHash('sha256').update(text).digest('hex')

/** Rows of every table of the workspace, by table. */
function tableRows(db: Db): Map<string, number> {
  const tables = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all()
  return new Map(tables.map((name) => [name, db.prepare<[], number>(`SELECT count(*) FROM "${name}"`).pluck().get()!]))
}
function grownBy(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...after].map(([name, n]) => [name, n - (before.get(name) ?? 0)]).filter(([, d]) => (d as number) > 0))
}

describe('a one-page edit of a 2,000-page space', () => {
  it('adds at most 20 rows to any table, in the change request and when merged', async () => {
    t = await startTestServer()
    const api = t.owner.api
    const db = t.server.api.services.db
    const spaceId = (await api.post(`/v1/orgs/${t.orgId}/spaces`, { title: 'Big', empty: true })).body.id
    const cr = async (subject: string) => (await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject })).body.id as string
    const seed = await cr('Seed')
    for (let b = 0; b < 40; b++) {
      const changes = Array.from({ length: 50 }, (_, i) => ({
        operation: 'insert_page',
        title: `Page ${b * 50 + i}`,
        document: { markdown: `# Page ${b * 50 + i}\n\nText of page ${b * 50 + i}, [a link](https://example.com/${i}).\n` }
      }))
      expect((await api.post(`/v1/spaces/${spaceId}/change-requests/${seed}/content`, { changes })).status).toBe(200)
    }
    expect((await api.post(`/v1/spaces/${spaceId}/change-requests/${seed}/merge`)).body.result).toBe('merge')
    const pages = (await api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages
    expect(pages).toHaveLength(2000)
    // The search rows catch up before the space's next search: what they cost is the edit's, not the seed's.
    await api.get(`/v1/spaces/${spaceId}/search`, { query: 'page' })

    const edit = await cr('One page')
    const before = tableRows(db)
    const res = await api.post(`/v1/spaces/${spaceId}/change-requests/${edit}/content`, {
      changes: [
        {
          operation: 'update_page',
          page: pages[1000].id,
          document: { markdown: '# Page 1000\n\nEdited text, [a link](https://example.com/new).\n' }
        }
      ]
    })
    expect(res.status).toBe(200)
    const edited = tableRows(db)
    expect(
      Object.values(grownBy(before, edited)).every((n) => n <= 20),
      JSON.stringify(grownBy(before, edited))
    ).toBe(true)
    expect(grownBy(before, edited).revisions).toBe(1)

    expect((await api.post(`/v1/spaces/${spaceId}/change-requests/${edit}/merge`)).body.result).toBe('merge')
    await api.get(`/v1/spaces/${spaceId}/search`, { query: 'edited' })
    const merged = tableRows(db)
    expect(
      Object.values(grownBy(edited, merged)).every((n) => n <= 20),
      JSON.stringify(grownBy(edited, merged))
    ).toBe(true)
    // And the content is what was written.
    expect((await api.get(`/v1/spaces/${spaceId}/content/page/${pages[1000].id}`)).body.markdown).toContain('Edited text')
    expect((await api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).toHaveLength(2000)
  }, 60_000)
})

describe('delta revisions read back what was written', () => {
  const now = '2026-03-01T10:00:00.000Z'
  const page = (id: string, position: number, title = id, parentId: string | null = null): PageRecord => ({
    id,
    parentId,
    position,
    type: 'document',
    title,
    emoji: null,
    slug: title.toLowerCase(),
    description: null,
    documentId: `doc-${id}`,
    documentHash: null,
    hidden: false,
    props: {},
    createdAt: now,
    updatedAt: now
  })
  const file = (id: string, name: string, blobHash: string): FileRecord => ({
    id,
    name,
    contentType: 'text/plain',
    blobHash,
    size: 1,
    width: null,
    height: null,
    git: null
  })

  function workspace() {
    const db = openDatabase({ file: ':memory:' })
    db.pragma('foreign_keys = OFF')
    // Two spaces of an organization this bare database does not hold: only the revisions matter here.
    for (const s of ['space', 'other'])
      db.prepare("INSERT INTO spaces (id, organization_id, title, position, created_at, updated_at) VALUES (?, 'org', ?, 0, '', '')").run(
        s,
        s
      )
    db.pragma('foreign_keys = ON')
    for (const h of ['b1', 'b2', 'b3']) db.prepare('INSERT INTO blobs (hash, size, bytes) VALUES (?, 1, ?)').run(h, Buffer.from('x'))
    return db
  }

  it('follows a model through edits, removals, snapshots and a copy to another space; deleting bases changes no reading', () => {
    const db = workspace()
    const doc = storeDocument(db, 'Included.\n')
    const model = new Map<
      string,
      { pages: Map<string, PageRecord>; files: Map<string, FileRecord>; reusable: Map<string, ReusableContentRecord> }
    >()
    let head = writeRevision(db, {
      spaceId: 'space',
      parents: [],
      type: 'edits',
      createdBy: null,
      now,
      pages: { upsert: Array.from({ length: 10 }, (_, i) => page(`p${i}`, i)), remove: [] },
      files: { upsert: [file('f1', 'a.txt', 'b1'), file('f2', 'b.txt', 'b2')], remove: [] },
      reusableContents: { upsert: [{ id: 'r1', title: 'Notice', documentHash: doc, git: null }], remove: [] }
    })
    let state = {
      pages: new Map(Array.from({ length: 10 }, (_, i) => [`p${i}`, page(`p${i}`, i)])),
      files: new Map([
        ['f1', file('f1', 'a.txt', 'b1')],
        ['f2', file('f2', 'b.txt', 'b2')]
      ]),
      reusable: new Map([['r1', { id: 'r1', title: 'Notice', documentHash: doc, git: null } as ReusableContentRecord]])
    }
    model.set(head, state)
    const all = [head]
    for (let step = 1; step <= 40; step++) {
      const upsert = [
        page(`p${step % 7}`, step % 7, `Title ${step}`),
        ...(step % 5 === 0 ? [page(`n${step}`, 100 + step, `New ${step}`, 'p1')] : [])
      ]
      const remove = step % 6 === 0 ? [`n${step - 1 - ((step - 1) % 5)}`].filter((id) => state.pages.has(id)) : []
      const files =
        step % 8 === 0 ? { upsert: [file(`f${step}`, `z${step}.txt`, 'b3')], remove: state.files.has('f2') ? ['f2'] : [] } : undefined
      const reusableContents = step === 20 ? { upsert: [], remove: ['r1'] } : undefined
      head = writeRevision(db, {
        spaceId: 'space',
        parents: [head],
        type: 'edits',
        createdBy: null,
        now,
        base: head,
        pages: { upsert, remove },
        files,
        reusableContents
      })
      state = { pages: new Map(state.pages), files: new Map(state.files), reusable: new Map(state.reusable) }
      for (const p of upsert) state.pages.set(p.id, p)
      for (const id of remove) state.pages.delete(id)
      for (const f of files?.upsert ?? []) state.files.set(f.id, f)
      for (const id of files?.remove ?? []) state.files.delete(id)
      if (reusableContents) state.reusable.delete('r1')
      model.set(head, state)
      all.push(head)
    }
    const copy = writeRevision(db, {
      spaceId: 'other',
      parents: [],
      type: 'edits',
      createdBy: null,
      now,
      base: head,
      pages: { upsert: [], remove: [] }
    })
    model.set(copy, model.get(head)!)

    const sortPages = (pages: Iterable<PageRecord>) =>
      [...pages].sort((a, b) => (a.parentId ?? '').localeCompare(b.parentId ?? '') || a.position - b.position)
    const check = (fresh: Db, ids: string[]) => {
      for (const id of ids) {
        const want = model.get(id)!
        expect(
          loadPages(fresh, id).map((p) => ({ ...p, props: { ...p.props } })),
          id
        ).toEqual(sortPages(want.pages.values()))
        const files = [...want.files.values()].sort((a, b) => a.name.localeCompare(b.name))
        expect(loadFiles(fresh, id)).toEqual(files)
        expect(countFiles(fresh, id)).toBe(files.length)
        expect(loadFilesPage(fresh, id, files[0] ? [files[0].name, files[0].id] : undefined, 10)).toEqual(files.slice(1))
        expect(loadReusableContents(fresh, id)).toEqual([...want.reusable.values()])
        for (const p of ['p3', 'n5', 'n10']) expect(loadPage(fresh, id, p) ?? null).toEqual(want.pages.get(p) ?? null)
        expect(loadFile(fresh, id, 'f2') ?? null).toEqual(want.files.get('f2') ?? null)
      }
    }
    // The same connection under another identity: the page cache (per connection object) is empty for it, so every
    // revision is read from its rows, not derived in memory as writeRevision left it.
    const reread = Object.create(db) as Db
    check(reread, [...all, copy])

    const kinds = db
      .prepare<[], { snapshots: number; deltas: number }>(
        'SELECT sum(base_id IS NULL) AS snapshots, sum(base_id IS NOT NULL) AS deltas FROM revision_bases'
      )
      .get()!
    expect(kinds.deltas).toBeGreaterThan(30)
    expect(kinds.snapshots).toBeGreaterThan(1)
    // A copy to another space is a snapshot: deleting the other space's revisions never touches it.
    expect(db.prepare('SELECT base_id FROM revision_bases WHERE revision_id = ?').pluck().get(copy)).toBeNull()

    // Deleting revisions others are stored over (a snapshot among them) folds them into those: the rest read the same.
    const gone = all.filter((_, i) => i % 3 !== 2 && i !== all.length - 1)
    expect(deleteRevisions(db, gone)).toBe(gone.length)
    const left = [...all.filter((id) => !gone.includes(id)), copy]
    check(Object.create(db) as Db, left)
    expect(
      db.prepare('SELECT count(*) FROM revision_bases WHERE base_id IN (SELECT value FROM json_each(?))').pluck().get(JSON.stringify(gone))
    ).toBe(0)
    db.close()
  })
})

describe('collecting unreferenced documents and blobs', () => {
  it('collects what no revision refers to any more (at the second collection), and nothing a revision still needs', async () => {
    t = await startTestServer()
    const api = t.owner.api
    const db = t.server.api.services.db
    const b64 = (text: string) => Buffer.from(text).toString('base64')
    const space = async (title: string) => (await api.post(`/v1/orgs/${t!.orgId}/spaces`, { title, empty: true })).body.id as string
    const cr = async (spaceId: string) => (await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' })).body.id as string
    const batch = async (spaceId: string, crId: string, changes: unknown[]) =>
      expect((await api.post(`/v1/spaces/${spaceId}/change-requests/${crId}/content`, { changes })).status).toBe(200)
    const merge = async (spaceId: string, crId: string) =>
      expect((await api.post(`/v1/spaces/${spaceId}/change-requests/${crId}/merge`)).body.result).toBe('merge')
    const insert = (title: string, markdown: string) => ({ operation: 'insert_page', title, document: { markdown } })
    const files = (...names: string[]) => ({
      operation: 'insert_files',
      files: names.map((name) => ({ name, contentType: 'text/plain', base64: b64(`bytes of ${name.replace(/^[ab]-/, '')}`) }))
    })

    const gone = await space('Gone')
    const kept = await space('Kept')
    let c = await cr(gone)
    await batch(gone, c, [
      insert('Shared', 'Shared text, [site](https://example.com).\n'),
      insert('Only here', 'Only in the deleted space, [x](https://example.com/x).\n'),
      files('a-shared.txt', 'only.txt')
    ])
    await merge(gone, c)
    c = await cr(kept)
    await batch(kept, c, [
      insert('Shared', 'Shared text, [site](https://example.com).\n'),
      insert('History', 'The first version.\n'),
      files('b-shared.txt')
    ])
    await merge(kept, c)
    const history = (await api.get(`/v1/spaces/${kept}/content/pages`)).body.pages.find((p: any) => p.title === 'History').id
    c = await cr(kept)
    await batch(kept, c, [{ operation: 'update_page', page: history, document: { markdown: 'The second version.\n' } }])
    await merge(kept, c)
    // An open change request's own content.
    c = await cr(kept)
    await batch(kept, c, [insert('Draft', 'Only in an open change request.\n')])

    expect((await api.delete(`/v1/spaces/${gone}`)).status).toBe(205)
    t.clock.advance(8 * 24 * 60 * 60 * 1000)
    expect(purgeExpiredSpaces(t.server.api.services)).toBe(1)

    const hashOf = (markdown: string) => hashDocument(markdown)
    const has = (table: string, column: string, hash: string) =>
      db.prepare<[string], number>(`SELECT count(*) FROM ${table} WHERE ${column} = ?`).pluck().get(hash)!
    const onlyHere = hashOf('Only in the deleted space, [x](https://example.com/x).\n')
    const onlyBlob = hashBytes('bytes of only.txt')
    expect(has('documents', 'hash', onlyHere)).toBe(1)
    expect(has('blobs', 'hash', onlyBlob)).toBe(1)

    // The first collection only marks; the second deletes what is still unreferenced.
    expect(await collectUnreferenced(db)).toEqual({ documents: 0, blobs: 0 })
    expect(await collectUnreferenced(db)).toEqual({ documents: 1, blobs: 1 })
    expect(has('documents', 'hash', onlyHere)).toBe(0)
    expect(has('blobs', 'hash', onlyBlob)).toBe(0)

    // Every revision of the kept space still finds every document and blob it names: its history and open work too.
    for (const markdown of [
      'Shared text, [site](https://example.com).\n',
      'The first version.\n',
      'The second version.\n',
      'Only in an open change request.\n'
    ]) {
      expect(has('documents', 'hash', hashOf(markdown)), markdown).toBe(1)
    }
    expect(has('blobs', 'hash', hashBytes('bytes of shared.txt'))).toBe(1)
    for (const revision of db.prepare<[string], string>('SELECT id FROM revisions WHERE space_id = ?').pluck().all(kept)) {
      for (const p of loadPages(db, revision)) if (p.documentHash) expect(has('documents', 'hash', p.documentHash)).toBe(1)
      for (const f of loadFiles(db, revision)) expect(has('blobs', 'hash', f.blobHash)).toBe(1)
    }
    expect(db.pragma('foreign_key_check')).toEqual([])
  })
})
