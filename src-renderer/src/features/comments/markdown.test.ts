import { describe, expect, it } from 'vitest'
import { renderMarkdown } from './markdown.ts'

describe('renderMarkdown', () => {
  it('renders GitHub-flavoured markdown', () => {
    const html = renderMarkdown('**bold** and ~~gone~~\n\n- [x] done\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nsee https://example.com')
    expect(html).toContain('<strong>bold</strong>')
    expect(html).toContain('<del>gone</del>')
    expect(html).toContain('type="checkbox"')
    expect(html).toContain('<table>')
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">https://example.com</a>')
  })

  it('drops raw HTML, scripts and unsafe URLs', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script><img src=x onerror=alert(1)>\n\n[click](javascript:alert(1)) <b onclick="x()">b</b>'
    )
    expect(html).not.toMatch(/<script|onerror|onclick|javascript:/i)
    expect(html).toContain('click')
  })

  it('turns images into links, since the CSP would refuse remote images', () => {
    expect(renderMarkdown('![diagram](https://example.com/d.png)')).toBe(
      '<p><a href="https://example.com/d.png" target="_blank" rel="noopener noreferrer">🖼 diagram</a></p>'
    )
  })

  it('keeps in-app links in the same window and renders code', () => {
    const html = renderMarkdown('[page](#/spaces/a) `x < y`\n\n```js\nlet a = 1\n```')
    expect(html).toContain('<a href="#/spaces/a">page</a>')
    expect(html).toContain('<code>x &#x3C; y</code>')
    expect(html).toContain('<pre><code class="language-js">')
  })

  it('renders an empty body as nothing', () => {
    expect(renderMarkdown('')).toBe('')
  })
})
