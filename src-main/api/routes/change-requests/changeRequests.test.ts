import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { DEFAULT_LAYOUT, PNG } from './fixtures'

let t: TestServer
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace()
})
afterEach(() => t.close())

const crPath = (cr: string | number, rest = '') => `/v1/spaces/${spaceId}/change-requests/${cr}${rest}`
const openCr = async (subject = 'Edit', api = t.owner.api) => (await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject })).body
const batch = (cr: string, changes: unknown[], api = t.owner.api) => api.post(crPath(cr, '/content'), { changes })
const merge = (cr: string) => t.owner.api.post(crPath(cr, '/merge'))
const primaryPages = async () => (await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages
const pageMarkdown = async (pageId: string, cr?: string) =>
  (await t.owner.api.get(cr ? crPath(cr, `/content/page/${pageId}`) : `/v1/spaces/${spaceId}/content/page/${pageId}`)).body.markdown

/** Seeds the primary content with pages through a merged change request; returns their ids by ref. */
async function seed(pages: { ref: string; markdown: string; title?: string; into?: string }[]) {
  const cr = await openCr('Seed')
  const res = await batch(
    cr.id,
    pages.map((p) => ({ operation: 'insert_page', ...p, document: { markdown: p.markdown } }))
  )
  expect(res.status).toBe(200)
  expect((await merge(cr.id)).body.result).toBe('merge')
  const ids: Record<string, string> = {}
  const walkTree = (list: any[]) => list.forEach((p) => ((ids[p.title] = p.id), walkTree(p.pages)))
  walkTree(await primaryPages())
  return ids
}

const LINES = 'line one\nline two\nline three\nline four\nline five\n'

describe('change requests', () => {
  it('creates drafts numbered per space and counts them on the space', async () => {
    const first = await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'First' })
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({
      object: 'change-request',
      id: expect.any(String),
      number: 1,
      status: 'draft',
      subject: 'First',
      comments: 0,
      outdated: false,
      createdBy: { object: 'user', id: t.owner.user.id },
      urls: { app: expect.any(String), location: expect.any(String) }
    })
    expect(first.body.revision).toBe(first.body.revisionInitial)
    const second = await openCr('Second')
    expect(second.number).toBe(2)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body).toMatchObject({
      changeRequests: 2,
      changeRequestsDraft: 2,
      changeRequestsOpen: 0
    })
    expect((await t.owner.api.get(crPath(2))).body.id).toBe(second.id)
    expect((await t.owner.api.get(crPath(second.id))).body.number).toBe(2)
    expect((await t.owner.api.get(crPath(99))).status).toBe(404)
  })

  it('validates and authorizes', async () => {
    expect((await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'x'.repeat(101) })).body.error.message).toBe(
      'subject: must be at most 100 characters'
    )
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.post(`/v1/spaces/${spaceId}/change-requests`, {})).status).toBe(403)
    expect((await t.anonymous.get(`/v1/spaces/${spaceId}/change-requests`)).status).toBe(401)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests`, { status: 'closed' })).status).toBe(400)
    await t.owner.api.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' })
    expect((await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, {})).status).toBe(403)
  })

  it('moves status along the allowed transitions and keeps the counters true', async () => {
    const cr = await openCr()
    const patch = (body: unknown) => t.owner.api.patch(crPath(cr.id), body)
    expect((await patch({ status: 'open', subject: 'Ready' })).body).toMatchObject({ status: 'open', subject: 'Ready' })
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body).toMatchObject({ changeRequestsOpen: 1, changeRequestsDraft: 0 })
    expect((await patch({ status: 'archived' })).body.status).toBe('archived')
    expect((await patch({ status: 'draft' })).status).toBe(409)
    expect((await patch({ status: 'merged' })).status).toBe(400)
    expect((await patch({ status: 'open' })).body.status).toBe('open')
    expect((await merge(cr.id)).body.result).toBe('merge')
    expect((await patch({ status: 'open' })).status).toBe(409)
    expect((await merge(cr.id)).status).toBe(409)
    const list = await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests`, { status: 'merged' })
    expect(list.body.items.map((c: any) => c.id)).toEqual([cr.id])
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests`)).body.count).toBe(0)
  })

  it('lists by status (default open) and contributor, newest first, in pages', async () => {
    const editor = await t.user({ role: 'edit' })
    for (let i = 0; i < 5; i++) await t.owner.api.patch(crPath((await openCr(`Mine ${i}`)).id), { status: 'open' })
    const theirs = await openCr('Theirs', editor.api)
    await editor.api.patch(crPath(theirs.id), { status: 'open' })
    const { items, pages } = await walk(t.owner.api, `/v1/spaces/${spaceId}/change-requests`, { limit: 2 })
    expect(items.map((c) => c.subject)).toEqual(['Theirs', 'Mine 4', 'Mine 3', 'Mine 2', 'Mine 1', 'Mine 0'])
    expect(pages[0].count).toBe(6)
    const byEditor = await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests`, { contributor: editor.user.id })
    expect(byEditor.body.items.map((c: any) => c.subject)).toEqual(['Theirs'])
  })
})

describe('content batches', () => {
  it('inserts pages with refs, titles from front matter or the first heading, all or nothing', async () => {
    const cr = await openCr()
    const res = await batch(cr.id, [
      { operation: 'insert_page', ref: 'guide', document: { markdown: '---\ntitle: The Guide\n---\nWelcome' } },
      { operation: 'insert_page', into: 'guide', document: { markdown: '# Install\n\nRun it.' } },
      { operation: 'insert_page', into: 'guide', at: 0, title: 'First', document: { markdown: 'first' } }
    ])
    expect(res.status).toBe(200)
    expect(res.body.revision).not.toBe(cr.revision)
    const pages = (await t.owner.api.get(crPath(cr.id, '/content/pages'))).body.pages
    expect(pages).toHaveLength(1)
    expect(pages[0]).toMatchObject({ title: 'The Guide', path: 'the-guide', type: 'document', hidden: false })
    expect(pages[0].pages.map((p: any) => [p.title, p.path])).toEqual([
      ['First', 'the-guide/first'],
      ['Install', 'the-guide/install']
    ])
    expect(await primaryPages()).toEqual([])

    const failed = await batch(cr.id, [
      { operation: 'insert_page', document: { markdown: 'ok' }, title: 'Kept?' },
      { operation: 'update_page', page: 'missing', title: 'x' }
    ])
    expect(failed.status).toBe(400)
    expect(failed.body.error.message).toBe('changes.1.page: no page missing in the change request')
    expect((await t.owner.api.get(crPath(cr.id))).body.revision).toBe(res.body.revision)
  })

  it('validates every change', async () => {
    const cr = await openCr()
    const cases: [unknown, string][] = [
      [[], 'changes: must have at least 1 items'],
      [[{ operation: 'rename_page' }], 'changes.0.operation'],
      [[{ operation: 'insert_page' }], 'changes.0.document: is required'],
      [[{ operation: 'update_page' }], 'changes.0.page: is required'],
      [[{ operation: 'insert_page', document: { markdown: 'x' }, at: -1 }], 'changes.0.at: must be at least 0'],
      [[{ operation: 'insert_files', files: [] }], 'changes.0.files: must have at least 1 items'],
      [Array.from({ length: 51 }, () => ({ operation: 'delete_page', page: 'x' })), 'changes: must have at most 50 items']
    ]
    for (const [changes, message] of cases) {
      const res = await t.owner.api.post(crPath(cr.id, '/content'), { changes })
      expect(res.status, JSON.stringify(changes).slice(0, 80)).toBe(400)
      expect(res.body.error.message).toContain(message)
    }
  })

  it('updates, moves, reverts and deletes pages; refuses moving a page into its own child', async () => {
    const ids = await seed([
      { ref: 'a', title: 'A', markdown: 'alpha' },
      { ref: 'b', title: 'B', markdown: 'beta' },
      { ref: 'c', title: 'C', markdown: 'gamma', into: 'a' }
    ])
    const cr = await openCr()
    expect((await batch(cr.id, [{ operation: 'update_page', page: ids.A, into: ids.C }])).body.error.message).toContain('into itself')
    await batch(cr.id, [
      { operation: 'update_page', page: ids.B, document: { markdown: 'beta v2' }, title: 'B2', into: ids.A, at: 0 },
      { operation: 'delete_page', page: ids.C }
    ])
    let pages = (await t.owner.api.get(crPath(cr.id, '/content/pages'))).body.pages
    expect(pages.map((p: any) => p.title)).toEqual(['A'])
    expect(pages[0].pages.map((p: any) => p.title)).toEqual(['B2'])
    expect(await pageMarkdown(ids.B, cr.id)).toBe('beta v2')
    await batch(cr.id, [
      { operation: 'revert_page', page: ids.B },
      { operation: 'revert_page', page: ids.C }
    ])
    expect(await pageMarkdown(ids.B, cr.id)).toBe('beta')
    pages = (await t.owner.api.get(crPath(cr.id, '/content/pages'))).body.pages
    expect(pages[0].pages.map((p: any) => p.title).sort()).toEqual(['B', 'C'])
  })

  it('refuses edits to a locked space and from readers', async () => {
    const cr = await openCr()
    const reader = await t.user({ role: 'read' })
    expect((await batch(cr.id, [{ operation: 'insert_page', document: { markdown: 'x' } }], reader.api)).status).toBe(403)
    await t.owner.api.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' })
    expect((await batch(cr.id, [{ operation: 'insert_page', document: { markdown: 'x' } }])).status).toBe(403)
    expect((await merge(cr.id)).status).toBe(403)
  })
})

describe('merge', () => {
  it('merges two change requests editing different lines of one page: the page holds both edits', async () => {
    const ids = await seed([{ ref: 'p', title: 'Page', markdown: LINES }])
    const one = await openCr('One')
    const two = await openCr('Two')
    await batch(one.id, [{ operation: 'update_page', page: ids.Page, document: { markdown: LINES.replace('line one', 'line ONE') } }])
    await batch(two.id, [{ operation: 'update_page', page: ids.Page, document: { markdown: LINES.replace('line five', 'line FIVE') } }])
    const first = await merge(one.id)
    expect(first.status).toBe(200)
    expect(first.body.result).toBe('merge')
    expect((await t.owner.api.get(crPath(two.id))).body.outdated).toBe(true)
    const second = await merge(two.id)
    expect(second.body.result).toBe('merge')
    expect(await pageMarkdown(ids.Page)).toBe('line ONE\nline two\nline three\nline four\nline FIVE\n')
    const space = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body
    expect(space.revision).toBe(second.body.revision)
    expect((await t.owner.api.get(crPath(two.id))).body).toMatchObject({ status: 'merged', revisionMerged: second.body.revision })
  })

  it('merges edits of neighbouring lines: one change request edits line two, the other deletes line three', async () => {
    const ids = await seed([{ ref: 'p', title: 'Page', markdown: LINES }])
    const one = await openCr('One')
    const two = await openCr('Two')
    await batch(one.id, [{ operation: 'update_page', page: ids.Page, document: { markdown: LINES.replace('line two', 'line TWO') } }])
    await batch(two.id, [{ operation: 'update_page', page: ids.Page, document: { markdown: LINES.replace('line three\n', '') } }])
    expect((await merge(one.id)).body.result).toBe('merge')
    expect((await merge(two.id)).body.result).toBe('merge')
    expect(await pageMarkdown(ids.Page)).toBe('line one\nline TWO\nline four\nline five\n')
  })

  it('answers conflicts when both edit the same line, and changes nothing', async () => {
    const ids = await seed([{ ref: 'p', title: 'Page', markdown: LINES }])
    const one = await openCr('One')
    const two = await openCr('Two')
    await batch(one.id, [{ operation: 'update_page', page: ids.Page, document: { markdown: LINES.replace('line two', 'line 2 (one)') } }])
    await batch(two.id, [{ operation: 'update_page', page: ids.Page, document: { markdown: LINES.replace('line two', 'line 2 (two)') } }])
    await merge(one.id)
    const before = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision
    const res = await merge(two.id)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ result: 'conflicts', revision: before, conflicts: [{ page: { id: ids.Page }, reason: 'content' }] })
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(before)
    expect(await pageMarkdown(ids.Page)).toContain('line 2 (one)')
    expect((await t.owner.api.get(crPath(two.id))).body.status).toBe('draft')
    const changes = (await t.owner.api.get(crPath(two.id, '/changes'))).body.changes
    expect(changes).toEqual([
      expect.objectContaining({ type: 'page_edited', page: expect.objectContaining({ id: ids.Page }), conflict: true })
    ])
  })

  it('merges a page moved in one change request and edited in another', async () => {
    const ids = await seed([
      { ref: 'a', title: 'A', markdown: 'alpha' },
      { ref: 'b', title: 'B', markdown: LINES }
    ])
    const mover = await openCr('Move')
    const editor = await openCr('Edit')
    await batch(mover.id, [{ operation: 'update_page', page: ids.B, into: ids.A }])
    await batch(editor.id, [{ operation: 'update_page', page: ids.B, document: { markdown: LINES + 'line six\n' } }])
    expect((await merge(mover.id)).body.result).toBe('merge')
    expect((await merge(editor.id)).body.result).toBe('merge')
    const pages = await primaryPages()
    expect(pages.map((p: any) => p.title)).toEqual(['A'])
    expect(pages[0].pages[0]).toMatchObject({ id: ids.B, path: 'a/b' })
    expect(await pageMarkdown(ids.B)).toBe(LINES + 'line six\n')
  })

  it('keeps a page moved in one change request when another only adds or removes its siblings', async () => {
    const ids = await seed([
      { ref: 'a', title: 'A', markdown: 'alpha' },
      { ref: 'b', title: 'B', markdown: 'beta' },
      { ref: 'c', title: 'C', markdown: 'gamma' }
    ])
    const mover = await openCr('Move')
    const other = await openCr('Siblings')
    await batch(mover.id, [{ operation: 'update_page', page: ids.C, into: ids.A }])
    // Deleting B shifts C up, and a page is added at the end: neither moves C.
    await batch(other.id, [
      { operation: 'delete_page', page: ids.B },
      { operation: 'insert_page', title: 'New', document: { markdown: 'new' } }
    ])
    expect((await merge(mover.id)).body.result).toBe('merge')
    expect((await merge(other.id)).body.result).toBe('merge')
    const pages = await primaryPages()
    expect(pages.map((p: any) => [p.title, p.pages.map((c: any) => c.title)])).toEqual([
      ['A', ['C']],
      ['New', []]
    ])
  })

  it('update keeps the moves of the change request while pulling in pages added beside them', async () => {
    const ids = await seed([
      { ref: 'a', title: 'A', markdown: 'alpha' },
      { ref: 'b', title: 'B', markdown: 'beta' },
      { ref: 'c', title: 'C', markdown: 'gamma' }
    ])
    const mover = await openCr('Move')
    const adder = await openCr('Add')
    await batch(mover.id, [{ operation: 'update_page', page: ids.C, into: ids.A }])
    await batch(adder.id, [{ operation: 'insert_page', title: 'New', at: 0, document: { markdown: 'new' } }])
    expect((await merge(adder.id)).body.result).toBe('merge')
    expect((await t.owner.api.post(crPath(mover.id, '/update'))).body.result).toBe('update')
    const tree = (list: any[]): unknown[] => list.map((p) => (p.pages.length ? [p.title, tree(p.pages)] : p.title))
    expect(tree((await t.owner.api.get(crPath(mover.id, '/content/pages'))).body.pages)).toEqual(['New', ['A', ['C']], 'B'])
    expect((await merge(mover.id)).body.result).toBe('merge')
    expect(tree(await primaryPages())).toEqual(['New', ['A', ['C']], 'B'])
  })

  it('orders siblings by both sides: a page moved to the top on one side, a page inserted on the other', async () => {
    const ids = await seed(['A', 'B', 'C', 'D'].map((title) => ({ ref: title, title, markdown: title })))
    const reorder = await openCr('Reorder')
    const insert = await openCr('Insert')
    await batch(reorder.id, [{ operation: 'update_page', page: ids.D, at: 0 }])
    await batch(insert.id, [{ operation: 'insert_page', title: 'X', at: 2, document: { markdown: 'x' } }])
    expect((await merge(reorder.id)).body.result).toBe('merge')
    expect((await merge(insert.id)).body.result).toBe('merge')
    expect((await primaryPages()).map((p: any) => p.title)).toEqual(['D', 'A', 'B', 'X', 'C'])
  })

  it('answers conflicts when a page is moved under a page the other side removed, and /changes marks it', async () => {
    const ids = await seed([
      { ref: 'p', title: 'P', markdown: 'parent' },
      { ref: 'q', title: 'Q', markdown: 'page' }
    ])
    const mover = await openCr('Move')
    const remover = await openCr('Remove')
    await batch(mover.id, [
      { operation: 'update_page', page: ids.Q, into: ids.P },
      { operation: 'insert_page', title: 'Child', into: ids.P, document: { markdown: 'child' } }
    ])
    await batch(remover.id, [{ operation: 'delete_page', page: ids.P }])
    expect((await merge(remover.id)).body.result).toBe('merge')
    const before = await primaryPages()
    const merged = await merge(mover.id)
    expect(merged.body.result).toBe('conflicts')
    expect(merged.body.conflicts.map((c: any) => [c.page.title, c.reason]).sort()).toEqual([
      ['Child', 'removed'],
      ['Q', 'removed']
    ])
    expect(await primaryPages()).toEqual(before)
    const changes = (await t.owner.api.get(crPath(mover.id, '/changes'))).body.changes
    expect(changes.map((c: any) => [c.type, c.page.title, c.conflict ?? false]).sort()).toEqual([
      ['page_created', 'Child', true],
      ['page_moved', 'Q', true]
    ])
    expect((await t.owner.api.post(crPath(mover.id, '/update'))).body.result).toBe('conflicts')

    // The other way round: the change request removes a page under which the primary content added one.
    const ids2 = await seed([{ ref: 'r', title: 'R', markdown: 'r' }])
    const dropper = await openCr('Drop R')
    const adder = await openCr('Add under R')
    await batch(dropper.id, [{ operation: 'delete_page', page: ids2.R }])
    await batch(adder.id, [{ operation: 'insert_page', title: 'Under R', into: ids2.R, document: { markdown: 'u' } }])
    expect((await merge(adder.id)).body.result).toBe('merge')
    const dropChanges = (await t.owner.api.get(crPath(dropper.id, '/changes'))).body.changes
    expect(dropChanges.map((c: any) => [c.type, c.page.title, c.conflict ?? false])).toEqual([['page_deleted', 'R', true]])
  })

  it('keeps the slug and links of an existing page when a page of the same title is added beside it', async () => {
    const ids = await seed([
      { ref: 's', title: 'Setup', markdown: 'Install it.' },
      { ref: 'h', title: 'Home', markdown: 'See [setup](/setup).' }
    ])
    const cr = await openCr('Another setup')
    await batch(cr.id, [{ operation: 'insert_page', title: 'Setup', at: 0, document: { markdown: 'Another one.' } }])
    const inCr = (await t.owner.api.get(crPath(cr.id, '/content/pages'))).body.pages
    expect(inCr.map((p: any) => [p.title, p.id === ids.Setup, p.path])).toEqual([
      ['Setup', false, 'setup-2'],
      ['Setup', true, 'setup'],
      ['Home', false, 'home']
    ])
    // A second change request adds one more: each merge leaves the pages already there where they were.
    const second = await openCr('A third setup')
    await batch(second.id, [{ operation: 'insert_page', title: 'Setup', at: 0, document: { markdown: 'A third.' } }])
    expect((await merge(cr.id)).body.result).toBe('merge')
    expect((await merge(second.id)).body.result).toBe('merge')
    const pages = await primaryPages()
    expect(pages.find((p: any) => p.id === ids.Setup).path).toBe('setup')
    expect(pages.map((p: any) => p.path).sort()).toEqual(['home', 'setup', 'setup-2', 'setup-3'])
    const links = (await t.owner.api.get(`/v1/spaces/${spaceId}/links`)).body.items
    expect(links.map((l: any) => [l.href, l.status, l.targetReference.page])).toEqual([['/setup', 'ok', ids.Setup]])
  })

  it('update pulls the primary content in and clears outdated; a later merge keeps both', async () => {
    const ids = await seed([{ ref: 'p', title: 'Page', markdown: LINES }])
    const one = await openCr('One')
    const two = await openCr('Two')
    await batch(two.id, [{ operation: 'update_page', page: ids.Page, document: { markdown: LINES.replace('line four', 'line 4') } }])
    await batch(one.id, [{ operation: 'insert_page', title: 'New', document: { markdown: 'new page' } }])
    await merge(one.id)
    expect((await t.owner.api.get(crPath(two.id))).body.outdated).toBe(true)
    const updated = await t.owner.api.post(crPath(two.id, '/update'))
    expect(updated.status).toBe(200)
    expect(updated.body.result).toBe('update')
    const cr = (await t.owner.api.get(crPath(two.id))).body
    expect(cr).toMatchObject({ outdated: false, revision: updated.body.revision })
    expect(cr.revisionMergedAncestor).toBe((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision)
    expect((await t.owner.api.get(crPath(two.id, '/content/pages'))).body.pages.map((p: any) => p.title)).toEqual(['Page', 'New'])
    const changes = (await t.owner.api.get(crPath(two.id, '/changes'))).body.changes
    expect(changes.map((c: any) => c.type)).toEqual(['page_edited'])
    expect((await merge(two.id)).body.result).toBe('merge')
    expect((await primaryPages()).map((p: any) => p.title)).toEqual(['Page', 'New'])
    expect(await pageMarkdown(ids.Page)).toContain('line 4')
  })

  it('reports added, removed, edited and moved pages', async () => {
    const ids = await seed([
      { ref: 'a', title: 'A', markdown: 'alpha' },
      { ref: 'b', title: 'B', markdown: 'beta' },
      { ref: 'c', title: 'C', markdown: 'gamma' }
    ])
    const cr = await openCr()
    await batch(cr.id, [
      { operation: 'insert_page', title: 'D', document: { markdown: 'delta' } },
      { operation: 'delete_page', page: ids.C },
      { operation: 'update_page', page: ids.A, document: { markdown: 'alpha 2' } },
      { operation: 'update_page', page: ids.B, into: ids.A }
    ])
    const changes = (await t.owner.api.get(crPath(cr.id, '/changes'))).body.changes
    const summary = changes.map((c: any) => `${c.type}:${c.page.title}`).sort()
    expect(summary).toEqual(['page_created:D', 'page_deleted:C', 'page_edited:A', 'page_moved:B'])
    const edited = changes.find((c: any) => c.type === 'page_edited')
    expect(edited).toMatchObject({ before: { markdown: 'alpha' }, after: { markdown: 'alpha 2' } })
    expect(changes.find((c: any) => c.type === 'page_moved').after.path).toBe('a/b')
  })

  it('lists one page moved among its siblings once, not the siblings it shifted', async () => {
    const ids = await seed(['A', 'B', 'C', 'D'].map((title) => ({ ref: title, title, markdown: title })))
    const cr = await openCr()
    expect((await batch(cr.id, [{ operation: 'update_page', page: ids.C, at: 0 }])).status).toBe(200)
    expect((await t.owner.api.get(crPath(cr.id, '/content/pages'))).body.pages.map((p: any) => p.title)).toEqual(['C', 'A', 'B', 'D'])
    const changes = (await t.owner.api.get(crPath(cr.id, '/changes'))).body.changes
    expect(changes.map((c: any) => `${c.type}:${c.page.title}`)).toEqual(['page_moved:C'])
  })
})

// Optimistic concurrency on content: reads answer the revision they read as their ETag, and writes sent back
// with it as If-Match are refused (412) where they would overwrite what changed since.
const editDoc = (page: string, markdown: string) => ({ operation: 'update_page', page, document: { markdown } })

/** A POST with an If-Match header (the test client sends none of its own). */
async function postIfMatch(path: string, ifMatch: string, body: unknown = {}) {
  const res = await fetch(new URL(path, t.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${t.owner.api.token}`, 'content-type': 'application/json', 'if-match': ifMatch },
    body: JSON.stringify(body)
  })
  return { status: res.status, body: (await res.json()) as any }
}

/** A change request holding pages A and B, both as first written. */
async function crWithPages() {
  const cr = await openCr()
  const res = await batch(cr.id, [
    { operation: 'insert_page', title: 'A', document: { markdown: 'alpha\n' }, ref: 'a' },
    { operation: 'insert_page', title: 'B', document: { markdown: 'beta\n' }, ref: 'b' }
  ])
  const pages = (await t.owner.api.get(crPath(cr.id, '/content/pages'))).body.pages
  return { cr, revision: res.body.revision as string, a: pages[0].id as string, b: pages[1].id as string }
}

describe('ETag and If-Match on content', () => {
  it('answers the revision read as the ETag of content reads', async () => {
    const { cr, revision, a } = await crWithPages()
    for (const path of ['/content', '/content/pages', `/content/page/${a}`]) {
      expect((await t.owner.api.get(crPath(cr.id, path))).headers.get('etag'), path).toBe(`"${revision}"`)
    }
    const primary = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).headers.get('etag')).toBe(`"${primary}"`)
  })

  it('refuses a write over a page changed since the revision it names, and applies one to a page nobody touched', async () => {
    const { cr, a, b } = await crWithPages()
    const read = (await t.owner.api.get(crPath(cr.id, `/content/page/${a}`))).headers.get('etag')!
    // Someone else edits A in the same change request meanwhile.
    const theirs = await batch(cr.id, [editDoc(a, 'alpha, edited by someone else\n')])
    expect(theirs.status).toBe(200)

    const refused = await postIfMatch(crPath(cr.id, '/content'), read, { changes: [editDoc(b, 'beta 2\n'), editDoc(a, 'alpha, mine\n')] })
    expect(refused.status).toBe(412)
    expect(refused.body).toEqual({
      error: {
        code: 412,
        message: `changes.1.page: “A” changed since revision ${read.slice(1, -1)} (If-Match): read it again before writing over it`
      }
    })
    // All or nothing: B is not written either, and A keeps the other edit.
    expect((await t.owner.api.get(crPath(cr.id))).body.revision).toBe(theirs.body.revision)
    expect(await pageMarkdown(a, cr.id)).toBe('alpha, edited by someone else\n')
    expect(await pageMarkdown(b, cr.id)).toBe('beta\n')

    expect((await postIfMatch(crPath(cr.id, '/content'), read, { changes: [{ operation: 'delete_page', page: a }] })).status).toBe(412)
    const untouched = await postIfMatch(crPath(cr.id, '/content'), read, { changes: [editDoc(b, 'beta 2\n')] })
    expect(untouched.status).toBe(200)
    expect(await pageMarkdown(b, cr.id)).toBe('beta 2\n')

    // Read again: the write goes through. `*`, a weak tag and a list naming the head are accepted too.
    const fresh = (await t.owner.api.get(crPath(cr.id, `/content/page/${a}`))).headers.get('etag')!
    expect((await postIfMatch(crPath(cr.id, '/content'), fresh, { changes: [editDoc(a, 'alpha, mine\n')] })).status).toBe(200)
    expect(await pageMarkdown(a, cr.id)).toBe('alpha, mine\n')
    const head = (await t.owner.api.get(crPath(cr.id))).body.revision
    expect((await postIfMatch(crPath(cr.id, '/content'), '*', { changes: [editDoc(a, 'any\n')] })).status).toBe(200)
    expect((await postIfMatch(crPath(cr.id, '/content'), `"nope", W/"${head}"`, { changes: [editDoc(a, 'stale\n')] })).status).toBe(412)
  })

  it('refuses a rename over a title changed since, and a tag that names no revision of the space', async () => {
    const { cr, revision, b } = await crWithPages()
    expect((await batch(cr.id, [{ operation: 'update_page', page: b, title: 'Bee' }])).status).toBe(200)
    const renamed = await postIfMatch(crPath(cr.id, '/content'), `"${revision}"`, {
      changes: [{ operation: 'update_page', page: b, title: 'Beta' }]
    })
    expect(renamed.status).toBe(412)
    expect(renamed.body.error.message).toMatch(/^changes\.0\.page: “Bee” changed since revision/)
    // Moving it is not an overwrite of what changed.
    expect(
      (await postIfMatch(crPath(cr.id, '/content'), `"${revision}"`, { changes: [{ operation: 'update_page', page: b, at: 0 }] })).status
    ).toBe(200)
    const unknown = await postIfMatch(crPath(cr.id, '/content'), '"not-a-revision"', {
      changes: [{ operation: 'update_page', page: b, title: 'Beta' }]
    })
    expect(unknown).toEqual({
      status: 412,
      body: { error: { code: 412, message: 'If-Match: not-a-revision is not a revision of this space' } }
    })
  })

  it('merges only the change request a reviewer saw: If-Match on merge', async () => {
    const { cr, revision, a } = await crWithPages()
    const later = await batch(cr.id, [editDoc(a, 'alpha, after the review\n')])
    const refused = await postIfMatch(crPath(cr.id, '/merge'), `"${revision}"`)
    expect(refused.status).toBe(412)
    expect(refused.body.error.message).toBe(
      `The change request changed since revision ${revision} (If-Match): review it again before merging`
    )
    expect((await t.owner.api.get(crPath(cr.id))).body.status).toBe('draft')
    const merged = await postIfMatch(crPath(cr.id, '/merge'), `"${later.body.revision}"`)
    expect(merged.status).toBe(200)
    expect(merged.body.result).toBe('merge')
  })
})

const SETTINGS = [
  '---',
  'description: Start here',
  'icon: rocket',
  'cover: /files/banner',
  'coverY: 30',
  'layout:',
  '  cover:',
  '    size: hero',
  '  title:',
  '    visible: false',
  '  tableOfContents:',
  '    visible: false',
  '  width: wide',
  '  metadata:',
  '    visible: false',
  'hidden: true',
  'noIndex: true',
  '---',
  '',
  '# Welcome',
  ''
].join('\n')

describe('page settings in front matter', () => {
  // Settings written in a document's front matter (layout, cover, icon, noIndex...) as the Page shows them: set by
  // the content batch, kept through a merge, back to the defaults when the front matter goes.
  const open = async () => (await openCr()).id as string
  const apply = async (cr: string, changes: unknown[]) => {
    const res = await batch(cr, changes)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  }
  const pageIn = async (cr: string, pageId: string) => (await t.owner.api.get(crPath(cr, `/content/page/${pageId}`))).body
  const pagesIn = async (cr: string) => (await t.owner.api.get(crPath(cr, '/content/pages'))).body.pages as any[]

  it('sets layout, cover, icon, description, hidden and noIndex; a page without front matter has the defaults', async () => {
    const cr = await open()
    await apply(cr, [
      { operation: 'insert_files', files: [{ ref: 'banner', name: 'banner.png', contentType: 'image/png', base64: PNG }] },
      { operation: 'insert_page', document: { markdown: SETTINGS }, ref: 'welcome' },
      { operation: 'insert_page', title: 'Plain', document: { markdown: 'Text.' } }
    ])
    const tree = await pagesIn(cr)
    const fileId = (await t.owner.api.get(crPath(cr, '/content/files'))).body.items[0].id
    const [welcome, plain] = tree
    expect(welcome).toMatchObject({
      title: 'Welcome',
      description: 'Start here',
      icon: 'rocket',
      hidden: true,
      noIndex: true,
      noRobotsIndex: false,
      layout: { ...DEFAULT_LAYOUT, width: 'wide', coverSize: 'hero', title: false, tableOfContents: false, metadata: false },
      cover: { ref: { kind: 'file', file: fileId }, yPos: 30 }
    })
    expect(plain).toMatchObject({ title: 'Plain', hidden: false, noIndex: false, noRobotsIndex: false, layout: DEFAULT_LAYOUT })
    expect(plain.cover).toBeUndefined()
    expect(plain.icon).toBeUndefined()
    // The single page answers what the tree answers.
    const { markdown, ...alone } = await pageIn(cr, welcome.id)
    expect(alone).toEqual(welcome)
    // The batch's file ref became the file's id, in the front matter as in any link.
    expect(markdown).toBe(SETTINGS.replace('/files/banner', `/files/${fileId}`))
  })

  it('follows the new document: settings it no longer has go back to the defaults; what it is silent on stays', async () => {
    const cr = await open()
    await apply(cr, [
      { operation: 'insert_files', files: [{ ref: 'banner', name: 'banner.png', contentType: 'image/png', base64: PNG }] },
      { operation: 'insert_page', document: { markdown: SETTINGS } }
    ])
    const [page] = await pagesIn(cr)
    await apply(cr, [{ operation: 'update_page', page: page.id, document: { markdown: '# Welcome\n\nNo settings now.\n' } }])
    const after = await pageIn(cr, page.id)
    expect(after).toMatchObject({ layout: DEFAULT_LAYOUT, noIndex: false, description: 'Start here', hidden: true })
    expect(after.cover).toBeUndefined()
    expect(after.icon).toBeUndefined()

    // An explicit field of the batch wins over the front matter of the same change.
    await apply(cr, [
      {
        operation: 'update_page',
        page: page.id,
        description: 'Explicit',
        hidden: false,
        document: { markdown: '---\ndescription: From the file\nhidden: true\n---\n# Welcome\n' }
      }
    ])
    expect(await pageIn(cr, page.id)).toMatchObject({ description: 'Explicit', hidden: false })
  })

  it('shows a cover once a file it names is in the content', async () => {
    const cr = await open()
    await apply(cr, [{ operation: 'insert_page', title: 'Cover', document: { markdown: '---\ncover: assets/later.png\n---\nText.\n' } }])
    const [page] = await pagesIn(cr)
    expect(page.cover).toBeUndefined()
    await apply(cr, [{ operation: 'insert_files', files: [{ name: 'later.png', contentType: 'image/png', base64: PNG }] }])
    const fileId = (await t.owner.api.get(crPath(cr, '/content/files'))).body.items[0].id
    expect((await pageIn(cr, page.id)).cover).toEqual({ ref: { kind: 'file', file: fileId }, yPos: 0 })
  })

  it('merges two settings and a body edit of one page made in two change requests: the merged page has all', async () => {
    const base = '---\ndescription: D\nicon: book\n---\n\n# Guide\n\nline one\nline two\nline three\nline four\n'
    const seed = await open()
    await apply(seed, [{ operation: 'insert_page', document: { markdown: base } }])
    expect((await merge(seed)).body.result).toBe('merge')
    const pageId = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages[0].id

    const layoutCr = await open()
    const bodyCr = await open()
    await apply(layoutCr, [
      {
        operation: 'update_page',
        page: pageId,
        document: { markdown: base.replace('icon: book\n', 'icon: book\nlayout:\n  outline:\n    visible: false\n') }
      }
    ])
    const edited = base.replace('line four', 'line four, edited').replace('description: D', 'noIndex: true\ndescription: D')
    await apply(bodyCr, [{ operation: 'update_page', page: pageId, document: { markdown: edited } }])
    expect((await merge(layoutCr)).body.result).toBe('merge')
    expect((await merge(bodyCr)).body.result).toBe('merge')

    const merged = (await t.owner.api.get(`/v1/spaces/${spaceId}/content/page/${pageId}`)).body
    expect(merged.markdown).toContain('line four, edited')
    expect(merged.layout).toEqual({ ...DEFAULT_LAYOUT, outline: false })
    // Each side set one setting: the merged front matter holds both, and so does the page.
    expect(merged).toMatchObject({ description: 'D', icon: 'book', noIndex: true })
  })
})

describe('update with resolutions', () => {
  /** Page holds LINES on main; main and the change request then both rewrite line two. */
  async function conflicting() {
    const ids = await seed([
      { ref: 'p', title: 'Page', markdown: LINES },
      { ref: 'q', title: 'Other', markdown: 'other\n' }
    ])
    const mine = await openCr('Mine')
    const theirs = await openCr('Theirs')
    await batch(mine.id, [{ operation: 'update_page', page: ids.Page, document: { markdown: LINES.replace('line two', 'line 2 (mine)') } }])
    await batch(theirs.id, [
      {
        operation: 'update_page',
        page: ids.Page,
        document: { markdown: LINES.replace('line two', 'line 2 (main)').replace('line five', 'line 5') }
      },
      { operation: 'update_page', page: ids.Other, document: { markdown: 'other, edited on main\n' } }
    ])
    expect((await merge(theirs.id)).body.result).toBe('merge')
    return { ids, cr: mine }
  }
  const pull = (cr: string, body: unknown, api = t.owner.api) => api.post(crPath(cr, '/update'), body)
  const stateOf = async (cr: string) => ({
    cr: (await t.owner.api.get(crPath(cr))).body,
    space: (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body
  })

  it('takes each resolved page as given over main, moves the base to main, and the merge then holds the resolution', async () => {
    const { ids, cr } = await conflicting()
    const resolved = LINES.replace('line two', 'line 2 (mine)\nline 2 (main)').replace('line five', 'line 5')
    const res = await pull(cr.id, { resolutions: [{ page: ids.Page, document: { markdown: resolved } }] })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ result: 'update', revision: expect.any(String) })
    const { cr: after, space } = await stateOf(cr.id)
    expect(after).toMatchObject({ revision: res.body.revision, revisionMergedAncestor: space.revision, outdated: false })
    expect(await pageMarkdown(ids.Page, cr.id)).toBe(resolved)
    // Main's other edits came in with it.
    expect(await pageMarkdown(ids.Other, cr.id)).toBe('other, edited on main\n')
    const changes = (await t.owner.api.get(crPath(cr.id, '/changes'))).body.changes
    expect(changes).toEqual([expect.objectContaining({ type: 'page_edited', page: expect.objectContaining({ id: ids.Page }) })])
    expect(changes[0].conflict).toBeUndefined()
    expect((await merge(cr.id)).body.result).toBe('merge')
    expect(await pageMarkdown(ids.Page)).toBe(resolved)
    expect(await pageMarkdown(ids.Other)).toBe('other, edited on main\n')
  })

  it('reads page settings from the resolution and settles a title conflict with its title', async () => {
    const ids = await seed([{ ref: 'p', title: 'Page', markdown: LINES }])
    const mine = await openCr('Mine')
    const theirs = await openCr('Theirs')
    await batch(mine.id, [{ operation: 'update_page', page: ids.Page, title: 'Mine', document: { markdown: 'mine\n' } }])
    await batch(theirs.id, [{ operation: 'update_page', page: ids.Page, title: 'Main', document: { markdown: 'main\n' } }])
    await merge(theirs.id)
    const markdown = '---\ndescription: Both\n---\nmine\nmain\n'
    // Without a title the title conflict stays: the answer is today's conflict answer, and nothing changes.
    const revision = (await t.owner.api.get(crPath(mine.id))).body.revision
    const partial = await pull(mine.id, { resolutions: [{ page: ids.Page, document: { markdown } }] })
    expect(partial.body).toEqual({ result: 'conflicts', revision, conflicts: [{ page: { id: ids.Page, title: 'Mine' }, reason: 'title' }] })
    expect((await t.owner.api.get(crPath(mine.id))).body).toMatchObject({ revision, outdated: true })
    const res = await pull(mine.id, { resolutions: [{ page: ids.Page, title: 'Both', document: { markdown } }] })
    expect(res.body.result).toBe('update')
    expect((await t.owner.api.get(crPath(mine.id, `/content/page/${ids.Page}`))).body).toMatchObject({
      title: 'Both',
      description: 'Both',
      markdown
    })
  })

  it('with If-Match, refuses resolutions written against a main or a change request that moved on since (412), changing nothing', async () => {
    const { ids, cr } = await conflicting()
    const { cr: seen, space: main } = await stateOf(cr.id)
    const resolved = LINES.replace('line two', 'both')
    const body = { resolutions: [{ page: ids.Page, document: { markdown: resolved } }] }
    // Main moves on (another page) while the user resolves: the update is refused and nothing changes.
    const other = await openCr('Meanwhile')
    await batch(other.id, [{ operation: 'update_page', page: ids.Other, document: { markdown: 'meanwhile\n' } }])
    expect((await merge(other.id)).body.result).toBe('merge')
    const stale = await postIfMatch(crPath(cr.id, '/update'), `"${main.revision}", "${seen.revision}"`, body)
    expect(stale.status).toBe(412)
    expect(stale.body.error.message).toMatch(/^Main or the change request changed since revision/)
    expect((await t.owner.api.get(crPath(cr.id))).body).toMatchObject({ revision: seen.revision, outdated: true })
    // Against main as it is now, it goes through.
    const now = (await stateOf(cr.id)).space.revision
    const res = await postIfMatch(crPath(cr.id, '/update'), `"${now}", "${seen.revision}"`, body)
    expect(res).toMatchObject({ status: 200, body: { result: 'update' } })
    expect(await pageMarkdown(ids.Page, cr.id)).toBe(resolved)
    expect(await pageMarkdown(ids.Other, cr.id)).toBe('meanwhile\n')
  })

  it('answers the conflicts still unresolved, as an update without resolutions does, and changes nothing', async () => {
    const { ids, cr } = await conflicting()
    const revision = (await t.owner.api.get(crPath(cr.id))).body.revision
    const plain = await pull(cr.id, {})
    expect(plain.body).toEqual({ result: 'conflicts', revision, conflicts: [{ page: { id: ids.Page, title: 'Page' }, reason: 'content' }] })
    // No body at all (as the app sends it) behaves the same.
    const bare = await fetch(new URL(crPath(cr.id, '/update'), t.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${t.owner.api.token}` }
    })
    expect(bare.status).toBe(200)
    expect(await bare.json()).toEqual(plain.body)
    expect((await t.owner.api.get(crPath(cr.id))).body).toMatchObject({ revision, outdated: true })
    expect(await pageMarkdown(ids.Page, cr.id)).toContain('line 2 (mine)')
  })

  it('refuses resolutions for pages not in conflict, twice for a page, for removals, and malformed ones (400), changing nothing', async () => {
    const { ids, cr } = await conflicting()
    const revision = (await t.owner.api.get(crPath(cr.id))).body.revision
    const ok = { page: ids.Page, document: { markdown: 'x\n' } }
    const refused = async (body: unknown, message: string) => {
      const res = await pull(cr.id, body)
      expect(res).toMatchObject({ status: 400, body: { error: { code: 400, message } } })
    }
    await refused(
      { resolutions: [ok, { page: ids.Other, document: { markdown: 'y\n' } }] },
      `resolutions.1.page: page ${ids.Other} does not conflict with main (only conflicting pages take a resolution)`
    )
    await refused(
      { resolutions: [{ page: 'nope', document: { markdown: 'y\n' } }] },
      expect.stringContaining('resolutions.0.page: page nope does not conflict')
    )
    await refused({ resolutions: [ok, ok] }, `resolutions.1.page: page ${ids.Page} is resolved twice`)
    await refused({ resolutions: [] }, expect.stringMatching(/^resolutions: must have at least 1/))
    await refused({ resolutions: [{ page: ids.Page }] }, expect.stringMatching(/^resolutions\.0.*document/))
    await refused(
      { resolutions: [{ page: ids.Page, document: { markdown: 'x'.repeat(1_000_001) } }] },
      expect.stringMatching(/^resolutions\.0\.document\.markdown: must be at most/)
    )
    await refused({ resolutions: [{ page: '', document: { markdown: 'x' } }] }, expect.stringMatching(/^resolutions\.0\.page/))
    await refused({ resolutions: [{ ...ok, title: '' }] }, expect.stringMatching(/^resolutions\.0\.title/))
    await refused({ resolutions: Array.from({ length: 1001 }, () => ok) }, expect.stringMatching(/^resolutions: must have at most 1000/))
    expect((await t.owner.api.get(crPath(cr.id))).body).toMatchObject({ revision, outdated: true })

    // A page main removed while the change request edited it: a text does not settle whether it stays.
    const gone = await seed([{ ref: 'g', title: 'Gone', markdown: 'gone\n' }])
    const editor = await openCr('Edit gone')
    const remover = await openCr('Remove gone')
    await batch(editor.id, [{ operation: 'update_page', page: gone.Gone, document: { markdown: 'kept\n' } }])
    await batch(remover.id, [{ operation: 'delete_page', page: gone.Gone }])
    await merge(remover.id)
    const res = await pull(editor.id, { resolutions: [{ page: gone.Gone, document: { markdown: 'kept\n' } }] })
    expect(res).toMatchObject({
      status: 400,
      body: {
        error: {
          message: `resolutions.0.page: page ${gone.Gone} conflicts because one side removed it (or a page above it); a resolution settles text and titles, not removals`
        }
      }
    })
  })

  it('refuses a resolution when main has nothing new (400): no page is in conflict', async () => {
    const ids = await seed([{ ref: 'p', title: 'Page', markdown: LINES }])
    const cr = await openCr()
    const res = await pull(cr.id, { resolutions: [{ page: ids.Page, document: { markdown: 'x\n' } }] })
    expect(res).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('resolutions.0.page: page') } } })
  })

  it('needs edit on the space (403), a visible space and change request (404), and an open change request (409)', async () => {
    const { ids, cr } = await conflicting()
    const body = { resolutions: [{ page: ids.Page, document: { markdown: 'x\n' } }] }
    const reader = await t.user({ role: 'read' })
    expect((await pull(cr.id, body, reader.api)).status).toBe(403)
    const guest = await t.user({ role: null })
    expect((await pull(cr.id, body, guest.api)).status).toBe(404)
    expect((await pull('999', body)).status).toBe(404)
    expect((await t.owner.api.post(`/v1/spaces/nope/change-requests/${cr.id}/update`, body)).status).toBe(404)
    await t.owner.api.patch(crPath(cr.id), { status: 'archived' })
    expect((await pull(cr.id, body)).status).toBe(409)
    expect(await pageMarkdown(ids.Page, cr.id)).toContain('line 2 (mine)')
  })
})

describe('/changes conflict flags', () => {
  it('flags a page both edited and moved once, on its edit', async () => {
    const ids = await seed([
      { ref: 'a', title: 'A', markdown: 'alpha\n' },
      { ref: 'b', title: 'B', markdown: LINES }
    ])
    const mine = await openCr('Mine')
    const theirs = await openCr('Theirs')
    await batch(mine.id, [
      { operation: 'update_page', page: ids.B, into: ids.A, document: { markdown: LINES.replace('line two', 'mine') } }
    ])
    await batch(theirs.id, [{ operation: 'update_page', page: ids.B, document: { markdown: LINES.replace('line two', 'main') } }])
    await merge(theirs.id)
    const changes = (await t.owner.api.get(crPath(mine.id, '/changes'))).body.changes
    expect(changes.map((c: any) => [c.type, c.conflict ?? false])).toEqual([
      ['page_edited', true],
      ['page_moved', false]
    ])
    expect((await merge(mine.id)).body.conflicts).toHaveLength(1)
  })
})
