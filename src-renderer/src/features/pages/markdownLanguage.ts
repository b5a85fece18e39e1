// Markdown for the editor, with the page's YAML front matter known as such: without this, CodeMirror's
// Markdown grammar reads `key: value` lines closed by `---` as a setext heading and draws them bold and
// underlined. The block is parsed as `FrontMatter` and its lines drawn as a quiet strip. Lines that are a GitBook
// block tag (`{% hint %}`, read as blocks by the previews: src-shared/blockTags.ts) are drawn apart from the text.
import { markdown } from '@codemirror/lang-markdown'
import { syntaxTree } from '@codemirror/language'
import { RangeSetBuilder } from '@codemirror/state'
import { Decoration, ViewPlugin, type DecorationSet, type EditorView, type ViewUpdate } from '@codemirror/view'
import { parseBlockTag } from '../../../../src-shared/blockTags.ts'

type MarkdownExtension = NonNullable<NonNullable<Parameters<typeof markdown>[0]>['extensions']>

const OPEN = /^---[ \t]*$/
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/

/** A `---` block at the very top of the document, up to its closing `---` (or the end, while it is being typed). */
const frontMatterBlock: MarkdownExtension = {
  defineNodes: [{ name: 'FrontMatter', block: true }],
  parseBlock: [
    {
      name: 'FrontMatter',
      before: 'HorizontalRule',
      parse(cx, line) {
        if (cx.lineStart !== 0 || !OPEN.test(line.text)) return false
        const from = cx.lineStart
        let to = from + line.text.length
        while (cx.nextLine()) {
          to = cx.lineStart + line.text.length
          if (CLOSE.test(line.text)) {
            cx.nextLine()
            break
          }
        }
        cx.addElement(cx.elt('FrontMatter', from, to))
        return true
      }
    }
  ]
}

const frontMatterLine = Decoration.line({ class: 'cm-frontMatter' })

function frontMatterDecorations(view: EditorView): DecorationSet {
  const node = syntaxTree(view.state).topNode.firstChild
  if (!node || node.name !== 'FrontMatter') return Decoration.none
  const builder = new RangeSetBuilder<Decoration>()
  const doc = view.state.doc
  for (let pos = node.from; pos <= node.to && pos <= doc.length;) {
    const line = doc.lineAt(pos)
    builder.add(line.from, line.from, frontMatterLine)
    pos = line.to + 1
  }
  return builder.finish()
}

/** Line decorations `build` computes, again whenever the text, the viewport or the syntax tree changes. */
function lineDecorations(build: (view: EditorView) => DecorationSet) {
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet
      constructor(view: EditorView) {
        this.decorations = build(view)
      }
      update(update: ViewUpdate) {
        if (update.docChanged || update.viewportChanged || syntaxTree(update.startState) !== syntaxTree(update.state))
          this.decorations = build(update.view)
      }
    },
    { decorations: (plugin) => plugin.decorations }
  )
}

const frontMatterLines = lineDecorations(frontMatterDecorations)

const blockTagLine = Decoration.line({ class: 'cm-blockTag' })
const CODE = new Set(['FencedCode', 'CodeBlock'])

/** Tag lines in view, outside code (where a tag is just text). */
function blockTagDecorations(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>()
  const { doc } = view.state
  const tree = syntaxTree(view.state)
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to;) {
      const line = doc.lineAt(pos)
      if (line.text.includes('{%') && parseBlockTag(line.text.replace(/^(?:[ \t]*>)*/, ''))) {
        let inCode = false
        for (let node: ReturnType<typeof tree.resolveInner> | null = tree.resolveInner(line.from, 1); node && !inCode; node = node.parent)
          inCode = CODE.has(node.name)
        if (!inCode) builder.add(line.from, line.from, blockTagLine)
      }
      pos = line.to + 1
    }
  }
  return builder.finish()
}

const blockTagLines = lineDecorations(blockTagDecorations)

export const markdownLanguage = [markdown({ extensions: [frontMatterBlock] }), frontMatterLines, blockTagLines]
