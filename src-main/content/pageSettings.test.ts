import { describe, expect, it } from 'vitest'
import { documentSettings, frontMatterOf } from '../../src-shared/pageSettings'
import { coverFile } from './pageSettings'
import type { FileRecord } from './revisions'

const file = (id: string, name: string, gitPath?: string): FileRecord => ({
  id,
  name,
  contentType: 'image/png',
  blobHash: id,
  size: 1,
  width: 1,
  height: 1,
  git: gitPath ? { path: gitPath } : null
})

describe('page settings from front matter', () => {
  it('reads the layout, cover, icon, description and flags in the Git format, and ignores values of the wrong type', () => {
    const markdown = [
      '---',
      'description: What it covers',
      'icon: book',
      'cover: ../.gitbook/assets/banner.png',
      'coverY: -42',
      'layout:',
      '  cover:',
      '    visible: true',
      '    size: hero',
      '  title:',
      '    visible: false',
      '  outline: false',
      '  pagination:',
      '    visible: "no"',
      'hidden: true',
      'noIndex: true',
      'noRobotsIndex: yes please',
      '---',
      '',
      '# Body'
    ].join('\n')
    expect(documentSettings(markdown)).toEqual({
      description: 'What it covers',
      icon: 'book',
      cover: { src: '../.gitbook/assets/banner.png', yPos: -42 },
      layout: { cover: true, coverSize: 'hero', title: false, outline: false },
      hidden: true,
      noIndex: true
    })
  })

  it('finds nothing in a document without front matter, with front matter further down, or with broken YAML', () => {
    expect(documentSettings('# Title\n\n---\nhidden: true\n---\n')).toEqual({})
    expect(frontMatterOf('---\nhidden: [\n---\n# Title')).toEqual({})
    expect(frontMatterOf('---\n- a list\n---\n')).toEqual({})
    expect(documentSettings('---\r\nnoIndex: true\r\n---\r\ntext')).toEqual({ noIndex: true })
    // A cover without coverY sits at the top.
    expect(documentSettings('---\ncover: x.png\n---\n').cover).toEqual({ src: 'x.png', yPos: 0 })
  })
})

describe('coverFile', () => {
  const files = [file('f1', 'banner.png', '.gitbook/assets/banner.png'), file('f2', 'banner.png'), file('f3', 'photo one.jpg')]

  it('resolves a /files/ link by id, a Git path relative to the page or the root, then a file name', () => {
    expect(coverFile('/files/f2', files)?.id).toBe('f2')
    expect(coverFile('../.gitbook/assets/banner.png', files, 'guide/install.md')?.id).toBe('f1')
    expect(coverFile('/.gitbook/assets/banner.png', files, 'guide/install.md')?.id).toBe('f1')
    expect(coverFile('.gitbook/assets/banner.png', files)?.id).toBe('f1')
    expect(coverFile('images/photo%20one.jpg?w=2#top', files)?.id).toBe('f3')
  })

  it('finds no file for a name nothing matches or a link to a file that is not there', () => {
    expect(coverFile('missing.png', files)).toBeUndefined()
    expect(coverFile('/files/gone', files)).toBeUndefined()
  })
})
