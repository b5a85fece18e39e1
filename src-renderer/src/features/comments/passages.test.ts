import { describe, expect, it } from 'vitest'
import { isPassage, locatePassage, passageNode, sectionsOf } from './passages.ts'

const doc = [
  'Intro words.',
  '',
  '# Install',
  '',
  'Run the installer. Run it twice.',
  '',
  '```',
  '# not a heading',
  '```',
  '',
  '## Install',
  '',
  'Run the installer.'
].join('\n')
const select = (text: string, nth = 0) => {
  let at = -1
  for (let i = 0; i <= nth; i++) at = doc.indexOf(text, at + 1)
  return [at, at + text.length] as const
}

describe('sectionsOf', () => {
  it('names the sections by their heading ids, skipping code fences, numbering repeated titles', () => {
    expect(sectionsOf(doc).map((s) => s.id)).toEqual(['top', 'install', 'install-1'])
  })
})

describe('passageNode', () => {
  it('names the section and the occurrence, and keeps the text as the preview', () => {
    expect(passageNode(doc, ...select('Intro'))).toEqual({ id: 'passage:top:0', preview: 'Intro' })
    expect(passageNode(doc, ...select('Run the installer.'))).toEqual({ id: 'passage:install:0', preview: 'Run the installer.' })
    expect(passageNode(doc, ...select('Run the installer.', 1))).toEqual({ id: 'passage:install-1:0', preview: 'Run the installer.' })
    expect(passageNode(doc, ...select('Run', 1))).toEqual({ id: 'passage:install:1', preview: 'Run' })
  })

  it('leaves out surrounding blanks, refuses blanks only, and cuts the preview to the API limit', () => {
    const [from, to] = select(' Run it twice.')
    expect(passageNode(doc, from, to + 1)).toEqual({ id: 'passage:install:0', preview: 'Run it twice.' })
    expect(passageNode(doc, 12, 14)).toBeNull()
    const long = `# A\n\n${'x'.repeat(1500)}`
    expect(passageNode(long, 5, long.length)!.preview).toHaveLength(1000)
  })
})

describe('locatePassage', () => {
  it('finds the same occurrence in the same section', () => {
    const node = passageNode(doc, ...select('Run the installer.', 1))!
    expect(locatePassage(doc, node)).toEqual({ from: select('Run the installer.', 1)[0], to: select('Run the installer.', 1)[1] })
    const second = passageNode(doc, ...select('Run', 1))!
    expect(locatePassage(doc, second)!.from).toBe(select('Run', 1)[0])
  })

  it('follows the text when the page around it changes, and falls back to its first occurrence', () => {
    const node = passageNode(doc, ...select('Run it twice.'))!
    const edited = `New first line.\n\n${doc.replace('# Install', '# Setup')}`
    expect(edited.slice(locatePassage(edited, node)!.from, locatePassage(edited, node)!.to)).toBe('Run it twice.')
  })

  it('answers null when the text is gone (outdated)', () => {
    const node = passageNode(doc, ...select('Run it twice.'))!
    expect(locatePassage(doc.replace('twice', 'once'), node)).toBeNull()
  })

  it('knows a passage from another node', () => {
    expect(isPassage({ id: 'passage:top:0', preview: 'x' })).toBe(true)
    expect(isPassage({ id: 'block-1', preview: 'x' })).toBe(false)
    expect(isPassage({ id: 'passage:top:0' })).toBe(false)
    expect(isPassage(undefined)).toBe(false)
  })
})
