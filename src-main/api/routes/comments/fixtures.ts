// Test-only factories and shape checks for the comments area.
import { expect } from 'vitest'
import type { Client, TestServer } from '../../../testing/harness'

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/

export interface Fixture {
  spaceId: string
  /** Page ids of the primary content by title. */
  pages: Record<string, string>
  commentsPath: string
  commentPath(id: string, rest?: string): string
  post(body: Record<string, unknown>, api?: Client): Promise<any>
  space(): Promise<any>
  changeRequest(ref: string | number): Promise<any>
}

/** A space whose primary content holds `pages` (title → markdown), written through a merged change request. */
export async function commentFixture(
  t: TestServer,
  pages: Record<string, string> = { Guide: '# Guide\n\nFirst words.\n', Intro: 'Hello\n' }
): Promise<Fixture> {
  const spaceId = await t.emptySpace()
  const ids: Record<string, string> = {}
  const titles = Object.keys(pages)
  if (titles.length) {
    const cr = (await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Seed' })).body
    const changes = titles.map((title) => ({ operation: 'insert_page', title, document: { markdown: pages[title] } }))
    expect((await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes })).status).toBe(200)
    expect((await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).body.result).toBe('merge')
    for (const p of (await t.owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages) ids[p.title] = p.id
  }
  const commentsPath = `/v1/spaces/${spaceId}/comments`
  return {
    spaceId,
    pages: ids,
    commentsPath,
    commentPath: (id, rest = '') => `${commentsPath}/${id}${rest}`,
    async post(body, api = t.owner.api) {
      const res = await api.post(commentsPath, body)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return res.body
    },
    space: async () => (await t.owner.api.get(`/v1/spaces/${spaceId}`)).body,
    changeRequest: async (ref) => (await t.owner.api.get(`/v1/spaces/${spaceId}/change-requests/${ref}`)).body
  }
}

export function expectUser(user: any, id: string) {
  expect(user).toMatchObject({ object: 'user', id, displayName: expect.any(String), urls: { location: expect.any(String) } })
}

/** Every field the spec gives a comment, with its type. */
export function expectComment(c: any) {
  expect(c).toMatchObject({
    object: 'comment',
    id: expect.any(String),
    postedBy: { object: 'user', id: expect.any(String) },
    postedAt: expect.stringMatching(ISO),
    reactions: expect.any(Array),
    replies: expect.any(Number),
    body: expect.any(Object),
    target: { space: expect.any(String) },
    urls: { location: expect.stringContaining(`/v1/spaces/${c.target?.space}/comments/${c.id}`) },
    permissions: { view: expect.any(Boolean), edit: expect.any(Boolean), reply: expect.any(Boolean), delete: expect.any(Boolean) }
  })
}

export function expectReply(r: any, spaceId: string, commentId: string) {
  expect(r).toMatchObject({
    object: 'comment-reply',
    id: expect.any(String),
    postedBy: { object: 'user', id: expect.any(String) },
    postedAt: expect.stringMatching(ISO),
    reactions: expect.any(Array),
    body: expect.any(Object),
    urls: { location: expect.stringContaining(`/v1/spaces/${spaceId}/comments/${commentId}/replies/${r.id}`) },
    permissions: { view: expect.any(Boolean), edit: expect.any(Boolean), reply: expect.any(Boolean), delete: expect.any(Boolean) }
  })
  for (const key of ['replies', 'target', 'status']) expect(r).not.toHaveProperty(key)
}
