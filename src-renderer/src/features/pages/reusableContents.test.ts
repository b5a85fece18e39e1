import { describe, expect, it } from 'vitest'
import { renderMarkdown } from './markdownPreview.ts'
import { includeSources } from './reusableContents.ts'

describe('reusable contents in the preview', () => {
  it('shows each one by its markdown, block tags and tables included, where an include names its Git path', () => {
    const [source] = includeSources([
      {
        id: 'r1',
        title: 'Warning',
        markdown: '{% hint style="danger" %}\nDo *not* unplug it.\n{% endhint %}\n\n| a | b |\n| - | - |\n| 1 | 2 |\n',
        path: '.gitbook/includes/warning.md'
      }
    ])
    expect(source).toMatchObject({ title: 'Warning', gitPath: '.gitbook/includes/warning.md' })
    const html = renderMarkdown('# Page\n{% include "../.gitbook/includes/warning.md" %}\n', new Map(), {
      contents: [source!],
      pagePath: 'guide/page.md'
    })
    expect(html).toContain(
      '<div class="gb-include"><div class="gb-title">Warning</div><div class="gb-hint gb-hint-danger"><p>Do <em>not</em> unplug it.</p></div>'
    )
    expect(html).toContain('<td>1</td>')
  })

  it('takes the Git path of the blob it came from when it has no path of its own', () => {
    const markdown = 'Write to *support* — any day.\n'
    const [source] = includeSources([{ id: 'r2', title: 'Note', markdown, git: { oid: 'abc', path: '.gitbook/includes/note.md' } }])
    expect(source).toEqual({ title: 'Note', markdown, gitPath: '.gitbook/includes/note.md' })
  })
})
