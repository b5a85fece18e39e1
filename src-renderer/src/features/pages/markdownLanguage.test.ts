import { describe, expect, it } from 'vitest'
import { ensureSyntaxTree } from '@codemirror/language'
import { EditorState } from '@codemirror/state'
import { markdownLanguage } from './markdownLanguage.ts'

const topNodes = (doc: string) => {
  const state = EditorState.create({ doc, extensions: markdownLanguage })
  const tree = ensureSyntaxTree(state, doc.length, 5000)!
  const names: string[] = []
  for (let node = tree.topNode.firstChild; node; node = node.nextSibling) names.push(`${node.name}@${node.from}-${node.to}`)
  return names
}

describe('editor markdown language', () => {
  it('reads the front matter as one block, not a setext heading', () => {
    const doc = '---\ntitle: Hi\ntags: [a]\n---\n# Body\n'
    expect(topNodes(doc)).toEqual(['FrontMatter@0-27', 'ATXHeading1@28-34'])
  })

  it('leaves a thematic break further down alone', () => {
    expect(topNodes('# Title\n\n---\n\ntext')).toEqual(['ATXHeading1@0-7', 'HorizontalRule@9-12', 'Paragraph@14-18'])
  })
})
