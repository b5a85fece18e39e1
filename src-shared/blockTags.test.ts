import type { Root, RootContent } from 'mdast'
import { toString } from 'mdast-util-to-string'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified } from 'unified'
import { describe, expect, it } from 'vitest'
import {
  foldBlockTags,
  includePath,
  includeResolver,
  isBlockTag,
  markBlockTags,
  parseBlockTag,
  type BlockTagNode,
  type FoldOptions
} from './blockTags'

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml'])
const fold = (markdown: string, options?: FoldOptions) => foldBlockTags(parser.parse(markBlockTags(markdown)) as Root, options)
/** The tree as nested [type or tag name, ...children] with text leaves, enough to compare shapes. */
function shape(node: RootContent | Root): unknown {
  if (isBlockTag(node)) return [node.name, ...node.children.map(shape)]
  if (node.type === 'text' || node.type === 'code' || node.type === 'html') return node.value
  if ('children' in node) return [node.type, ...(node.children as RootContent[]).map(shape)]
  return node.type
}

describe('block tags', () => {
  it('reads a tag line with its arguments', () => {
    expect(parseBlockTag(`{% hint style="warning" %}`)).toEqual({ name: 'hint', end: false, args: { style: 'warning' } })
    expect(parseBlockTag(`  {% code title='app.js' overflow=wrap lineNumbers="true" %}  `)).toEqual({
      name: 'code',
      end: false,
      args: { title: 'app.js', overflow: 'wrap', lineNumbers: 'true' }
    })
    expect(parseBlockTag(`{% include "../.gitbook/includes/intro.md" %}`)).toEqual({
      name: 'include',
      end: false,
      args: {},
      positional: '../.gitbook/includes/intro.md'
    })
    expect(parseBlockTag(`{% endtabs %}`)).toEqual({ name: 'tabs', end: true, args: {} })
    expect(parseBlockTag(`{% end %}`)).toMatchObject({ name: 'end', end: false })
    expect(parseBlockTag(`Text {% hint %}`)).toBeUndefined()
    expect(parseBlockTag(`{% hint %} and more`)).toBeUndefined()
  })

  it('folds a hint written without blank lines, as GitBook writes it, into one block', () => {
    const tree = fold(`Before\n{% hint style="danger" %}\nDo **not** do this.\n{% endhint %}\nAfter`)
    expect(shape(tree)).toEqual([
      'root',
      ['paragraph', 'Before'],
      ['hint', ['paragraph', 'Do ', ['strong', 'not'], ' do this.']],
      ['paragraph', 'After']
    ])
    const hint = tree.children[1] as unknown as BlockTagNode
    expect(hint.data.hProperties.className).toEqual(['gb-hint', 'gb-hint-danger'])
  })

  it('nests tabs, with each tab titled, and an unknown hint style shows as info', () => {
    const tree = fold(
      `{% tabs %}\n{% tab title="npm" %}\n\`\`\`sh\nnpm i\n\`\`\`\n{% endtab %}\n{% tab title="Yarn" %}\n{% hint style="odd" %}\nYarn 4\n{% endhint %}\n{% endtab %}\n{% endtabs %}`
    )
    expect(shape(tree)).toEqual([
      'root',
      ['tabs', ['tab', ['title', 'npm'], 'npm i'], ['tab', ['title', 'Yarn'], ['hint', ['paragraph', 'Yarn 4']]]]
    ])
    const hint = ((tree.children[0] as unknown as BlockTagNode).children[1] as unknown as BlockTagNode)
      .children[1] as unknown as BlockTagNode
    expect(hint.data.hProperties.className).toContain('gb-hint-info')
  })

  it('leaves tags in fenced code as they are, and keeps the arguments out of the markdown', () => {
    const source = '```liquid\n{% hint %}\n```\n\n{% embed url="https://example.com/v?a=1" %}\nA caption\n{% endembed %}'
    const tree = fold(source)
    expect(shape(tree)).toEqual([
      'root',
      '{% hint %}',
      ['embed', ['paragraph', ['link', 'https://example.com/v?a=1']], ['paragraph', 'A caption']]
    ])
  })

  it('drops a stray end tag and keeps what follows a tag that nothing closes in place', () => {
    expect(shape(fold(`{% endhint %}\nText`))).toEqual(['root', ['paragraph', 'Text']])
    expect(shape(fold(`{% file src="../.gitbook/assets/Guide%20v2.pdf" %}\n\nMore text`))).toEqual([
      'root',
      ['file', ['paragraph', ['link', 'Guide v2.pdf']]],
      ['paragraph', 'More text']
    ])
    // An inner tag left open inside a closed one is a tag on its own within it.
    expect(shape(fold(`{% hint %}\n{% embed url="https://a.example" %}\nInside\n{% endhint %}`))).toEqual([
      'root',
      ['hint', ['embed', ['paragraph', ['link', 'https://a.example']]], ['paragraph', 'Inside']]
    ])
  })

  it('folds tags inside list items and block quotes', () => {
    const tree = fold(
      `1. Step one\n\n   {% hint %}\n   Careful\n   {% endhint %}\n\n> {% code title="x.sh" %}\n> \`\`\`\n> ls\n> \`\`\`\n> {% endcode %}`
    )
    expect(shape(tree)).toEqual([
      'root',
      ['list', ['listItem', ['paragraph', 'Step one'], ['hint', ['paragraph', 'Careful']]]],
      ['blockquote', ['code', ['title', 'x.sh'], 'ls']]
    ])
  })

  it('includes a reusable content by its path, and says when it is missing', () => {
    const include = (path: string) =>
      path === '../.gitbook/includes/intro.md'
        ? { title: 'Intro', markdown: '---\ndescription: x\n---\nShared **text**\n{% include "../.gitbook/includes/intro.md" %}' }
        : undefined
    const tree = fold(`{% include "../.gitbook/includes/intro.md" %}\n{% include "nowhere.md" %}`, { include })
    const [found, missing] = tree.children as unknown as BlockTagNode[]
    expect(toString(found!)).toContain('Shared text')
    expect(found!.children[0]).toMatchObject({ name: 'title' })
    expect(missing!.data.hProperties.className).toContain('gb-include-missing')
    expect(toString(missing!)).toBe('Reusable content not found: nowhere.md')
    // A reusable content that starts with its title as a heading gets no title line above it.
    const headed = fold(`{% include "x.md" %}`, { include: () => ({ title: 'Intro', markdown: '# Intro\n\nText' }) })
    expect(shape(headed)).toEqual(['root', ['include', ['heading', 'Intro'], ['paragraph', 'Text']]])
    // Without a resolver an include reads as nothing (search indexes the page's own text).
    expect(toString(fold(`{% include "../.gitbook/includes/intro.md" %}`))).toBe('')
  })

  it('resolves an include path against the page path', () => {
    expect(includePath('guide/setup.md', '../.gitbook/includes/intro.md')).toBe('.gitbook/includes/intro.md')
    expect(includePath('README.md', '.gitbook/includes/a.md')).toBe('.gitbook/includes/a.md')
    expect(includePath('a/b/c.md', './d.md')).toBe('a/b/d.md')
    expect(includePath(undefined, '/.gitbook/includes/a.md')).toBe('.gitbook/includes/a.md')
  })

  it('puts back a tag line that could not be a block: in indented code, or under a paragraph', () => {
    expect(shape(fold(`Para\n\n    {% hint %}\n    code`))).toEqual(['root', ['paragraph', 'Para'], '{% hint %}\ncode'])
    expect(shape(fold(`Para\n    {% hint %}`))).toEqual(['root', ['paragraph', 'Para\n', '{% hint %}']])
  })

  it('finds a reusable content by its Git path from the page, else by its file name when only one has it', () => {
    const contents = [
      { title: 'Intro', markdown: 'Hello', gitPath: '.gitbook/includes/intro.md' },
      { title: 'Other intro', markdown: 'Hi', gitPath: 'elsewhere/intro.md' },
      { title: 'Footer', markdown: 'Bye', gitPath: '.gitbook/includes/footer.md' },
      { title: 'Made in the app', markdown: 'No path' }
    ]
    const resolve = includeResolver(contents, 'guide/setup.md')
    expect(resolve('../.gitbook/includes/intro.md')).toEqual({ title: 'Intro', markdown: 'Hello' })
    expect(resolve('../../old/place/footer.md')).toEqual({ title: 'Footer', markdown: 'Bye' })
    // Two files named intro.md: a path that matches neither exactly is not guessed.
    expect(resolve('intro.md')).toBeUndefined()
    expect(includeResolver(contents)('.gitbook/includes/intro.md')).toEqual({ title: 'Intro', markdown: 'Hello' })
  })

  it('returns the same string when there is no tag', () => {
    const text = 'Plain {text} with %braces%'
    expect(markBlockTags(text)).toBe(text)
  })
})
