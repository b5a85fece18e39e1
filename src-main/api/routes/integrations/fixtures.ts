// Test-only: publish bodies and images for the integration tests.
import { expect } from 'vitest'
import type { Client, TestServer } from '../../../testing/harness'

/** A 1x1 PNG. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8"/></svg>').toString(
  'base64'
)

export function manifest(organization: string, overrides: Record<string, unknown> = {}) {
  return {
    title: 'Slack',
    description: 'Notifications in your channels',
    script: 'export default {}',
    organization,
    visibility: 'public',
    ...overrides
  }
}

export async function publish(api: Client, name: string, body: Record<string, unknown>) {
  const res = await api.post(`/v1/integrations/${name}`, body)
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200)
  return res.body
}

/** A user who administers an organization of their own (and is no member of the bootstrap one). */
export async function otherAdmin(t: TestServer) {
  const user = await t.user({ role: 'none' })
  const org = await user.api.post('/v1/orgs', { title: 'Vendor Inc' })
  expect(org.status).toBe(201)
  return { ...user, orgId: org.body.id as string }
}
