import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer, type TestUser } from '../../../testing/harness'

let t: TestServer
let spaceId: string
let author: TestUser
let reviewer: TestUser
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace()
  author = await t.user({ role: 'edit', name: 'Ann Author' })
  reviewer = await t.user({ role: 'review', name: 'Rita Reviewer' })
})
afterEach(() => t.close())

const crPath = (cr: string, rest = '') => `/v1/spaces/${spaceId}/change-requests/${cr}${rest}`
async function openCr(api = author.api) {
  const cr = (await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' })).body
  const edit = await api.post(crPath(cr.id, '/content'), {
    changes: [{ operation: 'insert_page', title: 'One', document: { markdown: 'one' } }]
  })
  expect(edit.status).toBe(200)
  return edit.body as { id: string; revision: string }
}
const review = (cr: string, status: string, who = reviewer, comment?: string) =>
  who.api.post(crPath(cr, '/reviews'), comment === undefined ? { status } : { status, comment: { markdown: comment } })

describe('reviews', () => {
  it('records a review of the revision reviewed, lists it and gets it', async () => {
    const cr = await openCr()
    const res = await review(cr.id, 'approved')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      object: 'change-request-review',
      revision: cr.revision,
      status: 'approved',
      outdated: false,
      reviewer: { object: 'user', id: reviewer.user.id, displayName: 'Rita Reviewer' }
    })
    expect(res.body.requestedBy).toBeUndefined()
    expect(res.headers.get('location')).toBe(res.body.urls.location)
    const list = await author.api.get(crPath(cr.id, '/reviews'))
    expect(list.body).toMatchObject({ count: 1, items: [{ id: res.body.id }] })
    expect((await author.api.get(crPath(cr.id, `/reviews/${res.body.id}`))).body).toEqual(res.body)
    expect((await author.api.get(crPath(cr.id, '/reviews/nope'))).status).toBe(404)
  })

  it('posts the optional comment on the change request', async () => {
    const cr = await openCr()
    expect((await review(cr.id, 'changes-requested', reviewer, 'Please add an example')).status).toBe(201)
    const comments = await author.api.get(`/v1/spaces/${spaceId}/comments`, { changeRequest: cr.id })
    expect(comments.body.items.map((c: any) => c.body.markdown)).toContain('Please add an example')
    expect((await author.api.get(crPath(cr.id))).body.comments).toBe(1)
  })

  it('carries its comment: the review answers it, and the comment names its review', async () => {
    const cr = await openCr()
    const res = await review(cr.id, 'changes-requested', reviewer, 'Please add an **example**')
    expect(res.status).toBe(201)
    expect(res.body.comment).toMatchObject({
      object: 'comment',
      body: { markdown: 'Please add an **example**' },
      postedBy: { id: reviewer.user.id },
      target: { changeRequest: cr.id, review: res.body.id, revision: cr.revision },
      status: 'open'
    })
    const listed = (await author.api.get(crPath(cr.id, '/reviews'))).body.items[0]
    expect(listed).toEqual({ ...res.body, comment: { ...res.body.comment, permissions: listed.comment.permissions } })
    expect(listed.comment.permissions).toMatchObject({ view: true, edit: false })
    const one = await author.api.get(crPath(cr.id, `/reviews/${res.body.id}`), { format: 'document' })
    expect(one.body.comment.body.document).toMatchObject({ object: 'document', nodes: [{ object: 'block', type: 'paragraph' }] })
    const comment = await author.api.get(`/v1/spaces/${spaceId}/comments/${res.body.comment.id}`)
    expect(comment.body.target.review).toBe(res.body.id)

    // A review without a comment, or with a blank one, carries none.
    expect((await review(cr.id, 'approved', reviewer)).body.comment).toBeUndefined()
    expect((await review(cr.id, 'approved', reviewer, '  \n ')).body.comment).toBeUndefined()
    // Deleted, the comment leaves the review.
    expect((await reviewer.api.delete(`/v1/spaces/${spaceId}/comments/${res.body.comment.id}`)).status).toBe(205)
    expect((await author.api.get(crPath(cr.id, `/reviews/${res.body.id}`))).body.comment).toBeUndefined()
  })

  it('shows its comment only to those who may read comments, and refuses a comment too long, recording nothing', async () => {
    const cr = await openCr()
    const id = (await review(cr.id, 'approved', reviewer, 'Looks good')).body.id
    const reader = await t.user({ role: 'read' })
    const seen = await reader.api.get(crPath(cr.id, '/reviews'))
    expect(seen.body.items.map((r: any) => [r.id, r.comment])).toEqual([[id, undefined]])
    expect((await reader.api.get(crPath(cr.id, `/reviews/${id}`))).body.comment).toBeUndefined()

    const tooLong = await review(cr.id, 'changes-requested', reviewer, 'x'.repeat(100_001))
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.error.message).toMatch(/^comment\.markdown: /)
    expect((await reviewer.api.post(crPath(cr.id, '/reviews'), { status: 'approved', comment: { markdown: 42 } })).status).toBe(400)
    expect((await author.api.get(crPath(cr.id, '/reviews'))).body.count).toBe(1)
    expect((await author.api.get(crPath(cr.id))).body.comments).toBe(1)
    expect((await author.api.get(crPath(cr.id, '/reviews'), { format: 'html' })).status).toBe(400)
  })

  it('goes outdated when the content changes after it, or a newer review replaces it', async () => {
    const cr = await openCr()
    const first = (await review(cr.id, 'changes-requested')).body
    const second = (await review(cr.id, 'approved')).body
    expect((await author.api.get(crPath(cr.id, `/reviews/${first.id}`))).body.outdated).toBe(true)
    expect((await author.api.get(crPath(cr.id, `/reviews/${second.id}`))).body.outdated).toBe(false)
    await author.api.post(crPath(cr.id, '/content'), {
      changes: [{ operation: 'insert_page', title: 'Two', document: { markdown: 'two' } }]
    })
    expect((await author.api.get(crPath(cr.id, `/reviews/${second.id}`))).body.outdated).toBe(true)
    expect((await author.api.get(crPath(cr.id, '/reviews'), { outdated: true })).body.count).toBe(2)
    const third = (await review(cr.id, 'approved')).body
    expect((await author.api.get(crPath(cr.id, '/reviews'), { outdated: false })).body).toMatchObject({
      count: 1,
      items: [{ id: third.id }]
    })
  })

  it('pages through reviews newest first (keyset)', async () => {
    const cr = await openCr()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await review(cr.id, i % 2 ? 'approved' : 'changes-requested')).body.id)
    const first = await author.api.get(crPath(cr.id, '/reviews'), { limit: 2 })
    expect(first.body.items.map((r: any) => r.id)).toEqual([ids[4], ids[3]])
    expect(first.body.count).toBe(5)
    const { items: all, pages } = await walk(author.api, crPath(cr.id, '/reviews'), { limit: 2 })
    expect(pages).toHaveLength(3)
    expect(all.map((r: any) => r.id)).toEqual([...ids].reverse())
    expect((await author.api.get(crPath(cr.id, '/reviews'), { page: 'garbage' })).status).toBe(400)
  })

  it('needs the review role; the author cannot approve their own change request', async () => {
    const cr = await openCr()
    const editor = await t.user({ role: 'edit' })
    const res = await review(cr.id, 'approved', editor)
    expect(res.status).toBe(403)
    const ownCr = await openCr(reviewer.api)
    const own = await review(ownCr.id, 'approved', reviewer)
    expect(own.status).toBe(403)
    expect(own.body.error.message).toBe('status: the author of a change request cannot approve it')
    const admin = await t.user({ role: 'admin' })
    const adminCr = await openCr(admin.api)
    expect((await review(adminCr.id, 'approved', admin)).status).toBe(403)
    expect((await review(adminCr.id, 'changes-requested', admin)).status).toBe(201)
    expect((await review(cr.id, 'rejected')).status).toBe(400)
    expect((await reviewer.api.post(crPath(cr.id, '/reviews'), {})).body.error.message).toMatch(/^status: /)
    const outsider = await t.user({ role: 'none' })
    expect((await review(cr.id, 'approved', outsider)).status).toBe(404)
    expect((await review('nope', 'approved')).status).toBe(404)
    expect((await author.api.get(crPath(cr.id, '/reviews'))).body.count).toBe(0)
  })

  it('refuses reviews of merged change requests', async () => {
    const cr = await openCr()
    expect((await t.owner.api.post(crPath(cr.id, '/merge'))).status).toBe(200)
    const res = await review(cr.id, 'approved')
    expect(res.status).toBe(409)
  })
})

describe('requested reviewers', () => {
  it('asks users, lists them in order, and forgets a request once answered', async () => {
    const cr = await openCr()
    const other = await t.user({ role: 'admin', name: 'Otto' })
    const res = await author.api.post(crPath(cr.id, '/requested-reviewers'), { users: [reviewer.user.id, other.user.id], subject: 'Ready' })
    expect(res.status).toBe(200)
    expect(res.body.users).toMatchObject([
      {
        object: 'change-request-requested-reviewer',
        kind: 'user',
        user: { id: reviewer.user.id },
        requestedBy: { id: author.user.id },
        revision: cr.revision
      },
      { kind: 'user', user: { id: other.user.id } }
    ])
    expect((await author.api.get(crPath(cr.id))).body.subject).toBe('Ready')
    const first = await author.api.get(crPath(cr.id, '/requested-reviewers'), { limit: 1 })
    expect(first.body).toMatchObject({ count: 2, items: [{ user: { id: reviewer.user.id } }], next: { page: expect.any(String) } })
    const second = await author.api.get(crPath(cr.id, '/requested-reviewers'), { limit: 1, page: first.body.next.page })
    expect(second.body.items.map((r: any) => r.user.id)).toEqual([other.user.id])
    expect(second.body.next).toBeUndefined()

    const answered = (await review(cr.id, 'approved')).body
    expect(answered.requestedBy).toMatchObject({ id: author.user.id })
    expect((await author.api.get(crPath(cr.id, '/requested-reviewers'))).body.items.map((r: any) => r.user.id)).toEqual([other.user.id])
    // Asked again: the earlier review is superseded.
    await author.api.post(crPath(cr.id, '/requested-reviewers'), { users: [reviewer.user.id] })
    expect((await author.api.get(crPath(cr.id, `/reviews/${answered.id}`))).body.outdated).toBe(true)
  })

  it('removes a request (205), and answers 204 when there was none', async () => {
    const cr = await openCr()
    await author.api.post(crPath(cr.id, '/requested-reviewers'), { users: [reviewer.user.id] })
    expect((await author.api.delete(crPath(cr.id, `/requested-reviewers/${reviewer.user.id}`))).status).toBe(205)
    expect((await author.api.get(crPath(cr.id, '/requested-reviewers'))).body).toMatchObject({ count: 0, items: [] })
    expect((await author.api.delete(crPath(cr.id, `/requested-reviewers/${reviewer.user.id}`))).status).toBe(204)
  })

  it('validates who is asked and who asks', async () => {
    const cr = await openCr()
    const editor = await t.user({ role: 'edit', name: 'Ed' })
    const cases: [unknown, string][] = [
      [{ users: [] }, 'users: must have at least 1 items'],
      [{ users: ['nobody'] }, 'users.0: no user nobody'],
      [{ users: [reviewer.user.id, author.user.id] }, 'users.1: the author of a change request cannot review it'],
      [{ users: [editor.user.id] }, 'users.0: Ed cannot review this space (needs the review role)']
    ]
    for (const [body, message] of cases) {
      const res = await author.api.post(crPath(cr.id, '/requested-reviewers'), body)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toBe(message)
    }
    expect((await author.api.get(crPath(cr.id, '/requested-reviewers'))).body.count).toBe(0)
    const commenter = await t.user({ role: 'comment' })
    expect((await commenter.api.post(crPath(cr.id, '/requested-reviewers'), { users: [reviewer.user.id] })).status).toBe(403)
    expect((await commenter.api.delete(crPath(cr.id, `/requested-reviewers/${reviewer.user.id}`))).status).toBe(403)
    expect((await commenter.api.get(crPath(cr.id, '/requested-reviewers'))).status).toBe(200)
    expect((await author.api.post(crPath('nope', '/requested-reviewers'), { users: [reviewer.user.id] })).status).toBe(404)
  })
})
