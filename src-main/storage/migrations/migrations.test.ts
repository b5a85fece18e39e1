import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { storeDocument } from '../../content/revisions'
import { openDatabase } from '../database'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('migration 14: documents with block tags are read again', () => {
  it('drops the stored sections of documents holding a tag, and the search state of spaces showing one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-migration-'))
    dirs.push(dir)
    const file = join(dir, 'quire.db')
    let db = openDatabase({ file })
    const tagged = storeDocument(db, '{% hint %}\nHello\n{% endhint %}\n')
    const plain = storeDocument(db, 'Plain text.\n')
    // As a workspace from before the migration holds them: the tag lines stored as text of the section, and both
    // documents' spaces indexed.
    db.prepare('DELETE FROM document_sections WHERE document_hash = ?').run(tagged)
    db.prepare("INSERT INTO document_sections (document_hash, position, section_id, title, body) VALUES (?, 0, '', '', '{% hint %} Hello {% endhint %}')").run(tagged)
    // Rows that name spaces and revisions this bare database does not hold: only the migration's joins matter here.
    db.pragma('foreign_keys = OFF')
    db.exec("INSERT INTO search_state (space_id, revision_id) VALUES ('space-a', 'rev-a'), ('space-b', 'rev-b')")
    db.prepare("INSERT INTO revision_pages (revision_id, page_id, position, title, slug, document_hash, created_at, updated_at) VALUES ('rev-a', 'p1', 0, 'A', 'a', ?, '', ''), ('rev-b', 'p2', 0, 'B', 'b', ?, '', '')").run(tagged, plain)
    db.prepare('DELETE FROM schema_migrations WHERE version = 14').run()
    db.close()

    db = openDatabase({ file })
    const sections = db.prepare('SELECT document_hash FROM document_sections').pluck().all()
    expect(sections).toEqual([plain])
    expect(db.prepare('SELECT space_id FROM search_state').pluck().all()).toEqual(['space-b'])
    db.close()
  })
})
