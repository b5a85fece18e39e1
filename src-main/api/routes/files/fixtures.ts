// Test-only helpers shared by the files, import and PDF tests.
import { crc32, deflateSync } from 'node:zlib'
import { expect } from 'vitest'
import type { Client, TestServer } from '../../../testing/harness'

/** A real RGB PNG of `width` x `height` (every pixel a shade of red), built byte by byte. */
export function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc32(body), body.length + 4)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit, truecolor, deflate, filter method 0, no interlace
  const rows = Buffer.alloc(height * (1 + width * 3))
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.set([200, (x * 40) % 256, (y * 40) % 256], y * (1 + width * 3) + 1 + x * 3)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0))
  ])
}

export const createSpace = async (t: TestServer, title = 'Docs') => {
  const res = await t.owner.api.post(`/v1/orgs/${t.orgId}/spaces`, { title, empty: true })
  expect(res.status).toBe(201)
  return res.body.id as string
}

export const openChangeRequest = async (api: Client, spaceId: string, subject = 'Edit') => {
  const res = await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject })
  expect(res.status).toBe(201)
  return res.body as { id: string; number: number; revision: string }
}

/** Applies one content batch to a change request; fails the test unless it applies. */
export const applyBatch = async (api: Client, spaceId: string, crId: string, changes: unknown[]) => {
  const res = await api.post(`/v1/spaces/${spaceId}/change-requests/${crId}/content`, { changes })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

/** Puts `changes` into the primary content through a merged change request. */
export async function seedContent(t: TestServer, spaceId: string, changes: unknown[]) {
  const cr = await openChangeRequest(t.owner.api, spaceId, 'Seed')
  await applyBatch(t.owner.api, spaceId, cr.id, changes)
  const merged = await t.owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)
  expect(merged.body.result).toBe('merge')
  return cr
}

/** Every page of a (nested) page list, depth first, in order. */
export function flattenPages<T extends { pages?: T[] }>(pages: T[]): T[] {
  return pages.flatMap((p) => [p, ...flattenPages(p.pages ?? [])])
}

/** GETs an absolute URL (a downloadURL, a PDF url) with an optional bearer token; the body as bytes. */
export async function download(url: string, token?: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } })
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }
}

/** The same URL without its `token` query parameter. */
export function withoutToken(url: string): string {
  const u = new URL(url)
  u.searchParams.delete('token')
  return u.toString()
}
