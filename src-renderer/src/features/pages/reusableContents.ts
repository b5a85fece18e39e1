// The revision's reusable contents as the preview's `{% include %}` tags need them. The API gives each one's
// document as its syntax tree (mdast); it is written back to markdown here so the
// preview reads its block tags (a reusable hint, say) by the same rule as a page's text.
import type { Root } from 'mdast'
import { gfmToMarkdown } from 'mdast-util-gfm'
import { toMarkdown } from 'mdast-util-to-markdown'
import type { IncludeSource } from '../../../../src-shared/blockTags.ts'
import type { Revision } from '../../api/types.ts'

export function includeSources(contents: Revision['reusableContents']): IncludeSource[] {
  return contents.map((content) => {
    // The text as stored when the API gives it (Quire does), else written back from its tree.
    if (content.markdown !== undefined) return { title: content.title, markdown: content.markdown, ...(content.git?.path ? { gitPath: content.git.path } : {}) }
    const tree = content.document as unknown as Root
    // Front matter is the reusable content's settings, not its text.
    const body: Root = { type: 'root', children: (tree.children ?? []).filter((node) => node.type !== 'yaml') }
    return { title: content.title, markdown: toMarkdown(body, { extensions: [gfmToMarkdown()] }), ...(content.git?.path ? { gitPath: content.git.path } : {}) }
  })
}
