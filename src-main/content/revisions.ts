import { createHash } from 'node:crypto'
import type { Db } from '../storage/database'
import { newId } from '../storage/ids'

/** Page documents are stored once by content hash: revisions that did not change a page share its row. */
export function storeDocument(db: Db, markdown: string): string {
  const hash = createHash('sha256').update(markdown).digest('hex')
  db.prepare('INSERT OR IGNORE INTO documents (hash, markdown) VALUES (?, ?)').run(hash, markdown)
  return hash
}

export interface InitialPage {
  title: string
  markdown: string
}

/** A space's first revision: empty, or with the given pages at its root. Returns the revision id. */
export function createInitialRevision(db: Db, spaceId: string, pages: InitialPage[], userId: string, now: string): string {
  const revisionId = newId()
  db.prepare("INSERT INTO revisions (id, space_id, parents, type, created_by, created_at) VALUES (?, ?, '[]', 'edits', ?, ?)").run(
    revisionId, spaceId, userId, now
  )
  const insertPage = db.prepare(
    `INSERT INTO revision_pages (revision_id, page_id, parent_page_id, position, type, title, slug, document_id, document_hash, created_at, updated_at)
     VALUES (?, ?, NULL, ?, 'document', ?, ?, ?, ?, ?, ?)`
  )
  pages.forEach((page, i) => {
    insertPage.run(revisionId, newId(), i, page.title, slugify(page.title) || `page-${i + 1}`, newId(), storeDocument(db, page.markdown), now, now)
  })
  return revisionId
}

/**
 * Copies a revision's page tree into a new first revision of another space (space duplicate). Documents are
 * shared by hash, so this copies rows, not content.
 */
export function copyRevision(db: Db, fromRevisionId: string, toSpaceId: string, userId: string, now: string): string {
  const revisionId = newId()
  db.prepare("INSERT INTO revisions (id, space_id, parents, type, created_by, created_at) VALUES (?, ?, '[]', 'edits', ?, ?)").run(
    revisionId, toSpaceId, userId, now
  )
  db.prepare(
    `INSERT INTO revision_pages (revision_id, page_id, parent_page_id, position, type, title, emoji, slug, description, document_id, document_hash, hidden, props, created_at, updated_at)
     SELECT ?, page_id, parent_page_id, position, type, title, emoji, slug, description, document_id, document_hash, hidden, props, created_at, updated_at
     FROM revision_pages WHERE revision_id = ?`
  ).run(revisionId, fromRevisionId)
  return revisionId
}

export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
}
