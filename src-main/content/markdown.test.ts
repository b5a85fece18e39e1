import { describe, expect, it } from 'vitest'
import { sectionsOf, titleOf } from './markdown'

describe('markdown sections', () => {
  it('splits at top-level headings, with the anchor ids the editor preview gives them', () => {
    // The same document as the preview's test (markdownPreview.test.ts): both name sections through headingIds.
    const markdown = '# Install\n\ntext\n\n## Install\n\n> ## Quoted\n\n## Café & Crème!\n\n## ***\n\n#  Install  \n'
    const sections = sectionsOf(markdown)
    expect(sections.map((s) => s.id)).toEqual(['install', 'install-1', 'cafe-creme', 'section', 'install-2'])
    expect(sections[0]).toEqual({ id: 'install', title: 'Install', body: 'text' })
    // A heading inside a quote is text of the section it is in.
    expect(sections[1]!.body).toBe('Quoted')
  })

  it('keeps the text before the first heading as a section without an id', () => {
    expect(sectionsOf('Intro words.\n\n# Next\n\nMore.')).toEqual([
      { id: '', title: '', body: 'Intro words.' },
      { id: 'next', title: 'Next', body: 'More.' }
    ])
    expect(titleOf('---\ntitle: From front matter\n---\n# Heading')).toBe('From front matter')
  })
})
