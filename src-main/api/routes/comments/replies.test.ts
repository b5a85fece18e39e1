import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../../../testing/harness'
import { commentFixture, expectReply, expectUser, type Fixture } from './fixtures'

let t: TestServer
let f: Fixture
let comment: any
const replies = (rest = '') => f.commentPath(comment.id, `/replies${rest}`)
beforeEach(async () => {
  t = await startTestServer()
  f = await commentFixture(t, {})
  comment = await f.post({ body: { markdown: 'thread' } })
})
afterEach(() => t.close())

describe('access', () => {
  it('answers 404 for non-members, unknown comments and replies, and a reply of another comment; 403 for readers', async () => {
    const r = (await t.owner.api.post(replies(), { body: { markdown: 'r' } })).body
    const outsider = await t.user({ role: 'none' })
    expect((await outsider.api.get(replies())).status).toBe(404)
    expect((await outsider.api.post(replies(), { body: {} })).status).toBe(404)
    expect((await t.owner.api.get(f.commentPath('nope', '/replies'))).status).toBe(404)
    expect((await t.owner.api.post(f.commentPath('nope', '/replies'), { body: {} })).status).toBe(404)
    const missing = await t.owner.api.get(replies('/nope'))
    expect(missing.body).toEqual({ error: { code: 404, message: 'Comment reply not found' } })
    const sibling = await f.post({ body: { markdown: 'other thread' } })
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await t.owner.api.request(
        method,
        f.commentPath(sibling.id, `/replies/${r.id}`),
        method === 'PUT' ? { body: { markdown: 'x' } } : undefined
      )
      expect(res.status, method).toBe(404)
    }
    const reader = await t.user({ role: 'read' })
    for (const res of [
      await reader.api.get(replies()),
      await reader.api.post(replies(), { body: { markdown: 'hi' } }),
      await reader.api.get(replies(`/${r.id}`)),
      await reader.api.put(replies(`/${r.id}`), { addedReactions: ['👍'] }),
      await reader.api.delete(replies(`/${r.id}`))
    ])
      expect(res.status).toBe(403)
    expect((await t.owner.api.get(replies(`/${r.id}`))).body).toMatchObject({ body: { markdown: 'r' }, reactions: [] })
    expect((await t.owner.api.get(f.commentPath(comment.id))).body.replies).toBe(1)
  })
})

describe('replies', () => {
  it('posts a reply with every field, counts it on the comment, and reads it back', async () => {
    const commenter = await t.user({ role: 'comment' })
    const res = await commenter.api.post(replies(), { body: { markdown: 'I agree' } })
    expect(res.status).toBe(200)
    expectReply(res.body, f.spaceId, comment.id)
    expectUser(res.body.postedBy, commenter.user.id)
    expect(res.body).toMatchObject({
      postedAt: '2026-03-01T10:00:00.000Z',
      body: { markdown: 'I agree' },
      permissions: { view: true, edit: true, reply: true, delete: true }
    })
    expect(res.body.editedAt).toBeUndefined()
    expect((await t.owner.api.get(f.commentPath(comment.id))).body.replies).toBe(1)
    const read = (await t.owner.api.get(replies(`/${res.body.id}`))).body
    expect(read).toEqual({ ...res.body, permissions: { view: true, edit: false, reply: true, delete: true } })
    expect((await t.owner.api.get(replies(`/${res.body.id}`), { format: 'document' })).body.body.document).toMatchObject({
      object: 'document'
    })
    expect((await t.owner.api.post(replies(), { body: {} })).body.body).toEqual({ markdown: '' })
  })

  it('lists the repliers on the comment: each user once, in the order of their first reply, with their count and latest reply', async () => {
    const commenter = await t.user({ role: 'comment' })
    await commenter.api.post(replies(), { body: { markdown: 'first' } })
    t.clock.advance(60_000)
    const own = (await t.owner.api.post(replies(), { body: { markdown: 'second' } })).body
    t.clock.advance(60_000)
    await commenter.api.post(replies(), { body: { markdown: 'third' } })
    t.clock.advance(60_000)
    await t.owner.api.put(replies(`/${own.id}`), { body: { markdown: 'second, edited' } })
    const read = (await t.owner.api.get(f.commentPath(comment.id))).body
    expect(read.repliers).toEqual([
      { user: expect.objectContaining({ id: commenter.user.id }), count: 2, updatedAt: '2026-03-01T10:02:00.000Z' },
      { user: expect.objectContaining({ id: t.owner.user.id }), count: 1, updatedAt: '2026-03-01T10:03:00.000Z' }
    ])
    expect((await t.owner.api.get(f.commentsPath)).body.items.find((c: any) => c.id === comment.id).repliers).toEqual(read.repliers)
    expect((await t.owner.api.delete(replies(`/${own.id}`))).status).toBe(205)
    expect((await t.owner.api.get(f.commentPath(comment.id))).body.repliers.map((r: any) => r.count)).toEqual([2])
  })

  it('validates the body; a refused reply changes nothing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body: is required'],
      [{ body: null }, 'body: must be object'],
      [{ body: { markdown: 'x'.repeat(100_001) } }, 'body.markdown: must be at most 100000 characters']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.post(replies(), body)
      expect(res.status).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining(message) })
    }
    expect((await t.owner.api.get(f.commentPath(comment.id))).body.replies).toBe(0)
    expect((await t.owner.api.get(replies())).body).toEqual({ items: [], count: 0 })
    for (const query of [{ limit: 1001 }, { format: 'html' }, { page: 'bad' }])
      expect((await t.owner.api.get(replies(), query)).status).toBe(400)
  })

  it('lists oldest first, every reply once over small pages, with the right count', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.push((await t.owner.api.post(replies(), { body: { markdown: `r${i}` } })).body.id)
      t.clock.advance(1000)
    }
    const { items, pages } = await walk(t.owner.api, replies(), { limit: 2 })
    expect(items.map((r) => r.id)).toEqual(ids)
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1])
    expect(pages.every((p) => p.count === 5)).toBe(true)
    expect(pages.at(-1).next).toBeUndefined()
    items.forEach((r) => expectReply(r, f.spaceId, comment.id))
    expect((await t.owner.api.get(replies(), { format: 'document' })).body.items[0].body.document.object).toBe('document')
  })

  it('only the author edits a reply; anyone taking part reacts', async () => {
    const author = await t.user({ role: 'comment' })
    const other = await t.user({ role: 'comment' })
    const r = (await author.api.post(replies(), { body: { markdown: 'v1' } })).body
    const refused = await t.owner.api.put(replies(`/${r.id}`), { body: { markdown: 'hijack' }, addedReactions: ['👍'] })
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toBe('Only the author of a reply can edit its body')
    expect((await t.owner.api.get(replies(`/${r.id}`))).body).toMatchObject({ body: { markdown: 'v1' }, reactions: [] })

    t.clock.advance(3000)
    const edited = (await author.api.put(replies(`/${r.id}`), { body: { markdown: 'v2' } })).body
    expect(edited).toMatchObject({ body: { markdown: 'v2' }, editedAt: '2026-03-01T10:00:03.000Z' })
    const reacted = (await other.api.put(replies(`/${r.id}`), { addedReactions: ['🎉'] })).body
    expect(reacted.reactions).toEqual([
      { emoji: '🎉', count: 1, users: [{ user: expect.objectContaining({ id: other.user.id }), reactedAt: '2026-03-01T10:00:03.000Z' }] }
    ])
    expect((await other.api.put(replies(`/${r.id}`), { removedReactions: ['🎉'] })).body.reactions).toEqual([])
    for (const body of [{ addedReactions: ['nope'] }, { addedReactions: ['👍'], removedReactions: ['👍'] }, { body: { markdown: 1 } }]) {
      expect((await author.api.put(replies(`/${r.id}`), body)).status).toBe(400)
    }
  })

  it('deletes a reply (author or space admin, 205), and the comment counts one reply fewer', async () => {
    const author = await t.user({ role: 'comment' })
    const other = await t.user({ role: 'edit' })
    const r1 = (await author.api.post(replies(), { body: { markdown: 'one' } })).body
    const r2 = (await author.api.post(replies(), { body: { markdown: 'two' } })).body
    expect((await other.api.get(replies(`/${r1.id}`))).body.permissions).toEqual({ view: true, edit: false, reply: true, delete: false })
    const refused = await other.api.delete(replies(`/${r1.id}`))
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toBe('Only the author of a reply or a space admin can delete it')
    expect((await t.owner.api.get(f.commentPath(comment.id))).body.replies).toBe(2)

    await other.api.put(replies(`/${r1.id}`), { addedReactions: ['👍'] })
    const res = await author.api.delete(replies(`/${r1.id}`))
    expect(res.status).toBe(205)
    expect(res.body).toBeUndefined()
    expect((await t.owner.api.get(replies(`/${r1.id}`))).status).toBe(404)
    expect((await t.owner.api.get(f.commentPath(comment.id))).body.replies).toBe(1)
    expect(t.server.api.services.db.prepare('SELECT count(*) FROM reactions').pluck().get()).toBe(0)

    expect((await t.owner.api.delete(replies(`/${r2.id}`))).status).toBe(205)
    expect((await t.owner.api.get(replies())).body).toEqual({ items: [], count: 0 })
    expect((await t.owner.api.get(f.commentPath(comment.id))).body.replies).toBe(0)
    expect((await t.owner.api.delete(replies(`/${r2.id}`))).status).toBe(404)
  })
})
