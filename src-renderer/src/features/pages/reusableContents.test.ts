import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified } from 'unified'
import { describe, expect, it } from 'vitest'
import { renderMarkdown } from './markdownPreview.ts'
import { includeSources } from './reusableContents.ts'

// What the API's `document` is: the markdown's syntax tree.
const parsed = (markdown: string) => unified().use(remarkParse).use(remarkGfm).parse(markdown) as unknown as Record<string, unknown>

describe('reusable contents in the preview', () => {
  it('writes each document back to markdown that keeps its block tags and tables', () => {
    const [source] = includeSources([
      { id: 'r1', title: 'Warning', document: parsed('{% hint style="danger" %}\nDo *not* unplug it.\n{% endhint %}\n\n| a | b |\n| - | - |\n| 1 | 2 |\n'), git: { path: '.gitbook/includes/warning.md' } }
    ])
    expect(source).toMatchObject({ title: 'Warning', gitPath: '.gitbook/includes/warning.md' })
    const html = renderMarkdown('# Page\n{% include "../.gitbook/includes/warning.md" %}\n', new Map(), { contents: [source!], pagePath: 'guide/page.md' })
    expect(html).toContain('<div class="gb-include"><div class="gb-title">Warning</div><div class="gb-hint gb-hint-danger"><p>Do <em>not</em> unplug it.</p></div>')
    expect(html).toContain('<td>1</td>')
  })

  it('takes the markdown as stored when the API gives it, rather than writing the document back', () => {
    const markdown = 'Write to *support* — any day.\n'
    const [source] = includeSources([{ id: 'r2', title: 'Note', document: parsed('something else'), markdown, git: { path: '.gitbook/includes/note.md' } }])
    expect(source).toEqual({ title: 'Note', markdown, gitPath: '.gitbook/includes/note.md' })
  })
})
