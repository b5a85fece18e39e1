import { describe, expect, it } from 'vitest'
import { SETUP_PAGE } from '../git/testing/gitbookDocs'
import { schemaViolations } from '../testing/contract'
import { documentToMarkdown, markdownToDocument, type BlockNode, type InlineNode, type JsonDocument } from './documentModel'

/** The model of the markdown, checked against the published JSONDocument schema. */
function model(markdown: string): JsonDocument {
  const document = markdownToDocument(markdown)
  expect(schemaViolations('JSONDocument', document)).toEqual([])
  return document
}

/** Markdown → model → markdown gives the markdown; model → markdown → model gives the model. */
function roundTrip(markdown: string): JsonDocument {
  const document = model(markdown)
  expect(documentToMarkdown(document)).toBe(markdown)
  expect(markdownToDocument(documentToMarkdown(document))).toEqual(document)
  return document
}

const text = (t: string, ...marks: string[]) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: t, marks: marks.map((type) => ({ object: 'mark', type })) }]
})
const first = (markdown: string) => roundTrip(markdown).nodes[0]!

describe('document model: blocks', () => {
  it('paragraphs and headings (levels beyond 3 are heading-3)', () => {
    const doc = roundTrip('# One\n\n## Two\n\n### Three\n\nSome text\nover two lines.\n')
    expect(doc.nodes.map((n) => n.type)).toEqual(['heading-1', 'heading-2', 'heading-3', 'paragraph'])
    expect(doc.nodes[3]!.nodes).toEqual([text('Some text\nover two lines.')])
    expect(documentToMarkdown(model('#### Four\n'))).toBe('### Four\n')
  })

  it('marks: bold, italic, strikethrough, code, nested', () => {
    const p = first('A **bold** _italic_ ~~gone~~ `code` **_both_** end\n')
    expect(p.nodes).toEqual([
      {
        object: 'text',
        leaves: [
          { object: 'leaf', text: 'A ', marks: [] },
          { object: 'leaf', text: 'bold', marks: [{ object: 'mark', type: 'bold' }] },
          { object: 'leaf', text: ' ', marks: [] },
          { object: 'leaf', text: 'italic', marks: [{ object: 'mark', type: 'italic' }] },
          { object: 'leaf', text: ' ', marks: [] },
          { object: 'leaf', text: 'gone', marks: [{ object: 'mark', type: 'strikethrough' }] },
          { object: 'leaf', text: ' ', marks: [] },
          { object: 'leaf', text: 'code', marks: [{ object: 'mark', type: 'code' }] },
          { object: 'leaf', text: ' ', marks: [] },
          {
            object: 'leaf',
            text: 'both',
            marks: [
              { object: 'mark', type: 'bold' },
              { object: 'mark', type: 'italic' }
            ]
          },
          { object: 'leaf', text: ' end', marks: [] }
        ]
      }
    ])
  })

  it('links to URLs, files, pages and anchors', () => {
    const p = first('See [docs](https://example.com/a), [file](/files/f1), [page](/pages/p1) and [here](#intro).\n')
    const refs = p.nodes!.filter((n) => n.object === 'inline').map((n) => (n as InlineNode).data.ref)
    expect(refs).toEqual([
      { kind: 'url', url: 'https://example.com/a' },
      { kind: 'file', file: 'f1' },
      { kind: 'page', page: 'p1' },
      { kind: 'anchor', anchor: 'intro' }
    ])
    expect(p.nodes![1]).toMatchObject({ object: 'inline', type: 'link', nodes: [text('docs')] })
  })

  it('marks around a link are on its text', () => {
    const doc = model('_[a](https://x.test)_ **~~[b](https://y.test)~~**\n')
    expect(documentToMarkdown(doc)).toBe('[_a_](https://x.test) [**~~b~~**](https://y.test)\n')
    expect(markdownToDocument(documentToMarkdown(doc))).toEqual(doc)
    expect(doc.nodes[0]!.nodes).toEqual([
      {
        object: 'inline',
        type: 'link',
        isVoid: false,
        data: { ref: { kind: 'url', url: 'https://x.test' } },
        nodes: [text('a', 'italic')]
      },
      text(' '),
      {
        object: 'inline',
        type: 'link',
        isVoid: false,
        data: { ref: { kind: 'url', url: 'https://y.test' } },
        nodes: [text('b', 'bold', 'strikethrough')]
      }
    ])
  })

  it('reference links become links', () => {
    expect(documentToMarkdown(model('A [link][x].\n\n[x]: https://example.com\n'))).toBe('A [link](https://example.com).\n')
  })

  it('lists: unordered, ordered with a start, nested, tasks', () => {
    expect(first('- one\n- two\n  - nested\n').type).toBe('list-unordered')
    const ordered = first('3. three\n4. four\n')
    expect(ordered).toMatchObject({ type: 'list-ordered', data: { start: 3 } })
    const tasks = first('- [x] done\n- [ ] to do\n')
    expect(tasks.type).toBe('list-tasks')
    expect(tasks.nodes!.map((item) => (item as BlockNode).data)).toEqual([{ checked: true }, { checked: false }])
  })

  it('quotes, dividers', () => {
    expect(first('> Quoted **text**\n>\n> > inner\n').type).toBe('blockquote')
    expect(first('---\n')).toEqual({ object: 'block', type: 'divider', isVoid: true, data: {} })
  })

  it('code blocks with their language, lines and a title', () => {
    const code = first('```ts\nconst a = 1\n\nconst b = 2\n```\n')
    expect(code.data).toEqual({ syntax: 'ts' })
    expect(code.nodes!.length).toBe(3)
    expect(code.nodes![0]).toEqual({ object: 'block', type: 'code-line', data: {}, nodes: [text('const a = 1')] })
    expect(first('{% code title="app.ts" %}\n```ts\nrun()\n```\n{% endcode %}\n').data).toEqual({ syntax: 'ts', title: 'app.ts' })
  })

  it('tables: columns, alignment, cells as fragments', () => {
    const table = first('| Name  | Size |\n| ----- | ---: |\n| **a** |    1 |\n| b     |    2 |\n')
    expect(table).toMatchObject({ type: 'table', isVoid: true, data: { view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false } } })
    expect(table.data.definition).toEqual({
      c1: { id: 'c1', title: 'Name', type: 'text', textAlignment: 'left' },
      c2: { id: 'c2', title: 'Size', type: 'text', textAlignment: 'right' }
    })
    expect(table.fragments!.find((f) => f.fragment === 'r1c1')!.nodes[0]!.nodes).toEqual([text('a', 'bold')])
  })

  it('hints in each style', () => {
    for (const style of ['info', 'success', 'warning', 'danger']) {
      const hint = first(`{% hint style="${style}" %}\nMind **this**.\n{% endhint %}\n`)
      expect(hint).toMatchObject({ type: 'hint', data: { style }, nodes: [{ type: 'paragraph' }] })
    }
  })

  it('tabs, steps and columns', () => {
    const tabs = first(
      '{% tabs %}\n{% tab title="First" %}\nOne\n{% endtab %}\n\n{% tab title="Second" %}\nTwo\n{% endtab %}\n{% endtabs %}\n'
    )
    expect(tabs.nodes!.map((t) => [(t as BlockNode).type, (t as BlockNode).data])).toEqual([
      ['tabs-item', { title: 'First' }],
      ['tabs-item', { title: 'Second' }]
    ])
    expect(first('{% stepper %}\n{% step %}\nDo this\n{% endstep %}\n{% endstepper %}\n')).toMatchObject({
      type: 'stepper',
      nodes: [{ type: 'stepper-step' }]
    })
    expect(
      first('{% columns %}\n{% column %}\nLeft\n{% endcolumn %}\n\n{% column %}\nRight\n{% endcolumn %}\n{% endcolumns %}\n')
    ).toMatchObject({ type: 'columns', nodes: [{ type: 'column' }, { type: 'column' }] })
  })

  it('expandables (details and summary)', () => {
    const block = first(
      '<details open>\n\n<summary>More <em>or</em> less</summary>\n\nHidden text\n\n</details>\n'.replace('<em>or</em>', '_or_')
    )
    expect(block).toMatchObject({ type: 'expandable', data: { defaultExpanded: true } })
    expect(block.fragments!.map((f) => f.fragment)).toEqual(['expandable-title', 'expandable-body'])
    expect(block.fragments![0]!.nodes[0]!.nodes).toEqual([
      {
        object: 'text',
        leaves: [
          { object: 'leaf', text: 'More ', marks: [] },
          { object: 'leaf', text: 'or', marks: [{ object: 'mark', type: 'italic' }] },
          { object: 'leaf', text: ' less', marks: [] }
        ]
      }
    ])
  })

  it('images with alt and caption, inline images, files, embeds', () => {
    const images = first('![A cat](/files/f1 "The cat")\n')
    expect(images).toMatchObject({
      type: 'images',
      nodes: [{ type: 'image', data: { ref: { kind: 'file', file: 'f1' }, alt: 'A cat' }, fragments: [{ fragment: 'caption' }] }]
    })
    expect(first('Look ![icon](https://example.com/i.png) here\n').nodes![1]).toMatchObject({
      type: 'inline-image',
      data: { ref: { kind: 'url', url: 'https://example.com/i.png' } }
    })
    expect(first('{% file src="/files/f2" %}\n')).toEqual({
      object: 'block',
      type: 'file',
      isVoid: true,
      data: { ref: { kind: 'file', file: 'f2' } }
    })
    expect(first('{% file src=".gitbook/assets/report.pdf" %}\n').data).toEqual({
      ref: { kind: 'file', file: '.gitbook/assets/report.pdf' }
    })
    expect(first('{% embed url="https://example.com/video" %}\n')).toEqual({
      object: 'block',
      type: 'embed',
      isVoid: true,
      data: { url: 'https://example.com/video' }
    })
  })

  it('math: inline and blocks, formulas kept as written', () => {
    const p = first('Energy $$E = m*c^2$$ and $$\\{x_1\\}$$.\n')
    expect(p.nodes!.filter((n) => n.object === 'inline').map((n) => (n as InlineNode).data.formula)).toEqual(['E = m*c^2', '\\{x_1\\}'])
    const doc = roundTrip('Before\n\n$$\n\\frac{a_1}{b*2}\n$$\n\nAfter\n')
    expect(doc.nodes[1]).toEqual({ object: 'block', type: 'math', isVoid: true, data: { formula: '\\frac{a_1}{b*2}' } })
    expect(model('```\n$$x$$\n```\n').nodes[0]!.type).toBe('code')
  })

  it('page cards and reusable contents', () => {
    expect(first('{% content-ref url="/pages/p1" %}\n[/pages/p1](/pages/p1)\n{% endcontent-ref %}\n').data).toEqual({
      ref: { kind: 'page', page: 'p1' }
    })
    expect(first('{% include ".gitbook/includes/intro.md" %}\n').data).toEqual({
      ref: { kind: 'reusable-content', reusableContent: '.gitbook/includes/intro.md' }
    })
    const ids = markdownToDocument('{% include "a.md" %}\n', { reusableContentId: (path) => (path === 'a.md' ? 'rc1' : undefined) })
    expect(ids.nodes[0]!.data.ref).toEqual({ kind: 'reusable-content', reusableContent: 'rc1' })
    expect(documentToMarkdown(ids, { reusableContentPath: (id) => (id === 'rc1' ? 'a.md' : undefined) })).toBe('{% include "a.md" %}\n')
  })

  it('a whole page of every block round-trips and validates', () => {
    roundTrip(
      [
        '# Guide',
        '',
        'Intro with a [link](https://example.com) and `code`.',
        '',
        '{% hint style="warning" %}',
        '- careful',
        '- really',
        '{% endhint %}',
        '',
        '{% tabs %}',
        '{% tab title="npm" %}',
        '```sh',
        'npm i',
        '```',
        '{% endtab %}',
        '{% endtabs %}',
        '',
        '| A |',
        '| - |',
        '| 1 |',
        '',
        '---',
        '',
        '> Quote',
        ''
      ].join('\n')
    )
  })
})

describe('document model: what the model cannot hold', () => {
  it('a block a container may not hold becomes its text', () => {
    const quote = model('> ```\n> code in a quote\n> ```\n').nodes[0]!
    expect(quote.nodes).toEqual([{ object: 'block', type: 'paragraph', data: {}, nodes: [text('code in a quote')] }])
  })

  it('front matter is not content', () => {
    expect(roundTrip.length).toBe(1)
    expect(documentToMarkdown(model('---\ndescription: Hi\n---\n\n# Title\n'))).toBe('# Title\n')
  })

  it('an empty document', () => {
    expect(model('')).toEqual({ object: 'document', data: {}, nodes: [] })
    expect(documentToMarkdown({ nodes: [] })).toBe('')
  })

  it('a model from elsewhere: unknown blocks keep their content, emoji become text', () => {
    const md = documentToMarkdown({
      nodes: [
        { object: 'block', type: 'paragraph', nodes: [{ object: 'inline', type: 'emoji', data: { code: '1f600' } }, text(' hi')] },
        { object: 'block', type: 'drawing', isVoid: true, data: {} }
      ]
    })
    expect(md).toBe('😀 hi\n')
  })
})

describe('document model: markdown as written (not as the converter writes it)', () => {
  // Loose lists, `*` bullets, tags with no blank lines, HTML, nesting the model limits: the model validates,
  // its markdown reads back as the same model, and that markdown is stable.
  const SAMPLES: Record<string, string> = {
    'a page from Git': SETUP_PAGE.join('\n'),
    'messy markdown': [
      'Title',
      '=====',
      '',
      '* one',
      '',
      '* two',
      '  1) nested',
      '  2) list',
      '',
      'Text<br>with <b>html</b> and a hard  ',
      'break.',
      '{% hint style="danger" %}',
      '| a | b |',
      '|---|:-:|',
      '| 1 | `x` |',
      '{% endhint %}',
      '- item',
      '  ```js',
      '  code()',
      '  ```',
      '  > quoted',
      '  > ![img](https://x.test/i.png)',
      '<details>',
      '<summary>Open me</summary>',
      '',
      '- [ ] task',
      '',
      '</details>',
      '',
      '{% tabs %}',
      '{% tab title="A" %}',
      '<details>',
      '',
      '<summary>Not in a tab</summary>',
      '',
      'Body',
      '',
      '</details>',
      '',
      '{% endtab %}',
      '{% endtabs %}',
      '$$',
      'x^2 * y_1',
      '$$',
      'Inline $$\\alpha$$ in ~~text~~ with *emph **strong***.',
      '',
      '[ref]: https://example.com',
      'A [reference][ref] and [[not a link]] and a footnote[^1].',
      '',
      '[^1]: The note.',
      '{% embed url="https://www.youtube.com/watch?v=1" %}',
      'Caption text',
      '{% endembed %}',
      '{% columns %}',
      '{% column %}',
      '![a](/files/f1 "Cap")',
      '{% endcolumn %}',
      '{% endcolumns %}',
      '{% stepper %}',
      '{% step %}',
      '### Step one',
      '{% endstep %}',
      '{% endstepper %}',
      '{% api-method method="get" path="/x" %}',
      'Kept text',
      '{% endapi-method %}'
    ].join('\n')
  }
  for (const [name, markdown] of Object.entries(SAMPLES)) {
    it(name, () => {
      const document = model(markdown)
      const written = documentToMarkdown(document)
      expect(markdownToDocument(written)).toEqual(document)
      expect(documentToMarkdown(markdownToDocument(written))).toBe(written)
    })
  }
})

it('raw HTML that swallows tags and formulas keeps them as written', () => {
  const p = model('<div>\n$$x$$\n{% endhint %}\n</div>\n').nodes[0]!
  expect(p.nodes).toEqual([text('<div>\n$$x$$\n{% endhint %}\n</div>')])
})
