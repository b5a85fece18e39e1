import { describe, expect, it } from 'vitest'
import type { ContentFile } from '../../api/types.ts'
import { filterFiles, isImage, kindOf } from './files.ts'

const file = (id: string, name: string, contentType = 'image/png'): ContentFile => ({
  id,
  name,
  contentType,
  downloadURL: `http://x/${id}`,
  size: 1
})

describe('files tab', () => {
  it('keeps the files whose name holds every word of the filter, in natural name order', () => {
    const files = [
      file('a', 'shot-10.png'),
      file('b', 'Shot-2.png'),
      file('c', 'diagram.svg', 'image/svg+xml'),
      file('d', 'notes.txt', 'text/plain')
    ]
    expect(filterFiles(files, '').map((f) => f.name)).toEqual(['diagram.svg', 'notes.txt', 'Shot-2.png', 'shot-10.png'])
    expect(filterFiles(files, 'SHOT').map((f) => f.id)).toEqual(['b', 'a'])
    expect(filterFiles(files, 'shot 10').map((f) => f.id)).toEqual(['a'])
    expect(filterFiles(files, 'nothing')).toEqual([])
  })

  it('names a content type in a word', () => {
    expect(kindOf('image/png')).toBe('PNG image')
    expect(kindOf('image/svg+xml')).toBe('SVG image')
    expect(kindOf('application/pdf')).toBe('PDF')
    expect(kindOf('text/plain; charset=utf-8')).toBe('Text')
    expect(kindOf('text/markdown')).toBe('MARKDOWN text')
    expect(kindOf('application/x-zip')).toBe('ZIP')
    expect(kindOf('')).toBe('File')
    expect(isImage({ contentType: 'IMAGE/JPEG' })).toBe(true)
    expect(isImage({ contentType: 'application/pdf' })).toBe(false)
  })
})
