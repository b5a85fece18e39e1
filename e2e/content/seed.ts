// Content the content specs start from, written through the API as a client would.
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test'

export interface TreePage {
  id: string
  title: string
  pages: TreePage[]
}

export async function json<T>(res: Promise<APIResponse>): Promise<T> {
  const r = await res
  expect(r.ok(), `${r.url()} answered ${r.status()}: ${await r.text()}`).toBe(true)
  return (await r.json()) as T
}

export const orgIdOf = async (api: APIRequestContext) => (await json<{ items: { id: string }[] }>(api.get('/v1/orgs'))).items[0]!.id

/**
 * A space whose main content already has `titles` as top-level pages (written through a merged change request);
 * `markdown` gives a page's text (by default a heading and one line).
 */
export async function spaceWithPages(
  api: APIRequestContext,
  title: string,
  titles: string[],
  markdown = (t: string) => `# ${t}\n\nAbout ${t}.\n`
): Promise<{ spaceId: string; pages: TreePage[] }> {
  const orgId = await orgIdOf(api)
  const space = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/spaces`, { data: { title, empty: true } }))
  const cr = await json<{ number: number }>(api.post(`/v1/spaces/${space.id}/change-requests`, { data: { subject: 'Seed' } }))
  const changes = titles.map((t) => ({ operation: 'insert_page', title: t, document: { markdown: markdown(t) } }))
  await json(api.post(`/v1/spaces/${space.id}/change-requests/${cr.number}/content`, { data: { changes } }))
  await json(api.post(`/v1/spaces/${space.id}/change-requests/${cr.number}/merge`))
  const { pages } = await json<{ pages: TreePage[] }>(api.get(`/v1/spaces/${space.id}/content/pages`))
  return { spaceId: space.id, pages }
}
