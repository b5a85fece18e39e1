import { describe, expect, it } from 'vitest'
import { renderMarkdown } from './markdown'

describe('the docs blocks of a preview page', () => {
  it('makes tabs a tab list whose first panel shows', () => {
    const { html } = renderMarkdown(
      '{% tabs %}\n{% tab title="npm" %}\nnpm i\n{% endtab %}\n{% tab title="yarn" %}\nyarn add\n{% endtab %}\n{% endtabs %}\n'
    )
    expect(html).toContain('<div role="tablist" class="docs-tablist">')
    expect(html).toContain(
      '<button type="button" role="tab" id="tabs-0-0" aria-controls="tabs-0-0-panel" aria-selected="true" tabindex="0">npm</button>'
    )
    expect(html).toContain(
      '<button type="button" role="tab" id="tabs-0-1" aria-controls="tabs-0-1-panel" aria-selected="false" tabindex="-1">yarn</button>'
    )
    expect(html).toMatch(/<div class="gb-tab gb-block" id="tabs-0-0-panel" role="tabpanel" aria-labelledby="tabs-0-0"><p>npm i<\/p>/)
    expect(html).toMatch(/id="tabs-0-1-panel" role="tabpanel" aria-labelledby="tabs-0-1" hidden><p>yarn add<\/p>/)
    expect(html).not.toContain('gb-title')
  })

  it('names a code block by its language, with a Copy button', () => {
    const { html } = renderMarkdown('```js\nlet a = 1\n```\n')
    expect(html).toContain(
      '<div class="docs-code"><div class="docs-code-bar"><span class="docs-code-language">js</span><button type="button" class="docs-copy" aria-label="Copy code">Copy</button></div><pre><code class="language-js">'
    )
  })

  it('gives top-level headings their section ids and lists them as the outline', () => {
    const { html, outline } = renderMarkdown('## Install\n\ntext\n\n### Größe\n\n## Install\n\n> ## Quoted\n')
    expect(outline).toEqual([
      { id: 'install', text: 'Install', depth: 2 },
      { id: 'größe', text: 'Größe', depth: 3 },
      { id: 'install-1', text: 'Install', depth: 2 }
    ])
    expect(html).toContain('<h2 id="install">Install</h2>')
    expect(html).toContain('<h3 id="größe">Größe</h3>')
    // A first heading repeating the page's title is dropped (the page shows its title); others stay.
    expect(renderMarkdown('# Intro\n\n## Intro\n', { title: 'Intro' })).toEqual({
      html: '\n<h2 id="intro">Intro</h2>',
      outline: [{ id: 'intro', text: 'Intro', depth: 2 }]
    })
    expect(renderMarkdown('# Other\n', { title: 'Intro' }).html).toBe('<h1 id="other">Other</h1>')
    // A page's own ids keep the sanitizer's prefix: they cannot clash with the outline's.
    expect(renderMarkdown('<a id="x"></a>\n\n[a](#x)\n').html).not.toContain('id="x"')
  })
})
