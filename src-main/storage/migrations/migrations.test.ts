import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { loadFiles, loadPages, loadReusableContents } from '../../content/revisions'
import { documentLinks, documentSections, hashDocument, readDocument, readDocuments } from '../../content/documents'
import { openDatabase } from '../database'
import { siteShareLinkRepository } from '../repositories/siteShareLinkRepository'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('migration 14: documents with block tags are read again', () => {
  it('drops the stored sections of documents holding a tag, and the search state of spaces showing one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-migration-'))
    dirs.push(dir)
    const file = join(dir, 'quire.db')
    // As a workspace from before the migration holds them: the tag lines stored as text of the section, and both
    // documents' spaces indexed.
    let db = openDatabase({ file, migrateTo: 13 })
    const tagged = hashDocument('{% hint %}\nHello\n{% endhint %}\n')
    const plain = hashDocument('Plain text.\n')
    db.prepare('INSERT INTO documents (hash, markdown) VALUES (?, ?), (?, ?)').run(
      tagged,
      '{% hint %}\nHello\n{% endhint %}\n',
      plain,
      'Plain text.\n'
    )
    db.prepare(
      "INSERT INTO document_sections (document_hash, position, section_id, title, body) VALUES (?, 0, '', '', '{% hint %} Hello {% endhint %}'), (?, 0, '', '', 'Plain text.')"
    ).run(tagged, plain)
    // Rows that name spaces and revisions this bare database does not hold: only the migration's joins matter here.
    db.pragma('foreign_keys = OFF')
    db.exec("INSERT INTO search_state (space_id, revision_id) VALUES ('space-a', 'rev-a'), ('space-b', 'rev-b')")
    db.prepare(
      "INSERT INTO revision_pages (revision_id, page_id, position, title, slug, document_hash, created_at, updated_at) VALUES ('rev-a', 'p1', 0, 'A', 'a', ?, '', ''), ('rev-b', 'p2', 0, 'B', 'b', ?, '', '')"
    ).run(tagged, plain)
    db.close()

    db = openDatabase({ file, migrateTo: 14 })
    expect(db.prepare('SELECT document_hash FROM document_sections').pluck().all()).toEqual([plain])
    expect(db.prepare('SELECT space_id FROM search_state').pluck().all()).toEqual(['space-b'])
    db.close()
    // Split anew when next read, with the tag's text only.
    db = openDatabase({ file })
    expect(documentSections(db, [tagged, plain])).toEqual(
      new Map([
        [tagged, [{ id: '', title: '', body: 'Hello' }]],
        [plain, [{ id: '', title: '', body: 'Plain text.' }]]
      ])
    )
    db.close()
  })
})

describe('migration 17: share-link keys are stored hashed', () => {
  it('replaces plaintext keys by their SHA-256, which still admit the keys, and leaves no plaintext in the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-migration-'))
    dirs.push(dir)
    const file = join(dir, 'quire.db')
    // Enough links to split the table's first page: the space the moved rows left keeps their keys until it is zeroed.
    const keys = Array.from({ length: 60 }, (_, i) => `Plaintext-share-key-${String(i).padStart(4, '0')}-abcdefghijklm`)
    let db = openDatabase({ file })
    // As a workspace from before the migration holds them: the keys themselves, in the column named key.
    db.exec('ALTER TABLE site_share_links RENAME COLUMN key_hash TO key')
    db.pragma('foreign_keys = OFF')
    db.exec("INSERT INTO sites (id, organization_id, title, created_at, updated_at) VALUES ('site-1', 'org-1', 'Docs', '', '')")
    const insert = db.prepare(
      "INSERT INTO site_share_links (id, site_id, name, key, active, created_at) VALUES (?, 'site-1', 'Partners', ?, 1, '')"
    )
    keys.forEach((key, i) => insert.run(`link-${i}`, key))
    db.prepare('DELETE FROM schema_migrations WHERE version = 17').run()
    db.close()
    expect(keys.every((key) => readFileSync(file).includes(key))).toBe(true)

    db = openDatabase({ file })
    const rows = db.prepare('SELECT * FROM site_share_links ORDER BY seq').all() as { id: string; key_hash: string }[]
    expect(rows.map((r) => r.key_hash)).toEqual(keys.map((key) => createHash('sha256').update(key).digest('hex')))
    expect(Object.keys(rows[0]!)).not.toContain('key')
    const links = siteShareLinkRepository(db)
    keys.forEach((key, i) => expect(links.activeOfSite('site-1', key)?.id).toBe(`link-${i}`))
    expect(links.activeOfSite('site-1', 'another key')).toBeUndefined()
    db.close()
    // Nor anywhere in the file: the old table's pages were zeroed when it was dropped.
    expect(existsSync(`${file}-wal`)).toBe(false)
    const bytes = readFileSync(file)
    expect(keys.filter((key) => bytes.includes(key))).toEqual([])
  })
})

describe('migration 18: text in every language', () => {
  it('drops the stored sections of documents with headings beyond ASCII and forgets every indexed revision', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-migration-'))
    dirs.push(dir)
    const file = join(dir, 'quire.db')
    // As a workspace from before the migration holds them: anchors of ASCII letters only.
    let db = openDatabase({ file, migrateTo: 17 })
    const accentedText = '# Intro\n\n## Café crème\n\nText.\n'
    const accented = hashDocument(accentedText)
    const plain = hashDocument('## Plain\n\nText.\n')
    db.prepare('INSERT INTO documents (hash, markdown) VALUES (?, ?), (?, ?)').run(accented, accentedText, plain, '## Plain\n\nText.\n')
    db.prepare(
      `INSERT INTO document_sections (document_hash, position, section_id, title, body) VALUES
       (?, 0, 'intro', 'Intro', ''), (?, 1, 'cafe-creme', 'Café crème', 'Text.'), (?, 0, 'plain', 'Plain', 'Text.')`
    ).run(accented, accented, plain)
    db.pragma('foreign_keys = OFF')
    db.exec("INSERT INTO search_state (space_id, revision_id) VALUES ('space-a', 'rev-a'), ('space-b', 'rev-b')")
    db.close()

    db = openDatabase({ file, migrateTo: 18 })
    expect(db.prepare('SELECT DISTINCT document_hash FROM document_sections').pluck().all()).toEqual([plain])
    expect(db.prepare('SELECT count(*) FROM search_state').pluck().get()).toBe(0)
    db.close()
    // Split anew when next read, with the anchors the editor's preview gives the headings.
    db = openDatabase({ file })
    expect(
      documentSections(db, [accented])
        .get(accented)!
        .map((x) => x.id)
    ).toEqual(['intro', 'café-crème'])
    db.close()
  })
})

describe('migration 19: revisions store what they changed', () => {
  it('converts a workspace of whole-copy revisions in place: every revision reads back what it held, with fewer rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-migration-'))
    dirs.push(dir)
    const file = join(dir, 'quire.db')
    const fixture = join(import.meta.dirname, '../../../test/fixtures')
    copyFileSync(join(fixture, 'workspace-v17.quire'), file)
    const expected = JSON.parse(readFileSync(join(fixture, 'workspace-v17.json'), 'utf8')) as Record<string, unknown>
    const rowsBefore = (() => {
      const old = new Database(file, { readonly: true })
      const n = old
        .prepare<[], number>('SELECT (SELECT count(*) FROM revision_pages) + (SELECT count(*) FROM revision_files)')
        .pluck()
        .get()!
      old.close()
      return n
    })()

    const db = openDatabase({ file })
    const ids = db.prepare<[], string>('SELECT id FROM revisions ORDER BY seq').pluck().all()
    expect(ids).toEqual(Object.keys(expected))
    for (const id of ids) {
      const read = JSON.parse(
        JSON.stringify({ pages: loadPages(db, id), files: loadFiles(db, id), reusableContents: loadReusableContents(db, id) })
      )
      expect(read, id).toEqual(expected[id])
    }
    // Deltas, not copies (in spaces of a few pages, a snapshot comes back every few revisions): fewer rows than before.
    expect(db.prepare('SELECT count(*) FROM revision_bases WHERE base_id IS NOT NULL').pluck().get()).toBeGreaterThanOrEqual(6)
    const rowsAfter = db
      .prepare<[], number>('SELECT (SELECT count(*) FROM revision_pages) + (SELECT count(*) FROM revision_files)')
      .pluck()
      .get()!
    expect(rowsAfter).toBeLessThan(rowsBefore * 0.75)
    expect(db.pragma('foreign_key_check')).toEqual([])
    db.close()
  })
})

describe('migration 21: text stored once', () => {
  it('packs every document with its sections and links, losing nothing, and drops the copies', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-migration-'))
    dirs.push(dir)
    const file = join(dir, 'quire.db')
    let db = openDatabase({ file, migrateTo: 20 })
    const long = `# Guide\n\n${'Install the tool, then configure it. Größe 文档. '.repeat(40)}\n\n## Links\n\nSee [the site](https://example.com/a) and ![logo](logo.png).\n`
    const short = 'Hi.\n'
    const unsplit = '## Never split\n\nText.\n'
    const [hLong, hShort, hUnsplit] = [long, short, unsplit].map(hashDocument)
    const insertDoc = db.prepare('INSERT INTO documents (hash, markdown) VALUES (?, ?)')
    for (const [hash, markdown] of [
      [hLong, long],
      [hShort, short],
      [hUnsplit, unsplit]
    ])
      insertDoc.run(hash, markdown)
    // Sections as an older split stored them (not what parsing gives today): the migration keeps them as they are.
    const stored = [
      { id: 'guide', title: 'Guide', body: 'Stored body of the guide.' },
      { id: 'links', title: 'Links', body: 'See the site and logo.' }
    ]
    const insertSection = db.prepare(
      'INSERT INTO document_sections (document_hash, position, section_id, title, body) VALUES (?, ?, ?, ?, ?)'
    )
    stored.forEach((x, i) => insertSection.run(hLong, i, x.id, x.title, x.body))
    insertSection.run(hShort, 0, '', '', 'Hi.')
    db.prepare(
      "INSERT INTO document_links (document_hash, position, kind, target) VALUES (?, 0, 'link', 'https://example.com/a'), (?, 1, 'image', 'logo.png')"
    ).run(hLong, hLong)
    db.close()

    db = openDatabase({ file })
    expect(readDocuments(db, [hLong, hShort, hUnsplit])).toEqual(
      new Map([
        [hLong, long],
        [hShort, short],
        [hUnsplit, unsplit]
      ])
    )
    expect(readDocument(db, hLong)).toBe(long)
    const kinds = db
      .prepare<[], { hash: string; markdown: string; sections: string | null }>(
        'SELECT hash, typeof(markdown) AS markdown, typeof(sections) AS sections FROM documents'
      )
      .all()
    // Deflated where that is smaller; a document never split has no sections until it is read.
    expect(new Map(kinds.map((k) => [k.hash, [k.markdown, k.sections]]))).toEqual(
      new Map([
        [hLong, ['blob', 'blob']],
        [hShort, ['text', 'blob']],
        [hUnsplit, ['text', 'null']]
      ])
    )
    expect(documentSections(db, [hLong, hShort, hUnsplit])).toEqual(
      new Map([
        [hLong, stored],
        [hShort, [{ id: '', title: '', body: 'Hi.' }]],
        [hUnsplit, [{ id: 'never-split', title: 'Never split', body: 'Text.' }]]
      ])
    )
    expect(db.prepare('SELECT typeof(sections) FROM documents WHERE hash = ?').pluck().get(hUnsplit)).toBe('blob')
    expect(documentLinks(db, [hLong, hShort])).toEqual(
      new Map([
        [
          hLong,
          [
            { relation: 'link', url: 'https://example.com/a' },
            { relation: 'image', url: 'logo.png' }
          ]
        ]
      ])
    )
    expect(
      db.prepare("SELECT name FROM sqlite_schema WHERE name IN ('document_sections', 'document_links', 'search_sections_content')").all()
    ).toEqual([])
    // The long document's text is stored deflated, not as written.
    expect(db.prepare("SELECT count(*) FROM documents WHERE instr(markdown, CAST('Install the tool' AS BLOB)) > 0").pluck().get()).toBe(0)
    db.close()
  })
})
