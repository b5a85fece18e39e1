import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { commentFixture, expectComment, expectUser, ISO, type Fixture } from './fixtures'

let t: TestServer
let f: Fixture
beforeEach(async () => {
  t = await startTestServer()
  f = await commentFixture(t)
})
afterEach(() => t.close())

describe('access', () => {
  it('answers 401 without a token on every operation', async () => {
    const c = await f.post({ body: { markdown: 'x' } })
    const r = (await t.owner.api.post(f.commentPath(c.id, '/replies'), { body: { markdown: 'y' } })).body
    const ops: [string, string][] = [
      ['GET', f.commentsPath],
      ['POST', f.commentsPath],
      ['GET', f.commentPath(c.id)],
      ['PUT', f.commentPath(c.id)],
      ['DELETE', f.commentPath(c.id)],
      ['GET', f.commentPath(c.id, '/replies')],
      ['POST', f.commentPath(c.id, '/replies')],
      ['GET', f.commentPath(c.id, `/replies/${r.id}`)],
      ['PUT', f.commentPath(c.id, `/replies/${r.id}`)],
      ['DELETE', f.commentPath(c.id, `/replies/${r.id}`)]
    ]
    for (const [method, path] of ops) {
      const res = await t.anonymous.request(method, path, method === 'POST' || method === 'PUT' ? { body: {} } : undefined)
      expect(res.status, `${method} ${path}`).toBe(401)
      expect(res.body.error.code).toBe(401)
    }
    expect((await t.owner.api.get(f.commentPath(c.id))).body.replies).toBe(1)
  })

  it('answers 404 to non-members, for unknown spaces and comments, and for a comment of another space', async () => {
    const c = await f.post({ body: { markdown: 'x' } })
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get(f.commentsPath)).status).toBe(404)
    expect((await outsider.api.post(f.commentsPath, { body: {} })).status).toBe(404)
    expect((await outsider.api.get(f.commentPath(c.id))).status).toBe(404)
    expect((await t.owner.api.get('/v1/spaces/nope/comments')).status).toBe(404)
    const missing = await t.owner.api.get(f.commentPath('nope'))
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: { code: 404, message: 'Comment not found' } })
    const other = await commentFixture(t, {})
    expect((await t.owner.api.get(other.commentPath(c.id))).status).toBe(404)
    expect((await t.owner.api.put(other.commentPath(c.id), { resolved: true })).status).toBe(404)
    expect((await t.owner.api.delete(other.commentPath(c.id))).status).toBe(404)
    expect((await t.owner.api.get(f.commentPath(c.id))).body.status).toBe('open')
  })

  it('needs the comment role to read and post discussions (403 for readers and guests without it)', async () => {
    const c = await f.post({ body: { markdown: 'x' } })
    const reader = await t.user({ role: 'read' })
    for (const res of [
      await reader.api.get(f.commentsPath),
      await reader.api.post(f.commentsPath, { body: { markdown: 'hi' } }),
      await reader.api.get(f.commentPath(c.id)),
      await reader.api.put(f.commentPath(c.id), { resolved: true }),
      await reader.api.delete(f.commentPath(c.id))
    ]) {
      expect(res.status).toBe(403)
      expect(res.body.error.message).toContain('comment role')
    }
    const commenter = await t.user({ role: 'comment' })
    expect((await commenter.api.get(f.commentsPath)).body.count).toBe(1)
    expect((await commenter.api.post(f.commentsPath, { body: { markdown: 'hi' } })).status).toBe(200)
    // A guest granted `comment` on this one space takes part too.
    const guest = await t.user({ role: null })
    expect((await guest.api.get(f.commentsPath)).status).toBe(404)
    await t.owner.api.post(`/v1/spaces/${f.spaceId}/permissions`, { role: 'comment', users: [guest.user.id] })
    expect((await guest.api.get(f.commentsPath)).body.count).toBe(2)
    expect((await f.space()).comments).toBe(2)
  })
})

describe('POST /comments', () => {
  it('posts a comment on a page block with every field of the spec, and counts it on the space', async () => {
    const commenter = await t.user({ role: 'comment' })
    const res = await commenter.api.post(f.commentsPath, {
      body: { markdown: 'Is this **right**?' },
      page: f.pages.Guide,
      node: { id: 'block-1', preview: 'First words.' },
      extra: 'ignored'
    })
    expect(res.status).toBe(200)
    const c = res.body
    expectComment(c)
    expectUser(c.postedBy, commenter.user.id)
    const space = await f.space()
    expect(c).toMatchObject({
      postedAt: '2026-03-01T10:00:00.000Z',
      reactions: [],
      replies: 0,
      repliers: [],
      status: 'open',
      body: { markdown: 'Is this **right**?' },
      target: {
        space: f.spaceId,
        revision: space.revision,
        node: { id: 'block-1', preview: 'First words.' },
        page: {
          id: f.pages.Guide,
          title: 'Guide',
          path: 'guide',
          outdated: false,
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO)
        }
      },
      permissions: { view: true, edit: true, reply: true, delete: true }
    })
    for (const key of ['editedAt', 'resolvedAt', 'resolvedBy']) expect(c).not.toHaveProperty(key)
    expect(c.target).not.toHaveProperty('changeRequest')
    expect(space.comments).toBe(1)
    expect((await t.owner.api.get(f.commentPath(c.id))).body).toEqual({
      ...c,
      permissions: { view: true, edit: false, reply: true, delete: true }
    })
  })

  it('accepts an empty body, a node given as a string, and a comment on the whole space', async () => {
    const empty = await f.post({ body: {} })
    expect(empty.body).toEqual({ markdown: '' })
    expect(empty.target).toEqual({ space: f.spaceId, revision: expect.any(String) })
    const node = await f.post({ body: { markdown: 'n' }, page: f.pages.Intro, node: 'heading-2' })
    expect(node.target.node).toEqual({ id: 'heading-2' })
    expect(node.target.page).toMatchObject({ id: f.pages.Intro, title: 'Intro', path: 'intro' })
    expect((await f.space()).comments).toBe(2)
  })

  it('validates the body and the target; a refused post changes nothing', async () => {
    const cases: [unknown, number, string][] = [
      [{}, 400, 'body: is required'],
      [{ body: 'text' }, 400, 'body: must be object'],
      [{ body: { markdown: 42 } }, 400, 'body.markdown: must be string'],
      [{ body: { markdown: 'x'.repeat(100_001) } }, 400, 'body.markdown: must be at most 100000 characters'],
      [{ body: {}, page: '' }, 400, 'page: must be at least 1 characters'],
      [{ body: {}, page: 'x'.repeat(101) }, 400, 'page: must be at most 100 characters'],
      [{ body: {}, page: 'missing' }, 400, "page: no page missing in the space's content"],
      [{ body: {}, node: 'block' }, 400, 'node: a comment on a block needs its `page`'],
      [{ body: {}, page: f.pages.Guide, node: { preview: 'no id' } }, 400, 'node'],
      [{ body: {}, page: f.pages.Guide, node: 'x'.repeat(201) }, 400, 'node'],
      [{ body: {}, page: f.pages.Guide, node: { id: 'b', preview: 'x'.repeat(1001) } }, 400, 'node'],
      [{ body: {}, changeRequest: 99 }, 400, 'changeRequest: no change request 99 in this space'],
      [{ body: {}, changeRequest: 0 }, 400, 'changeRequest'],
      [{ body: {}, changeRequest: true }, 400, 'changeRequest']
    ]
    for (const [body, status, message] of cases) {
      const res = await t.owner.api.post(f.commentsPath, body)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status)
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining(message) })
    }
    expect((await t.owner.api.post(f.commentsPath, { body: { markdown: 'x'.repeat(100_000) } })).status).toBe(200)
    expect((await t.owner.api.get(f.commentsPath)).body.count).toBe(1)
    expect((await f.space()).comments).toBe(1)
  })

  it('accepts comments on a locked space (comments are not content edits)', async () => {
    await t.owner.api.patch(`/v1/spaces/${f.spaceId}`, { editMode: 'locked' })
    expect((await t.owner.api.post(f.commentsPath, { body: { markdown: 'still open for discussion' } })).status).toBe(200)
  })
})

describe('GET /comments', () => {
  it('lists newest first by default, oldest first with order=asc, every comment once over small pages', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.push((await f.post({ body: { markdown: `c${i}` } })).id)
      t.clock.advance(1000)
    }
    const desc = await walk(t.owner.api, f.commentsPath, { limit: 2 })
    expect(desc.items.map((c) => c.id)).toEqual([...ids].reverse())
    expect(desc.pages.map((p) => p.items.length)).toEqual([2, 2, 1])
    expect(desc.pages.every((p) => p.count === 5)).toBe(true)
    expect(desc.pages.at(-1).next).toBeUndefined()
    desc.items.forEach(expectComment)
    const asc = await walk(t.owner.api, f.commentsPath, { limit: 2, order: 'asc' })
    expect(asc.items.map((c) => c.id)).toEqual(ids)
    expect((await t.owner.api.get(f.commentsPath, { limit: 5 })).body.next).toBeUndefined()
  })

  it('filters by status, page and authors (repeated parameter), and combines filters', async () => {
    const alice = await t.user({ role: 'comment' })
    const bob = await t.user({ role: 'comment' })
    const a1 = await f.post({ body: { markdown: 'a1' }, page: f.pages.Guide }, alice.api)
    const a2 = await f.post({ body: { markdown: 'a2' }, page: f.pages.Intro }, alice.api)
    const b1 = await f.post({ body: { markdown: 'b1' }, page: f.pages.Guide }, bob.api)
    const o1 = await f.post({ body: { markdown: 'o1' } })
    await t.owner.api.put(f.commentPath(a1.id), { resolved: true })
    const list = async (query: Record<string, unknown>) => {
      const res = await t.owner.api.get(f.commentsPath, query)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.count).toBe(res.body.items.length)
      return res.body.items.map((c: any) => c.id)
    }
    expect(await list({})).toEqual([o1.id, b1.id, a2.id, a1.id])
    expect(await list({ status: 'all' })).toEqual([o1.id, b1.id, a2.id, a1.id])
    expect(await list({ status: 'open' })).toEqual([o1.id, b1.id, a2.id])
    expect(await list({ status: 'resolved' })).toEqual([a1.id])
    expect(await list({ targetPage: f.pages.Guide })).toEqual([b1.id, a1.id])
    expect(await list({ targetPage: 'unknown' })).toEqual([])
    expect(await list({ authors: [alice.user.id] })).toEqual([a2.id, a1.id])
    expect(await list({ authors: [alice.user.id, bob.user.id], order: 'asc' })).toEqual([a1.id, a2.id, b1.id])
    expect(await list({ authors: [alice.user.id], status: 'open' })).toEqual([a2.id])
    expect(await list({ authors: [bob.user.id, alice.user.id], targetPage: f.pages.Guide, status: 'resolved' })).toEqual([a1.id])
    const paged = await walk(t.owner.api, f.commentsPath, { authors: [alice.user.id, bob.user.id], limit: 1 })
    expect(paged.items.map((c) => c.id)).toEqual([b1.id, a2.id, a1.id])
    expect(paged.pages.every((p) => p.count === 3)).toBe(true)
  })

  it('presents the body as the document model with format=document, on lists and single comments', async () => {
    const c = await f.post({ body: { markdown: '# Title\n\nSome *text*' } })
    const one = (await t.owner.api.get(f.commentPath(c.id), { format: 'document' })).body
    expect(one.body.markdown).toBeUndefined()
    expect(one.body.document).toMatchObject({ object: 'document', nodes: [{ type: 'heading-1' }, { type: 'paragraph' }] })
    expect((await t.owner.api.get(f.commentsPath, { format: 'document' })).body.items[0].body.document.object).toBe('document')
    expect((await t.owner.api.get(f.commentPath(c.id), { format: 'markdown' })).body.body).toEqual({ markdown: '# Title\n\nSome *text*' })
  })

  it('validates every query parameter', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ order: 'newest' }, 'order: must be one of: asc, desc'],
      [{ status: 'closed' }, 'status: must be one of: all, open, resolved'],
      [{ format: 'html' }, 'format: must be one of: document, markdown'],
      [{ limit: 0 }, 'limit: must be at least 1'],
      [{ limit: 1001 }, 'limit: must be at most 1000'],
      [{ page: 'garbage' }, 'page: invalid cursor'],
      [{ targetPage: 'x'.repeat(101) }, 'targetPage: must be at most 100 characters'],
      [{ authors: [''] }, 'authors.0: must be at least 1 characters'],
      [{ authors: Array.from({ length: 101 }, (_, i) => `u${i}`) }, 'authors: must have at most 100 items'],
      [{ changeRequest: '42' }, 'changeRequest: no change request 42 in this space']
    ]
    for (const [query, message] of cases) {
      const res = await t.owner.api.get(f.commentsPath, query)
      expect(res.status, JSON.stringify(query).slice(0, 60)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining(message) })
    }
    expect((await t.owner.api.get(f.commentPath('x'), { format: 'pdf' })).status).toBe(400)
  })
})
