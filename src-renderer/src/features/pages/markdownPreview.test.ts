import { describe, expect, it } from 'vitest'
import { fileIdOf, renderMarkdown, sectionLine } from './markdownPreview.ts'

describe('markdown preview', () => {
  it('renders GFM and leaves the front matter out', () => {
    const html = renderMarkdown('---\ntitle: Hi\n---\n# Title\n\n- one\n- [x] done\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n~~gone~~')
    expect(html).toContain('<h1 id="user-content-title">Title</h1>')
    expect(html).toContain('<li>one</li>')
    expect(html).toContain('type="checkbox"')
    expect(html).toContain('<table>')
    expect(html).toContain('<del>gone</del>')
    expect(html).not.toContain('title: Hi')
    // Alignment must not become a style attribute: the CSP refuses inline styles.
    expect(html).not.toContain('style=')
  })

  it('removes scripts, event handlers and javascript: links', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script>\n\n<img src="x" onerror="alert(1)">\n\n[x](javascript:alert(1))\n\n<div style="color:red">s</div>'
    )
    expect(html).not.toContain('<script')
    expect(html).not.toContain('onerror')
    expect(html).not.toContain('javascript:')
    expect(html).not.toContain('style=')
  })

  it("renders GitBook's block tags as framed blocks, with file tags pointing at the file", () => {
    const files = new Map([['f1', { name: 'guide.pdf', downloadURL: 'http://127.0.0.1:1/files/s/r/f1/guide.pdf?token=t' }]])
    const markdown =
      '# Page\n{% hint style="warning" %}\nMind the gap.\n{% endhint %}\n{% file src="../.gitbook/assets/guide.pdf" %}\n\n## After\n'
    const html = renderMarkdown(markdown, files)
    expect(html).toContain('<div class="gb-hint gb-hint-warning"><p>Mind the gap.</p></div>')
    expect(html).toContain('<div class="gb-file"><p><a href="http://127.0.0.1:1/files/s/r/f1/guide.pdf?token=t"')
    expect(html).not.toContain('{%')
    // Without the reusable contents (still loading) an include shows nothing rather than a false "missing".
    expect(renderMarkdown('{% include "a.md" %}')).toBe('<div class="gb-include"></div>')
    // Lines are unchanged by the tags' reading, so a section's heading is where the editor has it.
    expect(sectionLine(markdown, 'after')).toBe(7)
  })

  it('points /files/<id> links and images at their download URLs', () => {
    const files = new Map([['f1', { name: 'shot.png', downloadURL: 'http://127.0.0.1:1/files/s/r/f1/shot.png?token=t' }]])
    const html = renderMarkdown('![Shot](/files/f1)\n\n[Get it](/files/f1)', files)
    expect(html).toContain('src="http://127.0.0.1:1/files/s/r/f1/shot.png?token=t"')
    expect(html).toContain('href="http://127.0.0.1:1/files/s/r/f1/shot.png?token=t"')
    expect(html).toContain('target="_blank"')
  })

  it('shows images and files a page from Git names by path, as the links list resolves them', () => {
    const files = new Map([
      ['f1', { name: 'diagram one.png', downloadURL: 'http://127.0.0.1:1/files/s/r/f1/diagram.png?token=t' }],
      ['f2', { name: 'guide.pdf', downloadURL: 'http://127.0.0.1:1/files/s/r/f2/guide.pdf?token=t' }]
    ])
    const html = renderMarkdown(
      '![Diagram](../.gitbook/assets/diagram%20one.png)\n\n[The guide](.gitbook/assets/guide.pdf#p2)\n\n![Gone](assets/gone.png)\n\n[Next](next.md)',
      files
    )
    expect(html).toContain('src="http://127.0.0.1:1/files/s/r/f1/diagram.png?token=t"')
    expect(html).toContain('data-file-id="f1"')
    expect(html).toContain('href="http://127.0.0.1:1/files/s/r/f2/guide.pdf?token=t"')
    // A name no file has is a missing file; a page link stays a link.
    expect(html).toContain('title="File not found in this revision: assets/gone.png"')
    expect(html).toContain('href="next.md"')
  })

  it('shows a placeholder for images the app cannot load', () => {
    const html = renderMarkdown('![Logo](https://example.com/logo.png)\n\n![Gone](/files/nope)')
    expect(html).not.toContain('<img')
    expect(html).toContain('class="missing-image"')
    expect(html).toContain('>Logo</span>')
    expect(html).toContain('File not found in this revision')
  })

  it('gives top-level headings the ids of their search sections', () => {
    const markdown = '# Install\n\ntext\n\n## Install\n\n> ## Quoted\n\n## Café & Crème!\n\n## ***\n\n#  Install  \n'
    const html = renderMarkdown(markdown)
    expect(html).toContain('<h1 id="user-content-install">Install</h1>')
    expect(html).toContain('<h2 id="user-content-install-1">Install</h2>')
    // A heading inside a quote is no section of its own (the server folds it into the section above).
    expect(html).toContain('<h2>Quoted</h2>')
    expect(html).toContain('<h2 id="user-content-café-crème">Café &#x26; Crème!</h2>')
    expect(html).toContain('<h1 id="user-content-install-2">Install</h1>')
    expect(sectionLine(markdown, 'install')).toBe(1)
    expect(sectionLine(markdown, 'install-1')).toBe(5)
    expect(sectionLine(markdown, 'café-crème')).toBe(9)
    expect(sectionLine(markdown, 'install-2')).toBe(13)
    expect(sectionLine(markdown, 'quoted')).toBeUndefined()
    expect(sectionLine(markdown, '')).toBeUndefined()
  })

  it('gives headings in any script the anchors of their search sections', () => {
    const markdown = '## Größe 文档\n\ntext\n\n## Привет\n'
    expect(renderMarkdown(markdown)).toContain('<h2 id="user-content-größe-文档">Größe 文档</h2>')
    expect(sectionLine(markdown, 'größe-文档')).toBe(1)
    expect(sectionLine(markdown, 'привет')).toBe(5)
  })

  it('reads file ids from document links', () => {
    expect(fileIdOf('/files/abc')).toBe('abc')
    expect(fileIdOf('/files/abc?x=1')).toBe('abc')
    expect(fileIdOf('/files/a/b')).toBeNull()
    expect(fileIdOf('https://x/files/abc')).toBeNull()
  })
})
