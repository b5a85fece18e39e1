import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/harness'
import { DOWNLOAD_TOKEN_WINDOW_MS } from '../../downloads'
import { applyBatch, createSpace, download, makePng, openChangeRequest, seedContent, withoutToken } from './fixtures'

let t: TestServer
let spaceId: string
const png = makePng(3, 2)

beforeEach(async () => {
  t = await startTestServer()
  spaceId = await createSpace(t)
})
afterEach(() => t.close())

const filesOf = async (space = spaceId) => (await t.owner.api.get(`/v1/spaces/${space}/content/files`)).body.items as any[]

async function uploadPng(name = 'logo.png') {
  await seedContent(t, spaceId, [
    { operation: 'insert_files', files: [{ name, base64: png.toString('base64'), ref: 'logo' }] },
    { operation: 'insert_page', title: 'Home', document: { markdown: '# Home\n\n![Logo](/files/logo)\n' } }
  ])
  const [file] = await filesOf()
  return file
}

describe('file downloads: authorization', () => {
  it('answers 401 without a bearer token or a signed token, and for bad tokens', async () => {
    const file = await uploadPng()
    const bare = withoutToken(file.downloadURL)
    const noAuth = await download(bare)
    expect(noAuth.status).toBe(401)
    expect(JSON.parse(noAuth.bytes.toString()).error.code).toBe(401)
    expect((await download(bare, 'qr_not-a-token')).status).toBe(401)
    expect((await download(`${bare}?token=garbage`)).status).toBe(401)
    const token = new URL(file.downloadURL).searchParams.get('token')!
    const [exp, user, mac] = token.split('.')
    expect((await download(`${bare}?token=${exp}.${user}.${mac!.slice(1)}x`)).status).toBe(401)
    // Another user, another expiry: the signature no longer matches.
    const other = await t.user({ role: 'admin' })
    expect((await download(`${bare}?token=${exp}.${other.user.id}.${mac}`)).status).toBe(401)
    expect((await download(`${bare}?token=${Number(exp) + 3600}.${user}.${mac}`)).status).toBe(401)
  })

  it('binds a signed token to its revision and lets it expire', async () => {
    const file = await uploadPng()
    const token = new URL(file.downloadURL).searchParams.get('token')!
    // The same token on another revision's URL of the same file is refused.
    const cr = await openChangeRequest(t.owner.api, spaceId)
    await applyBatch(t.owner.api, spaceId, cr.id, [{ operation: 'insert_page', title: 'More', document: { markdown: 'x' } }])
    const crFile = (await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/files/${file.id}`)).body
    expect(new URL(crFile.downloadURL).pathname).not.toBe(new URL(file.downloadURL).pathname)
    expect((await download(`${withoutToken(crFile.downloadURL)}?token=${token}`)).status).toBe(401)
    expect((await download(crFile.downloadURL)).status).toBe(200)

    expect((await download(file.downloadURL)).status).toBe(200)
    t.clock.advance(2 * DOWNLOAD_TOKEN_WINDOW_MS)
    const expired = await download(file.downloadURL)
    expect(expired.status).toBe(401)
    expect(JSON.parse(expired.bytes.toString()).error.message).toMatch(/expired/)
    // A fresh read of the file hands out a fresh URL.
    expect((await download((await filesOf())[0].downloadURL)).status).toBe(200)
  })

  it('answers 404 for unknown ids, other spaces and callers who cannot read the space', async () => {
    const file = await uploadPng()
    const url = new URL(withoutToken(file.downloadURL))
    const [, , , revisionId, fileId, name] = url.pathname.split('/')
    const at = (path: string) => `${url.origin}${path}`
    expect((await download(at(`/files/${spaceId}/${revisionId}/nope/${name}`), t.owner.token)).status).toBe(404)
    expect((await download(at(`/files/${spaceId}/nope/${fileId}/${name}`), t.owner.token)).status).toBe(404)
    expect((await download(at(`/files/nope/${revisionId}/${fileId}/${name}`), t.owner.token)).status).toBe(404)
    // A revision of another space is not reachable through this space.
    const otherSpace = await createSpace(t, 'Other')
    expect((await download(at(`/files/${otherSpace}/${revisionId}/${fileId}/${name}`), t.owner.token)).status).toBe(404)

    const stranger = await t.user({ role: 'none' })
    expect((await download(url.toString(), stranger.token)).status).toBe(404)
    // A signed URL outlives no permission: a reader's URL stops working once the space is deleted.
    const reader = await t.user({ role: 'read' })
    const readerFile = (await reader.api.get(`/v1/spaces/${spaceId}/content/files/${file.id}`)).body
    expect((await download(readerFile.downloadURL)).status).toBe(200)
    expect((await t.owner.api.delete(`/v1/spaces/${spaceId}`)).status).toBe(205)
    expect((await download(readerFile.downloadURL)).status).toBe(404)
  })
})

describe('file downloads', () => {
  it('stores an uploaded image with its real size, type and dimensions, and serves the same bytes', async () => {
    const file = await uploadPng()
    const meta = await t.owner.api.get(`/v1/spaces/${spaceId}/content/files/${file.id}`)
    expect(meta.status).toBe(200)
    expect(meta.body).toMatchObject({
      id: file.id,
      name: 'logo.png',
      contentType: 'image/png',
      size: png.byteLength,
      dimensions: { width: 3, height: 2 }
    })
    expect(meta.body.downloadURL).toMatch(new RegExp(`^${t.url}/files/${spaceId}/[\\w-]+/${file.id}/logo\\.png\\?token=`))

    // With the signed token alone, as an <img src> loads it.
    const signed = await download(meta.body.downloadURL)
    expect(signed.status).toBe(200)
    expect(signed.bytes.equals(png)).toBe(true)
    expect(signed.headers.get('content-type')).toBe('image/png')
    expect(signed.headers.get('content-length')).toBe(String(png.byteLength))
    expect(signed.headers.get('cache-control')).toMatch(/^private, .*immutable/)
    expect(signed.headers.get('content-disposition')).toBe(`inline; filename="logo.png"; filename*=UTF-8''logo.png`)
    expect(signed.headers.get('x-content-type-options')).toBe('nosniff')
    expect(signed.headers.get('content-security-policy')).toContain('sandbox')

    // With a bearer token instead, as the API's own clients do.
    const bearer = await download(withoutToken(meta.body.downloadURL), t.owner.token)
    expect(bearer.status).toBe(200)
    expect(bearer.bytes.equals(png)).toBe(true)

    // Content-addressed: the ETag revalidates to 304.
    const etag = signed.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)
    expect((await download(meta.body.downloadURL, undefined, { 'if-none-match': etag })).status).toBe(304)
  })

  it('serves other files as attachments under a safe name', async () => {
    const text = Buffer.from('name,value\n"a",1\n')
    const name = 'report "final"/ü.csv'
    await seedContent(t, spaceId, [{ operation: 'insert_files', files: [{ name, base64: text.toString('base64') }] }])
    const [file] = await filesOf()
    expect(file).toMatchObject({ name, contentType: 'text/csv', size: text.byteLength })
    expect(file.dimensions).toBeUndefined()
    const res = await download(file.downloadURL)
    expect(res.status).toBe(200)
    expect(res.bytes.equals(text)).toBe(true)
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="report _final___.csv"; filename*=UTF-8''report%20%22final%22%2F%C3%BC.csv`
    )
  })

  it("serves a change request's files before they are merged, to those who can read it", async () => {
    const cr = await openChangeRequest(t.owner.api, spaceId)
    await applyBatch(t.owner.api, spaceId, cr.id, [
      { operation: 'insert_files', files: [{ name: 'draft.png', base64: png.toString('base64') }] }
    ])
    expect(await filesOf()).toEqual([])
    const reader = await t.user({ role: 'read' })
    const list = (await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/files`)).body.items
    expect(list).toHaveLength(1)
    const res = await download(list[0].downloadURL)
    expect(res.status).toBe(200)
    expect(res.bytes.equals(png)).toBe(true)
  })
})

describe('space duplicate', () => {
  it("copies the pages and files, which read back through the copy's content API", async () => {
    await seedContent(t, spaceId, [
      { operation: 'insert_files', files: [{ name: 'logo.png', base64: png.toString('base64'), ref: 'logo' }] },
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '# Guide\n\n![Logo](/files/logo)\n\nRead me.\n' } },
      { operation: 'insert_page', into: 'guide', title: 'Setup', document: { markdown: 'Install it.\n' } }
    ])
    const copy = await t.owner.api.post(`/v1/spaces/${spaceId}/duplicate`)
    expect(copy.status).toBe(201)
    const copyId = copy.body.id as string
    expect(copyId).not.toBe(spaceId)

    const pages = (await t.owner.api.get(`/v1/spaces/${copyId}/content/pages`)).body.pages
    expect(pages.map((p: any) => p.title)).toEqual(['Guide'])
    expect(pages[0].pages.map((p: any) => [p.title, p.path])).toEqual([['Setup', 'guide/setup']])
    const guide = (await t.owner.api.get(`/v1/spaces/${copyId}/content/page/${pages[0].id}`)).body
    expect(guide.markdown).toContain('Read me.')
    const setup = (await t.owner.api.get(`/v1/spaces/${copyId}/content/page/${pages[0].pages[0].id}`)).body
    expect(setup.markdown).toBe('Install it.\n')

    const [file] = await filesOf(copyId)
    expect(file).toMatchObject({ name: 'logo.png', contentType: 'image/png', size: png.byteLength, dimensions: { width: 3, height: 2 } })
    expect(file.downloadURL).toContain(`/files/${copyId}/`)
    const res = await download(file.downloadURL)
    expect(res.status).toBe(200)
    expect(res.bytes.equals(png)).toBe(true)

    // The copy's revision belongs to the copy: the original's URL path does not reach it, and vice versa.
    const original = (await filesOf())[0]
    const swapped = original.downloadURL.replace(`/files/${spaceId}/`, `/files/${copyId}/`)
    expect((await download(withoutToken(swapped), t.owner.token)).status).toBe(404)
  })
})
