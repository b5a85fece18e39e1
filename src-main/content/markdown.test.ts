import { describe, expect, it } from 'vitest'
import { fitTitle, linksOf, MAX_TITLE, sectionsOf, titleOf } from './markdown'

describe('markdown sections', () => {
  it('splits at top-level headings, with the anchor ids the editor preview gives them', () => {
    // The same document as the preview's test (markdownPreview.test.ts): both name sections through headingIds.
    const markdown = '# Install\n\ntext\n\n## Install\n\n> ## Quoted\n\n## Café & Crème!\n\n## ***\n\n#  Install  \n'
    const sections = sectionsOf(markdown)
    expect(sections.map((s) => s.id)).toEqual(['install', 'install-1', 'café-crème', 'section', 'install-2'])
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

describe('GitBook block tags', () => {
  it('index the text inside tags, not the tag lines, with the words of each block apart', () => {
    const markdown = [
      '# Setup',
      '{% hint style="warning" %}',
      'Back up first.',
      '{% endhint %}',
      '{% tabs %}',
      '{% tab title="npm" %}',
      '```sh',
      'npm install',
      '```',
      '{% endtab %}',
      '{% endtabs %}',
      '{% include "../.gitbook/includes/footer.md" %}'
    ].join('\n')
    expect(sectionsOf(markdown)).toEqual([{ id: 'setup', title: 'Setup', body: 'Back up first.\nnpm\nnpm install' }])
  })

  it('count file and embed tags as links, and a tag URL only once', () => {
    const markdown = '{% file src="../.gitbook/assets/guide.pdf" %}\n\n{% embed url="https://example.com/video" %}\n\n[Page](other.md)'
    expect(linksOf(markdown)).toEqual([
      { url: '../.gitbook/assets/guide.pdf', relation: 'link' },
      { url: 'https://example.com/video', relation: 'link' },
      { url: 'other.md', relation: 'link' }
    ])
  })
})

describe('derived titles', () => {
  const codePoints = (text: string) => Array.from(text).length

  it('keeps a title within the limit as it is', () => {
    expect(fitTitle('Getting started')).toBe('Getting started')
    const exact = 'x'.repeat(MAX_TITLE)
    expect(fitTitle(exact)).toBe(exact)
  })

  it('cuts a long title at the last word boundary within reach, the ellipsis counted', () => {
    const words = Array.from({ length: 1000 }, (_, i) => `word${i}`).join(' ')
    const title = fitTitle(words)
    expect(codePoints(title)).toBeLessThanOrEqual(MAX_TITLE)
    expect(title.endsWith('…')).toBe(true)
    const kept = title.slice(0, -1)
    expect(words.startsWith(`${kept} `)).toBe(true)
    expect(codePoints(title)).toBeGreaterThan(MAX_TITLE - 40)
  })

  it('keeps the last whole word when the cut falls just before a space', () => {
    const title = `${'a'.repeat(MAX_TITLE - 1)} tail`
    expect(fitTitle(title)).toBe(`${'a'.repeat(MAX_TITLE - 1)}…`)
  })

  it('cuts mid-word when no boundary is near the end, and drops a separator before the ellipsis', () => {
    const long = `Intro ${'x'.repeat(5000)}`
    expect(fitTitle(long)).toBe(`Intro ${'x'.repeat(MAX_TITLE - 7)}…`)
    expect(fitTitle(`${'y'.repeat(230)}, ${'z'.repeat(100)}`)).toBe(`${'y'.repeat(230)}…`)
  })

  it('counts code points and never splits a surrogate pair', () => {
    const emoji = '😀'.repeat(300)
    const title = fitTitle(emoji)
    expect(codePoints(title)).toBe(MAX_TITLE)
    expect(title).toBe(`${'😀'.repeat(MAX_TITLE - 1)}…`)
    // 200 emoji are 400 UTF-16 units but 200 characters: within the limit.
    expect(fitTitle('😀'.repeat(200))).toBe('😀'.repeat(200))
  })

  it('applies to titles from the first heading and from front matter', () => {
    const heading = `# ${'Long heading '.repeat(400)}\n\nBody`
    const fromHeading = titleOf(heading)!
    expect(codePoints(fromHeading)).toBeLessThanOrEqual(MAX_TITLE)
    expect(fromHeading.endsWith('…')).toBe(true)
    expect(heading.startsWith(`# ${fromHeading.slice(0, -1)} `)).toBe(true)
    const fromFrontMatter = titleOf(`---\ntitle: ${'t'.repeat(5000)}\n---\nBody`)!
    expect(fromFrontMatter).toBe(`${'t'.repeat(MAX_TITLE - 1)}…`)
  })
})

describe('links of a document', () => {
  it('counts a definition as an image when only image references use it', () => {
    const markdown = [
      '![Logo][logo] and [the guide][guide], [again][both] and ![twice][both].',
      '',
      '[logo]: /files/abc',
      '[guide]: /guide',
      '[both]: /files/def',
      '[unused]: https://example.com'
    ].join('\n')
    expect(linksOf(markdown)).toEqual([
      { url: '/files/abc', relation: 'image' },
      { url: '/guide', relation: 'link' },
      { url: '/files/def', relation: 'link' },
      { url: 'https://example.com', relation: 'link' }
    ])
  })
})
