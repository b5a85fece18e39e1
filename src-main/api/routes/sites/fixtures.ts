// Test-only factories and shape checks for the sites area.
import { SignJWT } from 'jose'
import { expect } from 'vitest'
import { createInitialRevision } from '../../../content/revisions'
import { visitorClaimsKey } from '../../../preview/visitor'
import { repository } from '../../../storage/repositories/memo'
import { spaceRepository } from '../../../storage/repositories/spaceRepository'
import type { Client, TestServer } from '../../../testing/harness'

export const sitesPath = (t: TestServer) => `/v1/orgs/${t.orgId}/sites`
export const sitePath = (t: TestServer, siteId: string) => `/v1/orgs/${t.orgId}/sites/${siteId}`

export async function createSpace(t: TestServer, title = 'Space', options: { api?: Client; empty?: boolean } = {}) {
  const res = await (options.api ?? t.owner.api).post(`/v1/orgs/${t.orgId}/spaces`, { title, empty: options.empty })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; title: string; revision: string }
}

export async function createSite(t: TestServer, body: Record<string, unknown> = {}, api: Client = t.owner.api) {
  const res = await api.post(sitesPath(t), { title: 'Docs', ...body })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; title: string; siteSpaces: number; visibility: string; urls: { published: string } }
}

export async function addSiteSpace(t: TestServer, siteId: string, spaceId: string, sectionId?: string) {
  const res = await t.owner.api.post(`${sitePath(t, siteId)}/site-spaces`, { spaceId, sectionId })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; path: string; default: boolean; section?: string; urls: { published: string } }
}

export async function addSection(t: TestServer, siteId: string, body: Record<string, unknown>) {
  const res = await t.owner.api.post(`${sitePath(t, siteId)}/sections`, body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; path: string; default: boolean; siteSpaces: { id: string; path: string }[]; urls: { published: string } }
}

export async function publish(t: TestServer, siteId: string) {
  const res = await t.owner.api.post(`${sitePath(t, siteId)}/publish`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

/** Replaces a space's primary content with these root pages (written as the content engine writes revisions). */
export function setPages(t: TestServer, spaceId: string, pages: { title: string; markdown: string }[]) {
  const { services } = t.server.api
  const revision = services.db.transaction(() => {
    const id = createInitialRevision(services.db, spaceId, pages, t.owner.user.id, t.clock.now().toISOString())
    repository(services.db, spaceRepository).update(spaceId, { revision_id: id })
    return id
  })()
  services.writes++
  return revision
}

/**
 * A visitor JWT as a visitor-auth backend of the organization would issue: signed with the organization's
 * visitor-claims key, naming it in `org` (claims may add `site`, or name another `org`).
 */
export async function visitorToken(t: TestServer, claims: Record<string, unknown>, ttlSeconds = 3600, orgId = t.orgId) {
  const iat = Math.floor(t.clock.now().getTime() / 1000)
  return new SignJWT({ org: orgId, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(visitorClaimsKey(t.server.api.services.db, orgId))
}

/** GET on the local preview (no API token). */
export async function preview(t: TestServer, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, t.url), { headers, redirect: 'manual' })
  return { status: res.status, html: await res.text(), headers: res.headers }
}

export function expectSite(site: any) {
  expect(site).toMatchObject({
    object: 'site',
    id: expect.any(String),
    type: expect.any(String),
    title: expect.any(String),
    visibility: expect.stringMatching(/^(public|unlisted|share-link|visitor-auth)$/),
    published: expect.any(Boolean),
    siteSpaces: expect.any(Number),
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    adaptiveContent: { enabled: expect.any(Boolean) },
    urls: {
      location: expect.stringMatching(new RegExp(`/v1/orgs/[^/]+/sites/${site.id}$`)),
      app: expect.stringContaining(site.id),
      preview: expect.stringContaining(`/preview/sites/${site.id}/`)
    }
  })
  // The published document defines `urls.published` only while the site is published.
  if (site.published) expect(site.urls.published).toContain(`/preview/sites/${site.id}/`)
  else expect(site.urls).not.toHaveProperty('published')
}

export function expectSiteSpace(siteSpace: any) {
  expect(siteSpace).toMatchObject({
    object: 'site-space',
    id: expect.any(String),
    path: expect.any(String),
    title: expect.any(String),
    default: expect.any(Boolean),
    urls: { published: expect.stringContaining('/preview/sites/') }
  })
}

export function expectSection(section: any) {
  expect(section).toMatchObject({
    object: 'site-section',
    id: expect.any(String),
    title: expect.any(String),
    default: expect.any(Boolean),
    path: expect.any(String),
    siteSpaces: expect.any(Array),
    urls: { published: expect.stringContaining('/preview/sites/') }
  })
  section.siteSpaces.forEach(expectSiteSpace)
}

/** Sends each body and expects a 400 envelope whose message contains the given text; returns how many ran. */
export async function expectInvalid(api: Client, method: string, path: string, cases: [unknown, string][]) {
  for (const [body, message] of cases) {
    const res = await api.request(method, path, body)
    expect(res.status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).toBe(400)
    expect(res.body.error.code).toBe(400)
    expect(res.body.error.message, JSON.stringify(body)).toContain(message)
  }
  return cases.length
}
