// Page slugs through the content batch: a slug made from the title follows it, one given by hand stays.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'

let t: TestServer
let spaceId: string
beforeEach(async () => {
  t = await startTestServer()
  spaceId = (await t.owner.api.post(`/v1/orgs/${t.orgId}/spaces`, { title: 'Docs', empty: true })).body.id
})
afterEach(() => t.close())

const crPath = (cr: string, rest = '') => `/v1/spaces/${spaceId}/change-requests/${cr}${rest}`
const openCr = async () => (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Slugs' })).body.id as string
const batch = (cr: string, changes: unknown[]) => t.owner.api.post(crPath(cr, '/content'), { changes })
const insert = (title: string, extra: Record<string, unknown> = {}) => ({
  operation: 'insert_page',
  title,
  document: { markdown: 'Text.' },
  ...extra
})
const rename = (page: string, title: string, extra: Record<string, unknown> = {}) => ({ operation: 'update_page', page, title, ...extra })
/** [title, slug, path] of every page of the change request, depth first. */
async function slugs(cr: string): Promise<string[][]> {
  const out: string[][] = []
  const visit = (pages: any[]) => pages.forEach((p) => (out.push([p.title, p.slug, p.path]), visit(p.pages)))
  visit((await t.owner.api.get(crPath(cr, '/content/pages'))).body.pages)
  return out
}
async function idsOf(cr: string): Promise<Record<string, string>> {
  const ids: Record<string, string> = {}
  const visit = (pages: any[]) => pages.forEach((p) => ((ids[p.title] = p.id), visit(p.pages)))
  visit((await t.owner.api.get(crPath(cr, '/content/pages'))).body.pages)
  return ids
}

describe('page slugs on rename', () => {
  it('lets a new page’s slug follow its title when it is renamed, through a merge, and under a parent', async () => {
    const cr = await openCr()
    expect((await batch(cr, [insert('Untitled', { ref: 'u' }), insert('Untitled', { into: 'u' })])).status).toBe(200)
    expect(await slugs(cr)).toEqual([
      ['Untitled', 'untitled', 'untitled'],
      ['Untitled', 'untitled', 'untitled/untitled']
    ])
    const root = (await t.owner.api.get(crPath(cr, '/content/pages'))).body.pages[0].id as string
    const res = await batch(cr, [rename(root, 'Getting started')])
    expect(res.status).toBe(200)
    expect(await slugs(cr)).toEqual([
      ['Getting started', 'getting-started', 'getting-started'],
      ['Untitled', 'untitled', 'getting-started/untitled']
    ])
    // Renamed again (letters of any script), and once more after the merge.
    await batch(cr, [rename(root, 'Größe 文档')])
    expect((await slugs(cr))[0]).toEqual(['Größe 文档', 'größe-文档', 'größe-文档'])
    expect((await t.owner.api.post(crPath(cr, '/merge'))).body.result).toBe('merge')
    const next = await openCr()
    await batch(next, [rename(root, 'Install')])
    expect((await slugs(next))[0]).toEqual(['Install', 'install', 'install'])
    // Only the title changes the slug: an edit of the text or a move leaves it.
    await batch(next, [{ operation: 'update_page', page: root, document: { markdown: '# Other heading\n' } }])
    expect((await slugs(next))[0]).toEqual(['Install', 'install', 'install'])
  })

  it('keeps a slug given by hand when the title changes, and lets it follow again once set back to the title’s', async () => {
    const cr = await openCr()
    await batch(cr, [insert('Setup')])
    const ids = await idsOf(cr)
    const edited = await batch(cr, [{ operation: 'update_page', page: ids.Setup, slug: 'install-guide' }])
    expect(edited.status).toBe(200)
    expect(await slugs(cr)).toEqual([['Setup', 'install-guide', 'install-guide']])
    await batch(cr, [rename(ids.Setup!, 'Installation')])
    expect(await slugs(cr)).toEqual([['Installation', 'install-guide', 'install-guide']])
    // A title and a slug in one change: the slug given wins.
    await batch(cr, [rename(ids.Setup!, 'Setting up', { slug: 'setting-up-quire' })])
    expect(await slugs(cr)).toEqual([['Setting up', 'setting-up-quire', 'setting-up-quire']])
    // The title's own slug, given by hand, follows the title again.
    await batch(cr, [{ operation: 'update_page', page: ids.Setup, slug: 'setting-up' }])
    await batch(cr, [rename(ids.Setup!, 'Configure')])
    expect(await slugs(cr)).toEqual([['Configure', 'configure', 'configure']])
    // Merged, the primary content has what the change request had.
    expect((await t.owner.api.post(crPath(cr, '/merge'))).body.result).toBe('merge')
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}/content/page/${ids.Setup}`)).body).toMatchObject({
      slug: 'configure',
      path: 'configure'
    })
  })

  it('numbers a followed slug among its siblings and refuses a hand-given one a sibling has (409), changing nothing', async () => {
    const cr = await openCr()
    await batch(cr, [insert('Setup'), insert('Untitled'), insert('Other')])
    const ids = await idsOf(cr)
    // Renamed to a sibling's title: the sibling keeps its slug, the renamed page takes the suffix.
    await batch(cr, [rename(ids.Untitled!, 'Setup')])
    expect(await slugs(cr)).toEqual([
      ['Setup', 'setup', 'setup'],
      ['Setup', 'setup-2', 'setup-2'],
      ['Other', 'other', 'other']
    ])
    // A numbered slug still follows its title.
    await batch(cr, [rename(ids.Untitled!, 'Deploy')])
    expect((await slugs(cr))[1]).toEqual(['Deploy', 'deploy', 'deploy'])

    const revision = (await t.owner.api.get(crPath(cr))).body.revision
    const res = await batch(cr, [{ operation: 'update_page', page: ids.Other, slug: 'deploy' }])
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      error: { code: 409, message: 'changes.0.slug: “deploy” is the slug of “Deploy” beside this page; slugs are unique among siblings' }
    })
    expect((await t.owner.api.get(crPath(cr))).body.revision).toBe(revision)
    // Under another parent the same slug is free: checked where the page ends up.
    const moved = await batch(cr, [{ operation: 'update_page', page: ids.Other, into: ids.Setup, slug: 'deploy' }])
    expect(moved.status).toBe(200)
    expect((await slugs(cr)).find((s) => s[0] === 'Other')).toEqual(['Other', 'deploy', 'setup/deploy'])
  })

  it('numbers a slug of 100 characters within 100, cutting its base, and the numbered slug still follows its title', async () => {
    const long = 'Long'.repeat(40)
    const cr = await openCr()
    expect((await batch(cr, [insert(long), insert(long)])).status).toBe(200)
    const [[, first], [, second]] = await slugs(cr)
    expect([...first!].length).toBe(100)
    expect(second).toBe(`${first!.slice(0, 98)}-2`)
    const ids = await t.owner.api.get(crPath(cr, '/content/pages'))
    await batch(cr, [rename(ids.body.pages[1].id, 'Short')])
    expect((await slugs(cr))[1]).toEqual(['Short', 'short', 'short'])
  })

  it('answers 400 for a slug that is not one, naming the rule, and changes nothing', async () => {
    const cr = await openCr()
    await batch(cr, [insert('Setup')])
    const ids = await idsOf(cr)
    const revision = (await t.owner.api.get(crPath(cr))).body.revision
    for (const slug of ['Setup', 'two words', 'a/b', '-setup', 'setup--2', '', 'x'.repeat(101)]) {
      const res = await batch(cr, [{ operation: 'update_page', page: ids.Setup, slug }])
      expect(res.status, slug).toBe(400)
      expect(res.body.error.message, slug).toMatch(/^changes\.0\.slug: must /)
    }
    const res = await batch(cr, [{ operation: 'update_page', page: ids.Setup, slug: 'Setup' }])
    expect(res.body.error.message).toBe(
      'changes.0.slug: must be lower-case letters and digits of any script, words joined by single dashes (getting-started)'
    )
    expect((await t.owner.api.get(crPath(cr))).body.revision).toBe(revision)
    expect(await slugs(cr)).toEqual([['Setup', 'setup', 'setup']])
  })
})
