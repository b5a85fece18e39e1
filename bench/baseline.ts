// The baseline: bare Fastify + better-sqlite3, no Quire layer (no auth, no transaction, no policy, no presenter).
// It answers GET /row/:id with one stored row as JSON, from a table of the same rows and size as Quire's spaces,
// and GET /rows?after=SEQ&limit=N with N rows after a keyset position (the list counterpart).
import { join } from 'node:path'
import Database from 'better-sqlite3'
import Fastify from 'fastify'
import { baselineRow, isSampled, type BaselineRow } from './rows'

export interface RunningBaseline {
  url: string
  sampleIds: string[]
  close(): Promise<void>
}

export async function startBaseline(dir: string, rows: number, sampleSize: number): Promise<RunningBaseline> {
  const db = new Database(join(dir, 'baseline.db'))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.exec(`CREATE TABLE rows (
    seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, organization_id TEXT NOT NULL, parent_id TEXT, title TEXT NOT NULL,
    emoji TEXT NOT NULL, visibility TEXT NOT NULL, edit_mode TEXT NOT NULL, default_level TEXT, position REAL NOT NULL,
    revision_id TEXT, visitor_auth TEXT, git_sync TEXT, comments_open INTEGER NOT NULL, change_requests INTEGER NOT NULL,
    change_requests_open INTEGER NOT NULL, change_requests_draft INTEGER NOT NULL, created_by TEXT, created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL, deleted_at TEXT)`)
  const insert = db.prepare(`INSERT INTO rows (id, organization_id, parent_id, title, emoji, visibility, edit_mode, default_level,
    position, revision_id, visitor_auth, git_sync, comments_open, change_requests, change_requests_open, change_requests_draft,
    created_by, created_at, updated_at, deleted_at) VALUES (@id, @organization_id, @parent_id, @title, @emoji, @visibility,
    @edit_mode, @default_level, @position, @revision_id, @visitor_auth, @git_sync, @comments_open, @change_requests,
    @change_requests_open, @change_requests_draft, @created_by, @created_at, @updated_at, @deleted_at)`)
  const sampleIds: string[] = []
  const now = new Date().toISOString()
  const insertBatch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const row = baselineRow(i, 'org', 'owner', now)
      insert.run(row)
      if (isSampled(i, rows, sampleSize)) sampleIds.push(row.id)
    }
  })
  for (let from = 0; from < rows; from += 10_000) insertBatch(from, Math.min(rows, from + 10_000))

  const byId = db.prepare<[string], BaselineRow>('SELECT * FROM rows WHERE id = ?')
  const page = db.prepare<[number, number], BaselineRow>('SELECT * FROM rows WHERE seq > ? ORDER BY seq LIMIT ?')
  const app = Fastify({ logger: false })
  app.get<{ Params: { id: string } }>('/row/:id', async (req, reply) => {
    const row = byId.get(req.params.id)
    if (!row) return reply.code(404).send({ error: { code: 404, message: 'Row not found' } })
    return row
  })
  app.get<{ Querystring: { after?: string; limit?: string } }>('/rows', async (req) => {
    const limit = Math.min(1000, Number(req.query.limit ?? 100) || 100)
    return { items: page.all(Number(req.query.after ?? 0) || 0, limit) }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    sampleIds,
    async close() {
      await app.close()
      db.close()
    }
  }
}
