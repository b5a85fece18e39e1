// Reusable contents made, edited and removed in a change request (the content batch's reusable content
// operations), and how they merge.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type Client, type TestServer } from '../../../testing/harness'

let t: TestServer
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = (await t.owner.api.post(`/v1/orgs/${t.orgId}/spaces`, { title: 'Docs', empty: true })).body.id
})
afterEach(() => t.close())

const crPath = (cr: string, rest = '') => `/v1/spaces/${spaceId}/change-requests/${cr}${rest}`
const openCr = async (subject = 'Reuse') => (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject })).body.id as string
const batch = (cr: string, changes: unknown[], api: Client = t.owner.api) => api.post(crPath(cr, '/content'), { changes })
const merge = (cr: string) => t.owner.api.post(crPath(cr, '/merge'))
const insertContent = (title: string, markdown: string, extra: Record<string, unknown> = {}) => ({
  operation: 'insert_reusable_content',
  title,
  document: { markdown },
  ...extra
})
const editContent = (reusableContent: string, extra: Record<string, unknown>) => ({
  operation: 'update_reusable_content',
  reusableContent,
  ...extra
})
/** The reusable contents of a change request's head (or of the primary content) as [title, markdown, git path]. */
async function contents(
  cr?: string
): Promise<{ id: string; title: string; markdown: string; path?: string; git?: { oid: string; path: string } }[]> {
  const res = await t.owner.api.get(cr ? crPath(cr, '/content') : `/v1/spaces/${spaceId}/content`)
  expect(res.status).toBe(200)
  return res.body.reusableContents
}
// By path (`-` sorts before `.`): contents of one title come by id, which is random.
const summary = async (cr?: string) =>
  (await contents(cr)).map((c) => [c.title, c.markdown, c.path]).sort((a, b) => (a[2]! < b[2]! ? -1 : 1))
const LINES = 'one\ntwo\nthree\nfour\nfive\n'

/** Merges a change request making one reusable content; answers its id. */
async function seedContent(title: string, markdown: string): Promise<string> {
  const cr = await openCr('Seed')
  expect((await batch(cr, [insertContent(title, markdown)])).status).toBe(200)
  expect((await merge(cr)).body.result).toBe('merge')
  return (await contents()).find((c) => c.title === title)!.id
}

describe('reusable content operations of the content batch', () => {
  it('makes one with a Git path of its own, edits it by its ref in the same batch, and merges it into the primary content', async () => {
    const cr = await openCr()
    const res = await batch(cr, [
      insertContent('Support note', 'Ask **support**.\n', { ref: 'note' }),
      insertContent('Support note', 'Another.\n'),
      editContent('note', { document: { markdown: 'Ask **support** at any time.\n' } }),
      {
        operation: 'insert_page',
        title: 'Help',
        document: { markdown: '# Help\n\n{% include "../.gitbook/includes/support-note.md" %}\n' }
      }
    ])
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await summary(cr)).toEqual([
      ['Support note', 'Another.\n', '.gitbook/includes/support-note-2.md'],
      ['Support note', 'Ask **support** at any time.\n', '.gitbook/includes/support-note.md']
    ])
    // Made in the app: a Git path of its own, no blob yet.
    expect((await contents(cr)).every((c) => c.git === undefined)).toBe(true)
    // Not in the primary content until merged.
    expect(await contents()).toEqual([])
    expect((await merge(cr)).body.result).toBe('merge')
    expect(await summary()).toEqual(await summary(cr))
  })

  it('renames one keeping its Git path (includes still find it), edits its text, and deletes it, each in a change request', async () => {
    const id = await seedContent('Note', LINES)
    const cr = await openCr()
    expect((await batch(cr, [editContent(id, { title: 'Important note', document: { markdown: 'new text\n' } })])).status).toBe(200)
    expect(await summary(cr)).toEqual([['Important note', 'new text\n', '.gitbook/includes/note.md']])
    expect(await summary()).toEqual([['Note', LINES, '.gitbook/includes/note.md']])
    expect((await merge(cr)).body.result).toBe('merge')
    expect(await summary()).toEqual([['Important note', 'new text\n', '.gitbook/includes/note.md']])

    // Deleting one that a page includes is allowed: the include then shows as missing.
    const remover = await openCr('Remove')
    expect((await batch(remover, [{ operation: 'delete_reusable_content', reusableContent: id }])).status).toBe(200)
    expect(await contents(remover)).toEqual([])
    expect((await merge(remover)).body.result).toBe('merge')
    expect(await contents()).toEqual([])
  })

  it('answers 400 naming the field for an unknown content, a missing title or document, and a ref used twice; changes nothing', async () => {
    const id = await seedContent('Note', LINES)
    const cr = await openCr()
    const revision = (await t.owner.api.get(crPath(cr))).body.revision
    const cases: [unknown[], string][] = [
      [[editContent('nope', { title: 'X' })], 'changes.0.reusableContent: no reusable content nope in the change request'],
      [
        [insertContent('A', 'a'), { operation: 'delete_reusable_content', reusableContent: 'nope' }],
        'changes.1.reusableContent: no reusable content nope in the change request'
      ],
      [[{ operation: 'insert_reusable_content', document: { markdown: 'x' } }], 'changes.0.title: is required'],
      [[{ operation: 'insert_reusable_content', title: 'X' }], 'changes.0.document: is required'],
      [[editContent(id, { title: '' })], 'changes.0.title: must be at least 1 characters'],
      [[insertContent('A', 'a', { ref: 'r' }), insertContent('B', 'b', { ref: 'r' })], 'changes.1.ref: r is already used in this batch']
    ]
    for (const [changes, message] of cases) {
      const res = await batch(cr, changes)
      expect(res.status, message).toBe(400)
      expect(res.body.error.message).toBe(message)
    }
    expect((await t.owner.api.get(crPath(cr))).body.revision).toBe(revision)
    expect(await summary(cr)).toEqual([['Note', LINES, '.gitbook/includes/note.md']])
  })

  it('answers 403 to a reader and changes nothing', async () => {
    const cr = await openCr()
    const reader = await t.user({ role: 'read' })
    const res = await batch(cr, [insertContent('Note', 'x')], reader.api)
    expect(res.status).toBe(403)
    expect(await contents(cr)).toEqual([])
  })
})

describe('reusable contents in merges and updates', () => {
  it('merges edits of different lines from two change requests, and numbers the path of a second content of the same title', async () => {
    const id = await seedContent('Note', LINES)
    const first = await openCr('First')
    const second = await openCr('Second')
    await batch(first, [editContent(id, { document: { markdown: LINES.replace('two', 'TWO') } }), insertContent('Tip', 'first tip\n')])
    await batch(second, [editContent(id, { document: { markdown: LINES.replace('five', 'FIVE') } }), insertContent('Tip', 'second tip\n')])
    expect((await merge(first)).body.result).toBe('merge')
    expect((await merge(second)).body.result).toBe('merge')
    expect(await summary()).toEqual([
      ['Note', 'one\nTWO\nthree\nfour\nFIVE\n', '.gitbook/includes/note.md'],
      ['Tip', 'second tip\n', '.gitbook/includes/tip-2.md'],
      ['Tip', 'first tip\n', '.gitbook/includes/tip.md']
    ])
  })

  it('stops at the same lines changed on both sides, naming the content, and at an edit of a content the other side removed', async () => {
    const id = await seedContent('Note', LINES)
    const first = await openCr('First')
    const second = await openCr('Second')
    await batch(first, [editContent(id, { document: { markdown: LINES.replace('three', 'THREE') } })])
    await batch(second, [editContent(id, { document: { markdown: LINES.replace('three', '3') } })])
    expect((await merge(first)).body.result).toBe('merge')
    const primary = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision
    const res = await merge(second)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ result: 'conflicts', conflicts: [{ page: { id, title: 'Note' }, reason: 'reusable-content' }] })
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(primary)

    // One side removed it, the other edited it meanwhile.
    const editor = await openCr('Edit')
    const remover = await openCr('Remove')
    await batch(editor, [editContent(id, { title: 'Edited note' })])
    await batch(remover, [{ operation: 'delete_reusable_content', reusableContent: id }])
    expect((await merge(remover)).body.result).toBe('merge')
    expect((await merge(editor)).body).toMatchObject({
      result: 'conflicts',
      conflicts: [{ page: { id, title: 'Edited note' }, reason: 'reusable-content' }]
    })
  })

  it('an update stops at a reusable content changed on both sides; a page resolution naming it is refused (400)', async () => {
    const id = await seedContent('Note', LINES)
    const cr = await openCr('Mine')
    const other = await openCr('Theirs')
    await batch(cr, [editContent(id, { document: { markdown: LINES.replace('three', 'mine') } })])
    await batch(other, [editContent(id, { document: { markdown: LINES.replace('three', 'theirs') } })])
    expect((await merge(other)).body.result).toBe('merge')
    const before = (await t.owner.api.get(crPath(cr))).body.revision
    const plain = await t.owner.api.post(crPath(cr, '/update'))
    expect(plain.body).toMatchObject({ result: 'conflicts', conflicts: [{ page: { id }, reason: 'reusable-content' }] })
    const res = await t.owner.api.post(crPath(cr, '/update'), { resolutions: [{ page: id, document: { markdown: 'both\n' } }] })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe(
      `resolutions.0.page: ${id} is a reusable content, not a page; edit it in the change request to settle its conflict`
    )
    expect((await t.owner.api.get(crPath(cr))).body.revision).toBe(before)
  })

  it('pulls the primary content’s reusable contents into a change request on update, keeping the change request’s own', async () => {
    const id = await seedContent('Note', LINES)
    const cr = await openCr('Mine')
    await batch(cr, [insertContent('Mine', 'mine\n'), editContent(id, { document: { markdown: LINES.replace('one', 'ONE') } })])
    const other = await openCr('Theirs')
    await batch(other, [insertContent('Theirs', 'theirs\n'), editContent(id, { document: { markdown: LINES.replace('five', 'FIVE') } })])
    expect((await merge(other)).body.result).toBe('merge')
    const res = await t.owner.api.post(crPath(cr, '/update'))
    expect(res.body.result).toBe('update')
    expect(await summary(cr)).toEqual([
      ['Mine', 'mine\n', '.gitbook/includes/mine.md'],
      ['Note', 'ONE\ntwo\nthree\nfour\nFIVE\n', '.gitbook/includes/note.md'],
      ['Theirs', 'theirs\n', '.gitbook/includes/theirs.md']
    ])
    expect((await merge(cr)).body.result).toBe('merge')
    expect(await summary()).toEqual(await summary(cr))
  })
})
