// Optimistic concurrency on content: reads answer the revision they read as their ETag, and writes sent back
// with it as If-Match are refused (412) where they would overwrite what changed since.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'

let t: TestServer
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace()
})
afterEach(() => t.close())

const crPath = (cr: string | number, rest = '') => `/v1/spaces/${spaceId}/change-requests/${cr}${rest}`
const openCr = async (subject = 'Edit') => (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject })).body
const batch = (cr: string, changes: unknown[]) => t.owner.api.post(crPath(cr, '/content'), { changes })
const pageMarkdown = async (cr: string, pageId: string) => (await t.owner.api.get(crPath(cr, `/content/page/${pageId}`))).body.markdown
const edit = (page: string, markdown: string) => ({ operation: 'update_page', page, document: { markdown } })

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
    const theirs = await batch(cr.id, [edit(a, 'alpha, edited by someone else\n')])
    expect(theirs.status).toBe(200)

    const refused = await postIfMatch(crPath(cr.id, '/content'), read, { changes: [edit(b, 'beta 2\n'), edit(a, 'alpha, mine\n')] })
    expect(refused.status).toBe(412)
    expect(refused.body).toEqual({
      error: { code: 412, message: `changes.1.page: “A” changed since revision ${read.slice(1, -1)} (If-Match): read it again before writing over it` }
    })
    // All or nothing: B is not written either, and A keeps the other edit.
    expect((await t.owner.api.get(crPath(cr.id))).body.revision).toBe(theirs.body.revision)
    expect(await pageMarkdown(cr.id, a)).toBe('alpha, edited by someone else\n')
    expect(await pageMarkdown(cr.id, b)).toBe('beta\n')

    expect((await postIfMatch(crPath(cr.id, '/content'), read, { changes: [{ operation: 'delete_page', page: a }] })).status).toBe(412)
    const untouched = await postIfMatch(crPath(cr.id, '/content'), read, { changes: [edit(b, 'beta 2\n')] })
    expect(untouched.status).toBe(200)
    expect(await pageMarkdown(cr.id, b)).toBe('beta 2\n')

    // Read again: the write goes through. `*`, a weak tag and a list naming the head are accepted too.
    const fresh = (await t.owner.api.get(crPath(cr.id, `/content/page/${a}`))).headers.get('etag')!
    expect((await postIfMatch(crPath(cr.id, '/content'), fresh, { changes: [edit(a, 'alpha, mine\n')] })).status).toBe(200)
    expect(await pageMarkdown(cr.id, a)).toBe('alpha, mine\n')
    const head = (await t.owner.api.get(crPath(cr.id))).body.revision
    expect((await postIfMatch(crPath(cr.id, '/content'), '*', { changes: [edit(a, 'any\n')] })).status).toBe(200)
    expect((await postIfMatch(crPath(cr.id, '/content'), `"nope", W/"${head}"`, { changes: [edit(a, 'stale\n')] })).status).toBe(412)
  })

  it('refuses a rename over a title changed since, and a tag that names no revision of the space', async () => {
    const { cr, revision, b } = await crWithPages()
    expect((await batch(cr.id, [{ operation: 'update_page', page: b, title: 'Bee' }])).status).toBe(200)
    const renamed = await postIfMatch(crPath(cr.id, '/content'), `"${revision}"`, { changes: [{ operation: 'update_page', page: b, title: 'Beta' }] })
    expect(renamed.status).toBe(412)
    expect(renamed.body.error.message).toMatch(/^changes\.0\.page: “Bee” changed since revision/)
    // Moving it is not an overwrite of what changed.
    expect((await postIfMatch(crPath(cr.id, '/content'), `"${revision}"`, { changes: [{ operation: 'update_page', page: b, at: 0 }] })).status).toBe(200)
    const unknown = await postIfMatch(crPath(cr.id, '/content'), '"not-a-revision"', { changes: [{ operation: 'update_page', page: b, title: 'Beta' }] })
    expect(unknown).toEqual({ status: 412, body: { error: { code: 412, message: 'If-Match: not-a-revision is not a revision of this space' } } })
  })

  it('merges only the change request a reviewer saw: If-Match on merge', async () => {
    const { cr, revision, a } = await crWithPages()
    const later = await batch(cr.id, [edit(a, 'alpha, after the review\n')])
    const refused = await postIfMatch(crPath(cr.id, '/merge'), `"${revision}"`)
    expect(refused.status).toBe(412)
    expect(refused.body.error.message).toBe(`The change request changed since revision ${revision} (If-Match): review it again before merging`)
    expect((await t.owner.api.get(crPath(cr.id))).body.status).toBe('draft')
    const merged = await postIfMatch(crPath(cr.id, '/merge'), `"${later.body.revision}"`)
    expect(merged.status).toBe(200)
    expect(merged.body.result).toBe('merge')
  })
})
