import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { commentFixture, expectComment, expectUser, type Fixture } from './fixtures'

let t: TestServer
let f: Fixture
beforeEach(async () => {
  t = await startTestServer()
  f = await commentFixture(t)
})
afterEach(() => t.close())

/** The space's `comments` and the open count of the list must agree. */
async function openCount() {
  const fromSpace = (await f.space()).comments
  const fromList = (await t.owner.api.get(f.commentsPath, { status: 'open' })).body.count
  expect(fromSpace).toBe(fromList)
  return fromSpace
}

describe('resolve and reopen', () => {
  it('any commenter resolves; status, resolvedAt and resolvedBy describe it; the space count follows', async () => {
    const author = await t.user({ role: 'comment' })
    const other = await t.user({ role: 'comment' })
    const c = await f.post({ body: { markdown: 'fix this' } }, author.api)
    await f.post({ body: { markdown: 'another' } })
    expect(await openCount()).toBe(2)

    t.clock.advance(60_000)
    const resolved = await other.api.put(f.commentPath(c.id), { resolved: true })
    expect(resolved.status).toBe(200)
    expectComment(resolved.body)
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedAt: '2026-03-01T10:01:00.000Z', body: { markdown: 'fix this' } })
    expectUser(resolved.body.resolvedBy, other.user.id)
    expect(resolved.body.editedAt).toBeUndefined()
    expect(await openCount()).toBe(1)

    // Resolving again keeps the first resolution.
    t.clock.advance(60_000)
    expect((await t.owner.api.put(f.commentPath(c.id), { resolved: true })).body).toMatchObject({
      resolvedAt: '2026-03-01T10:01:00.000Z',
      resolvedBy: { id: other.user.id }
    })
    expect(await openCount()).toBe(1)

    const reopened = (await author.api.put(f.commentPath(c.id), { resolved: false })).body
    expect(reopened.status).toBe('open')
    for (const key of ['resolvedAt', 'resolvedBy']) expect(reopened).not.toHaveProperty(key)
    expect((await t.owner.api.get(f.commentPath(c.id))).body.status).toBe('open')
    expect(await openCount()).toBe(2)
    expect((await author.api.put(f.commentPath(c.id), { resolved: false })).status).toBe(200)
    expect(await openCount()).toBe(2)
  })
})

describe('editing', () => {
  it('only the author edits the body; editedAt is set; a refused edit changes nothing', async () => {
    const author = await t.user({ role: 'comment' })
    const c = await f.post({ body: { markdown: 'first' } }, author.api)
    for (const api of [t.owner.api, (await t.user({ role: 'comment' })).api]) {
      const res = await api.put(f.commentPath(c.id), { body: { markdown: 'hijacked' }, resolved: true, addedReactions: ['👍'] })
      expect(res.status).toBe(403)
      expect(res.body.error.message).toBe('Only the author of a comment can edit its body')
    }
    const unchanged = (await t.owner.api.get(f.commentPath(c.id))).body
    expect(unchanged).toMatchObject({ body: { markdown: 'first' }, reactions: [] })
    expect(unchanged.status).toBe('open')

    t.clock.advance(5000)
    const edited = (await author.api.put(f.commentPath(c.id), { body: { markdown: 'second' } })).body
    expect(edited).toMatchObject({
      body: { markdown: 'second' },
      editedAt: '2026-03-01T10:00:05.000Z',
      postedAt: '2026-03-01T10:00:00.000Z'
    })
    expect((await author.api.put(f.commentPath(c.id), { body: {} })).body.body).toEqual({ markdown: '' })
  })

  it('validates the update body', async () => {
    const c = await f.post({ body: { markdown: 'x' } })
    const cases: [unknown, string][] = [
      [{ resolved: 'yes' }, 'resolved: must be boolean'],
      [{ body: { markdown: 'x'.repeat(100_001) } }, 'body.markdown: must be at most 100000 characters'],
      [{ addedReactions: '👍' }, 'addedReactions: must be array'],
      [{ addedReactions: [''] }, 'addedReactions.0: must be at least 1 characters'],
      [{ addedReactions: ['👍'.repeat(17)] }, 'addedReactions.0: must be at most 16 characters'],
      [{ addedReactions: ['thumbs up'] }, 'addedReactions.0: must be one emoji, with no spaces'],
      [{ removedReactions: ['abc'] }, 'removedReactions.0: must be one emoji, with no spaces'],
      [{ addedReactions: Array.from({ length: 21 }, () => '👍') }, 'addedReactions: must have at most 20 items'],
      [{ addedReactions: ['👍'], removedReactions: ['👍'] }, 'removedReactions: 👍 is also in addedReactions']
    ]
    for (const [body, message] of cases) {
      const res = await t.owner.api.put(f.commentPath(c.id), body)
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining(message) })
    }
    expect((await t.owner.api.get(f.commentPath(c.id))).body.reactions).toEqual([])
  })
})

describe('reactions', () => {
  it("toggles the caller's own reactions and lists who reacted, when", async () => {
    const alice = await t.user({ role: 'comment' })
    const bob = await t.user({ role: 'comment' })
    const c = await f.post({ body: { markdown: 'x' } })
    await alice.api.put(f.commentPath(c.id), { addedReactions: ['👍'] })
    t.clock.advance(1000)
    await alice.api.put(f.commentPath(c.id), { addedReactions: ['🎉'] })
    t.clock.advance(1000)
    const after = (await bob.api.put(f.commentPath(c.id), { addedReactions: ['👍', '👨‍👩‍👧', '🇫🇷'] })).body
    expect(after.reactions).toEqual([
      {
        emoji: '👍',
        count: 2,
        users: [
          { user: expect.objectContaining({ id: alice.user.id }), reactedAt: '2026-03-01T10:00:00.000Z' },
          { user: expect.objectContaining({ id: bob.user.id }), reactedAt: '2026-03-01T10:00:02.000Z' }
        ]
      },
      {
        emoji: '🎉',
        count: 1,
        users: [{ user: expect.objectContaining({ object: 'user', id: alice.user.id }), reactedAt: '2026-03-01T10:00:01.000Z' }]
      },
      // Reactions made at the same instant are ordered by emoji.
      { emoji: '🇫🇷', count: 1, users: [expect.objectContaining({ user: expect.objectContaining({ id: bob.user.id }) })] },
      { emoji: '👨‍👩‍👧', count: 1, users: [expect.objectContaining({ user: expect.objectContaining({ id: bob.user.id }) })] }
    ])
    // Adding twice is one reaction; removing only touches the caller's own.
    await alice.api.put(f.commentPath(c.id), { addedReactions: ['👍'] })
    const removed = (await alice.api.put(f.commentPath(c.id), { removedReactions: ['👍', '🎉', '🇫🇷'] })).body
    // 👍 is now first used at bob's time, the same instant as his other two.
    expect(removed.reactions.map((r: any) => [r.emoji, r.count])).toEqual([
      ['🇫🇷', 1],
      ['👍', 1],
      ['👨‍👩‍👧', 1]
    ])
    expect(removed.reactions[1].users.map((u: any) => u.user.id)).toEqual([bob.user.id])
    const listed = (await t.owner.api.get(f.commentsPath)).body.items[0]
    expect(listed.reactions).toEqual(removed.reactions)
    const reader = await t.user({ role: 'read' })
    expect((await reader.api.put(f.commentPath(c.id), { addedReactions: ['👍'] })).status).toBe(403)
  })
})

describe('DELETE /comments/{id}', () => {
  it("deleting a comment updates the space's count", async () => {
    const a = await f.post({ body: { markdown: 'a' } })
    const b = await f.post({ body: { markdown: 'b' } })
    expect(await openCount()).toBe(2)
    const res = await t.owner.api.delete(f.commentPath(a.id))
    expect(res.status).toBe(205)
    expect(res.body).toBeUndefined()
    expect(await openCount()).toBe(1)
    expect((await t.owner.api.get(f.commentPath(a.id))).status).toBe(404)
    expect((await t.owner.api.get(f.commentsPath)).body.items.map((c: any) => c.id)).toEqual([b.id])
    // A resolved comment is not counted, so deleting it leaves the count alone.
    await t.owner.api.put(f.commentPath(b.id), { resolved: true })
    expect(await openCount()).toBe(0)
    expect((await t.owner.api.delete(f.commentPath(b.id))).status).toBe(205)
    expect(await openCount()).toBe(0)
    expect((await t.owner.api.get(f.commentsPath)).body.count).toBe(0)
    expect((await t.owner.api.delete(f.commentPath(b.id))).status).toBe(404)
  })

  it('the author or a space admin deletes; others get 403 and nothing changes; replies and reactions go too', async () => {
    const author = await t.user({ role: 'comment' })
    const editor = await t.user({ role: 'edit' })
    const c = await f.post({ body: { markdown: 'x' } }, author.api)
    await editor.api.put(f.commentPath(c.id), { addedReactions: ['👍'] })
    const reply = (await editor.api.post(f.commentPath(c.id, '/replies'), { body: { markdown: 'r' } })).body
    await author.api.put(f.commentPath(c.id, `/replies/${reply.id}`), { addedReactions: ['🎉'] })

    expect((await editor.api.get(f.commentPath(c.id))).body.permissions).toEqual({ view: true, edit: false, reply: true, delete: false })
    const refused = await editor.api.delete(f.commentPath(c.id))
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toBe('Only the author of a comment or a space admin can delete it')
    expect((await t.owner.api.get(f.commentPath(c.id))).body).toMatchObject({ replies: 1, reactions: [{ emoji: '👍' }] })
    expect(await openCount()).toBe(1)

    const admin = await t.user({ role: 'admin' })
    expect((await admin.api.get(f.commentPath(c.id))).body.permissions).toEqual({ view: true, edit: false, reply: true, delete: true })
    expect((await admin.api.delete(f.commentPath(c.id))).status).toBe(205)
    expect((await t.owner.api.get(f.commentPath(c.id, `/replies/${reply.id}`))).status).toBe(404)
    expect(await openCount()).toBe(0)
    const leftovers = t.server.api.services.db.prepare('SELECT count(*) FROM reactions').pluck().get()
    expect(leftovers).toBe(0)

    const own = await f.post({ body: { markdown: 'mine' } }, author.api)
    expect((await author.api.delete(f.commentPath(own.id))).status).toBe(205)
  })
})

describe('comments on change requests', () => {
  it("count on the change request, not the space; listed with changeRequest; pages of the change request's content", async () => {
    const cr = (await t.owner.api.post(`/v1/spaces/${f.spaceId}/change-requests`, { subject: 'Draft' })).body
    const batch = await t.owner.api.post(`/v1/spaces/${f.spaceId}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'New page', document: { markdown: 'draft text' } }]
    })
    const newPage = (await t.owner.api.get(`/v1/spaces/${f.spaceId}/change-requests/${cr.id}/content/pages`)).body.pages.find(
      (p: any) => p.title === 'New page'
    )
    // The new page exists only in the change request.
    expect((await t.owner.api.post(f.commentsPath, { body: {}, page: newPage.id })).body.error.message).toBe(
      `page: no page ${newPage.id} in the space's content`
    )
    const onCr = await f.post({ body: { markdown: 'review note' }, changeRequest: cr.number, page: newPage.id, node: 'p1' })
    expect(onCr.target).toMatchObject({
      changeRequest: cr.id,
      revision: batch.body.revision,
      page: { id: newPage.id, title: 'New page', path: 'new-page', outdated: false }
    })
    const byId = await f.post({ body: { markdown: 'general' }, changeRequest: cr.id })
    const onSpace = await f.post({ body: { markdown: 'primary' } })

    expect((await f.changeRequest(cr.id)).comments).toBe(2)
    expect(await openCount()).toBe(1)
    expect((await t.owner.api.get(f.commentsPath)).body.items.map((c: any) => c.id)).toEqual([onSpace.id])
    const crList = (await t.owner.api.get(f.commentsPath, { changeRequest: String(cr.number) })).body
    expect(crList.items.map((c: any) => c.id)).toEqual([byId.id, onCr.id])
    expect(crList.count).toBe(2)

    await t.owner.api.put(f.commentPath(onCr.id), { resolved: true })
    expect((await f.changeRequest(cr.id)).comments).toBe(1)
    expect((await t.owner.api.get(f.commentsPath, { changeRequest: cr.id, status: 'open' })).body.items.map((c: any) => c.id)).toEqual([
      byId.id
    ])
    await t.owner.api.put(f.commentPath(onCr.id), { resolved: false })
    expect((await f.changeRequest(cr.id)).comments).toBe(2)
    expect((await t.owner.api.delete(f.commentPath(byId.id))).status).toBe(205)
    expect((await f.changeRequest(cr.id)).comments).toBe(1)
    expect(await openCount()).toBe(1)
  })
})

describe('page targets', () => {
  it('turn outdated when the page changes after the comment, and keep showing a removed page', async () => {
    const c = await f.post({ body: { markdown: 'typo here' }, page: f.pages.Guide, node: 'p' })
    const other = await f.post({ body: { markdown: 'fine' }, page: f.pages.Intro })
    const edit = async (changes: unknown[]) => {
      const cr = (await t.owner.api.post(`/v1/spaces/${f.spaceId}/change-requests`, {})).body
      expect((await t.owner.api.post(`/v1/spaces/${f.spaceId}/change-requests/${cr.id}/content`, { changes })).status).toBe(200)
      expect((await t.owner.api.post(`/v1/spaces/${f.spaceId}/change-requests/${cr.id}/merge`)).body.result).toBe('merge')
    }
    await edit([{ operation: 'update_page', page: f.pages.Guide, document: { markdown: '# Guide\n\nFixed words.\n' }, title: 'The Guide' }])
    let items = (await t.owner.api.get(f.commentsPath)).body.items
    expect(items.find((x: any) => x.id === c.id).target.page).toMatchObject({ title: 'The Guide', outdated: true })
    expect(items.find((x: any) => x.id === other.id).target.page).toMatchObject({ title: 'Intro', outdated: false })

    await edit([{ operation: 'update_page', page: f.pages.Intro, into: f.pages.Guide }])
    // Moving a page changes its path, not its document. (The renamed page's slug followed its title.)
    expect((await t.owner.api.get(f.commentPath(other.id))).body.target.page).toMatchObject({ path: 'the-guide/intro', outdated: false })

    await edit([{ operation: 'delete_page', page: f.pages.Guide }])
    items = (await t.owner.api.get(f.commentsPath)).body.items
    expect(items.find((x: any) => x.id === c.id).target.page).toMatchObject({
      id: f.pages.Guide,
      title: 'Guide',
      path: 'guide',
      outdated: true
    })
    expect(items.find((x: any) => x.id === other.id).target.page).toMatchObject({
      id: f.pages.Intro,
      title: 'Intro',
      path: 'intro',
      outdated: true
    })
  })
})
