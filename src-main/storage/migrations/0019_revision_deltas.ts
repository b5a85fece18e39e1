import type { Db } from '../database'

// Revisions share what they did not change (docs/architecture.md, "Revision storage"): a revision's rows are a
// whole snapshot or a delta over its base, tombstones (`removed`) marking entries the delta drops.
export const sql = /* sql */ `
ALTER TABLE revision_pages ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE revision_files ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE revision_reusable_contents ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
CREATE TABLE revision_bases (
  revision_id TEXT PRIMARY KEY REFERENCES revisions(id) ON DELETE CASCADE,
  base_id TEXT,                     -- NULL: the revision's rows are a whole snapshot; else a delta over this revision
  snapshot_rows INTEGER NOT NULL,   -- rows of the snapshot the chain starts from
  delta_rows INTEGER NOT NULL       -- rows of the chain's deltas from that snapshot up to this revision
) WITHOUT ROWID;
CREATE INDEX revision_bases_base ON revision_bases(base_id) WHERE base_id IS NOT NULL;
`

interface Table {
  name: string
  key: string
  columns: string[]
}
// The layout of schema 19, spelled out here: this migration must keep converting as it does when the code moves on.
const TABLES: Table[] = [
  {
    name: 'revision_pages',
    key: 'page_id',
    columns: [
      'parent_page_id',
      'position',
      'type',
      'title',
      'emoji',
      'slug',
      'description',
      'document_id',
      'document_hash',
      'hidden',
      'props',
      'created_at',
      'updated_at'
    ]
  },
  { name: 'revision_files', key: 'file_id', columns: ['name', 'content_type', 'blob_hash', 'size', 'width', 'height', 'git'] },
  { name: 'revision_reusable_contents', key: 'content_id', columns: ['title', 'document_hash', 'git'] }
]

/**
 * Every revision was a whole copy. Each one whose first parent is in its space becomes a delta over that parent
 * (the policy `writeRevision` follows: a snapshot again once the chain's delta rows reach its snapshot's size).
 * The plan is made oldest first (a chain's counts come from its base); rows are rewritten newest first, so the
 * parent a delta is computed against is still whole.
 */
export function run(db: Db): void {
  const same = (c: string) => `r.${c} IS p.${c}`
  const q = TABLES.map((t) => ({
    size: db.prepare<[string], number>(`SELECT count(*) FROM ${t.name} WHERE revision_id = ?`).pluck(),
    // Entries of the revision its parent does not hold as they are, and entries of the parent it dropped.
    changed: db
      .prepare<{ rev: string; base: string }, number>(
        `SELECT (SELECT count(*) FROM ${t.name} r WHERE r.revision_id = @rev AND NOT EXISTS (
                 SELECT 1 FROM ${t.name} p WHERE p.revision_id = @base AND p.${t.key} = r.${t.key} AND ${t.columns.map(same).join(' AND ')}))
            + (SELECT count(*) FROM ${t.name} p WHERE p.revision_id = @base AND NOT EXISTS (
                 SELECT 1 FROM ${t.name} r WHERE r.revision_id = @rev AND r.${t.key} = p.${t.key}))`
      )
      .pluck(),
    tombstones: db.prepare(
      `INSERT INTO ${t.name} (revision_id, ${t.key}, ${t.columns.join(', ')}, removed)
       SELECT @rev, ${t.key}, ${t.columns.join(', ')}, 1 FROM ${t.name} p WHERE p.revision_id = @base AND NOT EXISTS (
         SELECT 1 FROM ${t.name} r WHERE r.revision_id = @rev AND r.${t.key} = p.${t.key})`
    ),
    dropUnchanged: db.prepare(
      `DELETE FROM ${t.name} AS r WHERE r.revision_id = @rev AND r.removed = 0 AND EXISTS (
         SELECT 1 FROM ${t.name} p WHERE p.revision_id = @base AND p.${t.key} = r.${t.key} AND ${t.columns.map(same).join(' AND ')})`
    )
  }))
  const revisions = db
    .prepare<[], { id: string; space_id: string; parents: string }>('SELECT id, space_id, parents FROM revisions ORDER BY seq')
    .all()
  const spaceOf = new Map<string, string>()
  const plan = new Map<string, { base: string | null; snapshotRows: number; deltaRows: number }>()
  for (const r of revisions) {
    spaceOf.set(r.id, r.space_id)
    const parent = (JSON.parse(r.parents) as string[])[0]
    const basePlan = parent && spaceOf.get(parent) === r.space_id ? plan.get(parent) : undefined
    if (basePlan) {
      const deltaRows = basePlan.deltaRows + q.reduce((n, t) => n + t.changed.get({ rev: r.id, base: parent! })!, 0)
      if (deltaRows < basePlan.snapshotRows) {
        plan.set(r.id, { base: parent!, snapshotRows: basePlan.snapshotRows, deltaRows })
        continue
      }
    }
    plan.set(r.id, { base: null, snapshotRows: q.reduce((n, t) => n + t.size.get(r.id)!, 0), deltaRows: 0 })
  }
  const insertBase = db.prepare('INSERT INTO revision_bases (revision_id, base_id, snapshot_rows, delta_rows) VALUES (?, ?, ?, ?)')
  for (const r of [...revisions].reverse()) {
    const p = plan.get(r.id)!
    if (p.base) {
      for (const t of q) {
        t.tombstones.run({ rev: r.id, base: p.base })
        t.dropUnchanged.run({ rev: r.id, base: p.base })
      }
    }
    insertBase.run(r.id, p.base, p.snapshotRows, p.deltaRows)
  }
}
