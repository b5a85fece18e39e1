import { describe, expect, it } from 'vitest'
import { historyPaths } from './paths.ts'

describe('historyPaths', () => {
  it('builds the history operations’ paths, a page path as one encoded segment', () => {
    expect(historyPaths.revisions('s1')).toBe('/v1/spaces/s1/revisions')
    expect(historyPaths.pages('s1', 'r1')).toBe('/v1/spaces/s1/revisions/r1/pages')
    expect(historyPaths.page('s1', 'r1', 'p1', 'markdown')).toBe('/v1/spaces/s1/revisions/r1/page/p1?format=markdown')
    expect(historyPaths.pageByPath('s1', 'r1', 'guide/install')).toBe('/v1/spaces/s1/revisions/r1/path/guide%2Finstall')
    expect(historyPaths.file('s1', 'r1', 'f1')).toBe('/v1/spaces/s1/revisions/r1/files/f1')
    expect(historyPaths.changes('s1', 'r2', { against: 'r1', limit: 50 })).toBe('/v1/spaces/s1/revisions/r2/changes?against=r1&limit=50')
    expect(historyPaths.changes('s1', 'r2')).toBe('/v1/spaces/s1/revisions/r2/changes')
    expect(historyPaths.restore('s1', 'r1')).toBe('/v1/spaces/s1/revisions/r1/restore')
  })
})
