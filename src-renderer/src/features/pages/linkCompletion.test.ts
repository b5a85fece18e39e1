import { CompletionContext } from '@codemirror/autocomplete'
import { EditorState } from '@codemirror/state'
import { describe, expect, it } from 'vitest'
import { linkCompletionSource, linkTargets, type LinkablePage } from './linkCompletion.ts'

const page = (id: string, title: string, path: string, pages: LinkablePage[] = [], type = 'document'): LinkablePage => ({
  id,
  title,
  path,
  type,
  pages
})
const tree = [
  page('a', 'Guide', 'guide', [page('b', 'Install', 'guide/install')]),
  page('g', 'Reference', 'reference', [], 'group'),
  page('c', 'FAQ', 'faq')
]
const files = [
  { id: 'f2', name: 'shot-10.png' },
  { id: 'f1', name: 'shot-2.png' }
]

describe('link completion', () => {
  it('offers the pages by absolute path in tree order, then the files by name, not the page itself', () => {
    expect(linkTargets(tree, files, 'c')).toEqual([
      { kind: 'page', title: 'Guide', href: '/guide' },
      { kind: 'page', title: 'Install', href: '/guide/install' },
      { kind: 'file', title: 'shot-2.png', href: '/files/f1' },
      { kind: 'file', title: 'shot-10.png', href: '/files/f2' }
    ])
  })

  it('completes only inside a link destination, replacing what was typed of it', () => {
    const source = linkCompletionSource(() => linkTargets(tree, files))
    const at = (doc: string) => source(new CompletionContext(EditorState.create({ doc }), doc.length, false))
    const result = at('See [the guide](/gu')
    expect(result?.from).toBe('See [the guide]('.length)
    expect(result?.options.map((o) => o.apply)).toEqual(['/guide', '/guide/install', '/faq', '/files/f1', '/files/f2'])
    expect(result?.options[1]).toMatchObject({ displayLabel: 'Install', detail: '/guide/install', label: 'Install /guide/install' })
    expect(at('![shot](')?.from).toBe('![shot]('.length)
    expect(at('See [the guide]')).toBeNull()
    expect(at('See [the guide](/guide) and')).toBeNull()
    expect(at('a (plain) parenthesis (')).toBeNull()
  })
})
