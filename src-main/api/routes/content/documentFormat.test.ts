// `format=document`: every operation that takes the published `format` parameter answers the published document
// model, and the content batch takes a model as a page's document.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { schemaViolations } from '../../../testing/contract'
import { startTestServer, type TestServer } from '../../../testing/harness'

let t: TestServer
let spaceId: string
let cr: string
const MARKDOWN = '# Guide\n\nRead **this** and [that](https://example.com).\n\n{% hint style="warning" %}\nCareful.\n{% endhint %}\n'
const pages: Record<string, string> = {}

beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace()
  cr = (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Seed' })).body.id
  const res = await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`, {
    changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: MARKDOWN } }]
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  for (const p of (await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`)).body.pages) pages[p.title] = p.id
})
afterEach(() => t.close())

/** The answer's document is the published model of MARKDOWN, and nothing else of it changed. */
function expectModel(document: any) {
  expect(schemaViolations('JSONDocument', document)).toEqual([])
  expect(document.object).toBe('document')
  expect(document.nodes.map((n: any) => n.type)).toEqual(['heading-1', 'paragraph', 'hint'])
  expect(document.nodes[1].nodes[1]).toMatchObject({
    object: 'inline',
    type: 'link',
    data: { ref: { kind: 'url', url: 'https://example.com' } }
  })
}

/** GET with format=document: 200 with the model; format=markdown: the markdown; another format: 400. */
async function checkFormats(path: string, documentOf: (body: any) => any, markdownOf: (body: any) => any, expected = MARKDOWN) {
  const asDocument = await t.owner.api.get(path, { format: 'document' })
  expect(asDocument.status, JSON.stringify(asDocument.body).slice(0, 300)).toBe(200)
  expectModel(documentOf(asDocument.body))
  expect(markdownOf(asDocument.body)).toBeUndefined()
  const asMarkdown = await t.owner.api.get(path, { format: 'markdown' })
  expect(markdownOf(asMarkdown.body)).toBe(expected)
  expect(documentOf(asMarkdown.body)).toBeUndefined()
  const bad = await t.owner.api.get(path, { format: 'html' })
  expect(bad.status).toBe(400)
  expect(bad.body).toEqual({ error: { code: 400, message: 'format: must be one of: document, markdown' } })
}

describe('format=document on page reads', () => {
  it('a page of a change request, of the space, of a revision (by id and by path)', async () => {
    await checkFormats(
      `/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pages.Guide}`,
      (b) => b.document,
      (b) => b.markdown
    )
    expect((await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`)).body.result).toBe('merge')
    await checkFormats(
      `/v1/spaces/${spaceId}/content/page/${pages.Guide}`,
      (b) => b.document,
      (b) => b.markdown
    )
    const revision = (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.revision
    await checkFormats(
      `/v1/spaces/${spaceId}/revisions/${revision}/page/${pages.Guide}`,
      (b) => b.document,
      (b) => b.markdown
    )
    await checkFormats(
      `/v1/spaces/${spaceId}/revisions/${revision}/path/guide`,
      (b) => b.document,
      (b) => b.markdown
    )
  })

  it('an include names its reusable content by id in the model', async () => {
    const path = `/v1/spaces/${spaceId}/change-requests/${cr}/content`
    const made = await t.owner.api.post(path, {
      changes: [{ operation: 'insert_reusable_content', title: 'Intro', document: { markdown: 'Shared.\n' } }]
    })
    expect(made.status).toBe(200)
    const content = (await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)).body.reusableContents[0]
    await t.owner.api.post(path, {
      changes: [{ operation: 'update_page', page: pages.Guide, document: { markdown: '{% include ".gitbook/includes/intro.md" %}\n' } }]
    })
    const page = (await t.owner.api.get(`${path}/page/${pages.Guide}`, { format: 'document' })).body
    expect(schemaViolations('JSONDocument', page.document)).toEqual([])
    expect(page.document.nodes).toEqual([
      { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: content.id } } }
    ])
  })
})

describe('format=document on comments and replies', () => {
  it('answers the body as the model on every comment and reply read, and on a posted reply', async () => {
    const comments = `/v1/spaces/${spaceId}/comments`
    const comment = (await t.owner.api.post(comments, { body: { markdown: MARKDOWN } })).body
    const replies = `${comments}/${comment.id}/replies`
    await checkFormats(
      `${comments}/${comment.id}`,
      (b) => b.body.document,
      (b) => b.body.markdown
    )
    await checkFormats(
      comments,
      (b) => b.items[0].body.document,
      (b) => b.items[0].body.markdown
    )
    const posted = await t.owner.api.post(`${replies}?format=document`, { body: { markdown: MARKDOWN } })
    expect(posted.status).toBe(200)
    expectModel(posted.body.body.document)
    await checkFormats(
      `${replies}/${posted.body.id}`,
      (b) => b.body.document,
      (b) => b.body.markdown
    )
    await checkFormats(
      replies,
      (b) => b.items[0].body.document,
      (b) => b.items[0].body.markdown
    )
  })
})

describe('the content batch takes a document model', () => {
  const model = {
    object: 'document',
    data: {},
    nodes: [
      {
        object: 'block',
        type: 'heading-1',
        data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'From a model', marks: [] }] }]
      },
      {
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [
          {
            object: 'text',
            leaves: [
              { object: 'leaf', text: 'Bold', marks: [{ object: 'mark', type: 'bold' }] },
              { object: 'leaf', text: ' text.', marks: [] }
            ]
          }
        ]
      },
      {
        object: 'block',
        type: 'list-tasks',
        data: {},
        nodes: [
          {
            object: 'block',
            type: 'list-item',
            data: { checked: true },
            nodes: [
              {
                object: 'block',
                type: 'paragraph',
                data: {},
                nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'done', marks: [] }] }]
              }
            ]
          }
        ]
      }
    ]
  }

  it('inserts and updates pages from a model, read back as markdown and as the same model', async () => {
    const path = `/v1/spaces/${spaceId}/change-requests/${cr}/content`
    const res = await t.owner.api.post(path, {
      changes: [
        { operation: 'insert_page', document: { document: model } },
        { operation: 'update_page', page: pages.Guide, document: { document: model } }
      ]
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const tree = (await t.owner.api.get(`${path}/pages`)).body.pages
    // The title comes from the document's first heading, as for markdown.
    expect(tree.map((p: any) => p.title)).toEqual(['Guide', 'From a model'])
    for (const page of tree) {
      const read = await t.owner.api.get(`${path}/page/${page.id}`)
      expect(read.body.markdown).toBe('# From a model\n\n**Bold** text.\n\n- [x] done\n')
      expect((await t.owner.api.get(`${path}/page/${page.id}`, { format: 'document' })).body.document).toEqual(model)
    }
  })

  it('refuses a document that is not a model, and changes nothing', async () => {
    const path = `/v1/spaces/${spaceId}/change-requests/${cr}/content`
    const before = (await t.owner.api.get(`${path}/page/${pages.Guide}`)).body.markdown
    for (const document of [
      { document: { object: 'page', nodes: [] } },
      { document: { object: 'document', nodes: [{ object: 'text' }] } },
      {}
    ]) {
      const res = await t.owner.api.post(path, { changes: [{ operation: 'update_page', page: pages.Guide, document }] })
      expect(res.status, JSON.stringify(document)).toBe(400)
      expect(res.body.error.message).toMatch(/^changes\.0/)
    }
    expect((await t.owner.api.get(`${path}/page/${pages.Guide}`)).body.markdown).toBe(before)
  })

  it('a page written as a model keeps its front matter (its settings)', async () => {
    const path = `/v1/spaces/${spaceId}/change-requests/${cr}/content`
    const settings = '---\ndescription: Kept\nlayout:\n  title:\n    visible: false\n---\n'
    await t.owner.api.post(path, {
      changes: [{ operation: 'update_page', page: pages.Guide, document: { markdown: `${settings}\n# Old\n` } }]
    })
    const res = await t.owner.api.post(path, { changes: [{ operation: 'update_page', page: pages.Guide, document: { document: model } }] })
    expect(res.status).toBe(200)
    const page = (await t.owner.api.get(`${path}/page/${pages.Guide}`)).body
    expect(page.markdown).toBe(`${settings}\n# From a model\n\n**Bold** text.\n\n- [x] done\n`)
    expect(page.description).toBe('Kept')
    expect(page.layout.title).toBe(false)
  })
})
