// Forged `page` identifiers: every list checks the key it decodes against its own sort key, so a cursor of the
// wrong shape answers 400 `page: invalid cursor` instead of reaching SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, walk, type TestServer } from '../testing/harness'

let t: TestServer
let spaceId: string
let siteId: string

beforeAll(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace()
  siteId = (await t.owner.api.post(`/v1/orgs/${t.orgId}/sites`, { title: 'Site' })).body.id
  await t.owner.api.post(`/v1/orgs/${t.orgId}/sites/${siteId}/sections`, { spaceId, title: 'One' })
  await t.owner.api.post(`/v1/orgs/${t.orgId}/sites/${siteId}/sections`, { spaceId: null, title: 'Two' })
})
afterAll(() => t.close())

const cursor = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url')

describe('a forged page identifier', () => {
  const lists = () =>
    [
      // [list, query]: keys [seq], [position, seq], [last seen or null, seq], [name, id], [score, page key], [score, space id]
      ['/v1/orgs', {}],
      [`/v1/orgs/${t.orgId}/spaces`, {}],
      [`/v1/orgs/${t.orgId}/sites/${siteId}/sections`, {}],
      [`/v1/orgs/${t.orgId}/members`, { sort: 'lastSeenAt' }],
      [`/v1/spaces/${spaceId}/content/files`, {}],
      [`/v1/spaces/${spaceId}/search`, { query: 'x' }],
      [`/v1/orgs/${t.orgId}/search`, { query: 'x' }],
      [`/v1/spaces/${spaceId}/links`, {}]
    ] as const

  const forged = [
    'garbage!',
    '%%',
    cursor({}),
    cursor([{}]),
    cursor([[]]),
    cursor([true]),
    cursor([null]),
    cursor([{}, 1]),
    cursor([1, {}]),
    cursor([true, false]),
    cursor([[1], [2]]),
    cursor(['a', 'b', {}]),
    cursor([1.5]),
    cursor([1, 2, 3, 4]),
    cursor('x'),
    cursor(1)
  ]

  it('answers 400 on every list, whatever its key', async () => {
    for (const [path, query] of lists()) {
      for (const page of forged) {
        const res = await t.owner.api.get(path, { ...query, page })
        expect({ path, page, status: res.status, body: res.body }).toEqual({
          path,
          page,
          status: 400,
          body: { error: { code: 400, message: 'page: invalid cursor' } }
        })
      }
    }
  })

  it('while the lists’ own identifiers still page', async () => {
    const sections = await walk(t.owner.api, `/v1/orgs/${t.orgId}/sites/${siteId}/sections`, { limit: 1 })
    expect(sections.pages).toHaveLength(2)
    expect(sections.items.map((s: { title: string }) => s.title)).toEqual(['One', 'Two'])
    const seq = Number.MAX_SAFE_INTEGER
    // A member never seen has no last-seen time: the key of such a row is [null, seq].
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}/members`, { sort: 'lastSeenAt', page: cursor([null, seq]) })).status).toBe(200)
    expect(
      (await t.owner.api.get(`/v1/orgs/${t.orgId}/members`, { sort: 'lastSeenAt', page: cursor(['2026-01-01T00:00:00.000Z', seq]) })).status
    ).toBe(200)
  })
})
