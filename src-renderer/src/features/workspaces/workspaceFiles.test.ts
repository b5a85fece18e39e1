import { describe, expect, it } from 'vitest'
import { problemAdvice, problemLabel, workspaceNameFromFile } from './workspaceFiles.ts'

describe('workspaceNameFromFile', () => {
  it('names a workspace after its file, without the extension and a backup’s date', () => {
    expect(workspaceNameFromFile('product-handbook-2026-03-01.quire.db')).toBe('Product handbook')
    expect(workspaceNameFromFile('team_docs.db')).toBe('Team docs')
    expect(workspaceNameFromFile('C:\\backups\\Local-2025-12-31.quire.db')).toBe('Local')
    expect(workspaceNameFromFile('notes.sqlite3')).toBe('Notes')
    expect(workspaceNameFromFile('quire.db')).toBe('Quire')
    expect(workspaceNameFromFile(`${'x'.repeat(80)}.db`)).toHaveLength(64)
  })
})

describe('problems', () => {
  it('labels a problem and says what to do about it', () => {
    expect(problemLabel({ kind: 'newer' })).toBe('Newer version')
    expect(problemLabel({ kind: 'damaged' })).toBe('Damaged')
    expect(problemLabel({ kind: 'failed' })).toBe('Cannot open')
    expect(problemAdvice({ kind: 'newer' })).toMatch(/newer version of Quire and is left as it is/)
    expect(problemAdvice({ kind: 'damaged' })).toBe('Restore it from a backup with “Open workspace file…”, or remove it.')
  })
})
