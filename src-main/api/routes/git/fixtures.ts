// Test helpers for the Git sync routes: repositories, polling, and reading a space's pages back over HTTP.
import { expect } from 'vitest'
import type { Client, TestServer } from '../../../testing/harness'

/** A docs repository in the hosted service's layout: `.gitbook.yaml` → docs/, README + SUMMARY + 4 nested pages. */
export const DOCS_REPO: Record<string, string> = {
  '.gitbook.yaml': 'root: ./docs/\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
  'package.json': '{ "name": "not-docs" }\n',
  'docs/README.md': '# Welcome\n\nThe introduction of these docs.\n',
  'docs/SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Welcome](README.md)',
    '* [User guide](guide/README.md)',
    '  * [Installing](guide/install.md)',
    '    * [On Linux](guide/linux.md)',
    '* [Questions](faq.md)',
    ''
  ].join('\n'),
  'docs/guide/README.md': '# Guide\n\nHow to use it.\n',
  'docs/guide/install.md': '---\ndescription: Get it running\n---\n\n# Install\n\nRun the installer.\n',
  'docs/guide/linux.md': '# Linux\n\n```sh\n./install.sh\n```\n',
  'docs/faq.md': '# FAQ\n\n* Is it free? Yes.\n'
}

/** The tree DOCS_REPO imports to: titles from SUMMARY, paths relative to the docs root. */
export const DOCS_TREE = [
  { title: 'Welcome', git: 'README.md', pages: [] },
  {
    title: 'User guide',
    git: 'guide/README.md',
    pages: [{ title: 'Installing', git: 'guide/install.md', pages: [{ title: 'On Linux', git: 'guide/linux.md', pages: [] }] }]
  },
  { title: 'Questions', git: 'faq.md', pages: [] }
]

export interface PageView {
  id: string
  title: string
  type: string
  path: string
  git?: { oid?: string; path?: string }
  markdown: string
  description?: string
  pages: PageView[]
  /** The rest of the Page (layout, cover, hidden...). */
  [field: string]: unknown
}

/** A space's primary page tree with every page's markdown. */
export async function pagesOf(api: Client, spaceId: string): Promise<PageView[]> {
  const res = await api.get(`/v1/spaces/${spaceId}/content/pages`)
  expect(res.status).toBe(200)
  const fill = async (list: any[]): Promise<PageView[]> =>
    Promise.all(
      list.map(async (p) => {
        const page = await api.get(`/v1/spaces/${spaceId}/content/page/${p.id}`)
        return { ...p, markdown: page.body.markdown ?? '', pages: await fill(p.pages) }
      })
    )
  return fill(res.body.pages)
}

/** The tree without ids and oids: what must survive a round trip. */
export const shapeOf = (pages: PageView[]): unknown[] =>
  pages.map((p) => ({
    title: p.title,
    type: p.type,
    path: p.path,
    gitPath: p.git?.path,
    markdown: p.markdown,
    description: p.description,
    pages: shapeOf(p.pages)
  }))

/** Titles and git paths only (compare with DOCS_TREE). */
export const outlineOf = (pages: PageView[]): unknown[] =>
  pages.map((p) => ({ title: p.title, git: p.git?.path, pages: outlineOf(p.pages) }))

export async function newSpace(t: TestServer, title = 'Docs'): Promise<string> {
  const res = await t.owner.api.post(`/v1/orgs/${t.orgId}/spaces`, { title, empty: true })
  expect(res.status).toBe(201)
  return res.body.id
}

const FINISHED = new Set(['succeeded', 'failed', 'skipped'])

/**
 * Polls git/info until the space's queued operations have run (bounded: fails after `withinMs`), and returns
 * the last Git info.
 */
export async function waitForSync(api: Client, spaceId: string, withinMs = 45_000): Promise<any> {
  const deadline = Date.now() + withinMs
  while (Date.now() < deadline) {
    const res = await api.get(`/v1/spaces/${spaceId}/git/info`)
    if (res.status === 200 && FINISHED.has(res.body.status)) return res.body
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`the Git sync of ${spaceId} did not finish within ${withinMs} ms`)
}

/** Starts an operation (expects 204) and waits for it; returns the Git info. */
export async function sync(api: Client, spaceId: string, operation: 'import' | 'export', body: Record<string, unknown>) {
  const res = await api.post(`/v1/spaces/${spaceId}/git/${operation}`, body)
  expect(res.status, JSON.stringify(res.body)).toBe(204)
  return waitForSync(api, spaceId)
}

/** Edits pages through a change request and merges it. */
export async function editThroughChangeRequest(api: Client, spaceId: string, changes: unknown[]) {
  const cr = await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' })
  expect(cr.status).toBe(201)
  const batch = await api.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, { changes })
  expect(batch.status, JSON.stringify(batch.body)).toBe(200)
  const merged = await api.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)
  expect(merged.body.result).toBe('merge')
}

/** A page anywhere in the tree, by title. */
export function findPage(pages: PageView[], title: string): PageView {
  for (const p of pages) {
    if (p.title === title) return p
    const inner = p.pages.length ? findPageOrUndefined(p.pages, title) : undefined
    if (inner) return inner
  }
  throw new Error(`no page ${title}`)
}

function findPageOrUndefined(pages: PageView[], title: string): PageView | undefined {
  try {
    return findPage(pages, title)
  } catch {
    return undefined
  }
}
