import { describe, expect, it } from 'vitest'
import { MAX_FILE_BYTES, fileMarkdown, fileProblem, formatBytes, newFiles, uploadName } from './fileUpload.ts'

describe('file upload', () => {
  it('refuses files over 1 MB before sending them', () => {
    expect(fileProblem({ name: 'ok.png', size: MAX_FILE_BYTES })).toBeNull()
    expect(fileProblem({ name: 'big.pdf', size: MAX_FILE_BYTES + 1 })).toBe('“big.pdf” (1 MB) is larger than 1 MB, the most a file can be.')
    expect(fileProblem({ name: 'huge.zip', size: 3 * MAX_FILE_BYTES })).toBe(
      '“huge.zip” (3 MB) is larger than 1 MB, the most a file can be.'
    )
    expect(fileProblem({ name: 'empty.txt', size: 0 })).toMatch(/empty/)
  })

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(1.25 * 1024 * 1024)).toBe('1.3 MB')
  })

  it('links images as images and other files as links', () => {
    expect(fileMarkdown({ id: 'f1', name: 'shot.png', contentType: 'image/png' })).toBe('![shot.png](/files/f1)')
    expect(fileMarkdown({ id: 'f2', name: 'notes [v2].pdf', contentType: 'application/pdf' })).toBe('[notes \\[v2\\].pdf](/files/f2)')
  })

  it('names pasted images', () => {
    expect(uploadName({ name: 'image.png', type: 'image/png' }, new Date('2025-01-02T03:04:05Z'))).toBe('pasted-20250102-030405.png')
    expect(uploadName({ name: 'diagram.svg', type: 'image/svg+xml' })).toBe('diagram.svg')
  })

  it('matches uploads to the files they created', () => {
    const before = new Set(['old'])
    const after = [
      { id: 'old', name: 'a.png' },
      { id: 'n1', name: 'a.png' },
      { id: 'n2', name: 'b.pdf' },
      { id: 'n3', name: 'a.png' }
    ]
    expect(newFiles(before, after, ['a.png', 'b.pdf', 'a.png', 'c.txt']).map((f) => f?.id)).toEqual(['n1', 'n2', 'n3', undefined])
  })
})
