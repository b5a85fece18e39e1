import { describe, expect, it } from 'vitest'
import type { GitInfo } from '../../api/types.ts'
import { branchOf, isBusy, isNonFastForward, progressText, refOf, shortSha } from './gitState.ts'

const info = (over: Partial<GitInfo>): GitInfo => ({
  repoName: 'docs',
  installationProvider: 'git',
  installationId: 's1',
  installationStatus: 'active',
  url: '/srv/docs.git',
  updatedAt: '2026-03-01T10:00:00.000Z',
  ref: 'refs/heads/main',
  status: 'succeeded',
  operation: { state: 'success', direction: 'export', startedAt: '2026-03-01T10:00:00.000Z' },
  ...over
})

describe('git state', () => {
  it('converts branches and refs both ways', () => {
    expect(branchOf('refs/heads/feature/x')).toBe('feature/x')
    expect(refOf(' main ')).toBe('refs/heads/main')
    expect(refOf('refs/heads/docs')).toBe('refs/heads/docs')
  })

  it('is busy while queued or running', () => {
    expect(isBusy(info({ status: 'pending' }))).toBe(true)
    expect(isBusy(info({ status: 'running' }))).toBe(true)
    expect(isBusy(info({ status: 'failed' }))).toBe(false)
    expect(isBusy(null)).toBe(false)
  })

  it('knows a refused export whose branch moved', () => {
    const error = 'non-fast-forward: the branch has commits this space has not imported; import them first or export with force'
    expect(isNonFastForward(info({ status: 'failed', error }))).toBe(true)
    expect(
      isNonFastForward(
        info({ status: 'failed', operation: { state: 'failure', direction: 'import', startedAt: '2026-03-01T10:00:00.000Z' }, error })
      )
    ).toBe(false)
    expect(isNonFastForward(info({ status: 'failed', error: 'url: no Git repository at that path' }))).toBe(false)
  })

  it('says the phase and the counts that moved', () => {
    expect(progressText('import', undefined)).toBe('Importing…')
    expect(progressText('import', { phase: 'reading', filesRead: 6, filesWritten: 0, pagesApplied: 0 })).toBe(
      'Reading the repository · 6 files read'
    )
    expect(progressText('export', { phase: 'pushing', filesRead: 1, filesWritten: 2, pagesApplied: 5 })).toBe(
      'Pushing the commit · 1 file read · 2 files written · 5 pages exported'
    )
    expect(shortSha('0123456789abcdef')).toBe('0123456')
  })
})
