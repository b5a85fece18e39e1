// Completion of GitBook's block tags in the page editor: typing `{%` at the start of a line offers the tags the
// previews read (src-shared/blockTags.ts) as snippets with their end tags, and an include for each reusable
// content of the revision, by the path the tag must write from this page. Pure: tested in Node.
import {
  insertCompletionText,
  snippet,
  snippetCompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult
} from '@codemirror/autocomplete'
import type { EditorState } from '@codemirror/state'
import type { EditorView } from '@codemirror/view'
import { relativeIncludePath, type IncludeSource } from '../../../../src-shared/blockTags.ts'

/** A reusable content a page may include: its title and the path the tag writes. */
export interface IncludeTarget {
  title: string
  path: string
}

/** The revision's reusable contents that have a Git path, as the page at `pagePath` includes them. */
export function includeTargets(contents: readonly IncludeSource[], pagePath?: string): IncludeTarget[] {
  return contents.filter((c) => c.gitPath).map((c) => ({ title: c.title, path: relativeIncludePath(pagePath, c.gitPath!) }))
}

/** A block the editor offers: the tag as written (what completion filters by), what it makes, its snippet. */
export interface BlockSnippet {
  label: string
  displayLabel: string
  /** A CodeMirror snippet: `${}` fields are filled in turn with Tab. */
  template: string
}

const HINTS = [
  ['info', 'Hint (info)'],
  ['success', 'Hint (success)'],
  ['warning', 'Hint (warning)'],
  ['danger', 'Hint (danger)']
] as const

/** The tags offered, with their end tags. */
export const BLOCK_SNIPPETS: BlockSnippet[] = [
  ...HINTS.map(([style, displayLabel]) => ({
    label: `{% hint style="${style}" %}`,
    displayLabel,
    template: `{% hint style="${style}" %}\n\${}\n{% endhint %}`
  })),
  {
    label: '{% tabs %}',
    displayLabel: 'Tabs',
    template: '{% tabs %}\n{% tab title="${First}" %}\n${}\n{% endtab %}\n{% tab title="${Second}" %}\n\n{% endtab %}\n{% endtabs %}'
  },
  {
    label: '{% code title %}',
    displayLabel: 'Code block with a title',
    template: '{% code title="${file}" %}\n```${}\n\n```\n{% endcode %}'
  },
  { label: '{% stepper %}', displayLabel: 'Steps', template: '{% stepper %}\n{% step %}\n${}\n{% endstep %}\n{% endstepper %}' },
  {
    label: '{% columns %}',
    displayLabel: 'Columns',
    template: '{% columns %}\n{% column %}\n${}\n{% endcolumn %}\n{% column %}\n\n{% endcolumn %}\n{% endcolumns %}'
  },
  { label: '{% embed url %}', displayLabel: 'Embed a URL', template: '{% embed url="${https://}" %}' },
  { label: '{% file src %}', displayLabel: 'File', template: '{% file src="${}" %}' },
  {
    label: '{% content-ref url %}',
    displayLabel: 'Page link card',
    template: '{% content-ref url="${page}" %}\n[${title}](${})\n{% endcontent-ref %}'
  }
]

/** An include of a reusable content, as a snippet (no field: the path is known). */
export const includeSnippet = (target: IncludeTarget): BlockSnippet => ({
  label: `{% include "${target.path}" %}`,
  displayLabel: `Include “${target.title}”`,
  template: `{% include "${target.path.replace(/[{}]/g, '\\$&')}" %}`
})

const TAGS: Completion[] = BLOCK_SNIPPETS.map((s) =>
  snippetCompletion(s.template, { label: s.label, displayLabel: s.displayLabel, type: 'keyword' })
)

/**
 * Puts a block at the cursor on a line of its own (after the cursor's line when that holds text), its first
 * field selected, as the toolbar's Insert menu does.
 */
export function insertBlock(view: EditorView, block: BlockSnippet): void {
  const line = view.state.doc.lineAt(view.state.selection.main.head)
  const blank = !line.text.trim()
  snippet(`${blank ? '' : '\n'}${block.template}`)(view, null, blank ? line.from : line.to, line.to)
  view.focus()
}

/** Where a tag inserted at `to` ends: past the `}` that typing `{` closed with (closeBrackets), when that is all that follows. */
function pastClosingBrace(state: EditorState, to: number): number {
  const lineEnd = state.doc.lineAt(to).to
  return /^\}[ \t]*$/.test(state.sliceDoc(to, lineEnd)) ? lineEnd : to
}

/** The completion, applied over the closing `}` too. */
function overClosingBrace(completion: Completion): Completion {
  const { apply } = completion
  return {
    ...completion,
    apply: (view, picked, from, to) => {
      const end = pastClosingBrace(view.state, to)
      if (typeof apply === 'function') apply(view, picked, from, end)
      else view.dispatch(insertCompletionText(view.state, apply ?? picked.label, from, end))
    }
  }
}

/** `{%` and what follows it of a tag's name, alone on its line (after indentation or quote markers). */
const TYPED = /^(?:[ \t]*>)*[ \t]*\{%[ \t]*[\w-]*$/

/**
 * A CodeMirror completion source for block tags. `includes` gives the reusable contents a page may include: read
 * when the completion opens (the editor fetches them then, once), and offered only if they come.
 */
export function blockTagCompletionSource(
  includes: () => Promise<IncludeTarget[]>
): (context: CompletionContext) => Promise<CompletionResult | null> {
  return async (context) => {
    const line = context.state.doc.lineAt(context.pos)
    const before = line.text.slice(0, context.pos - line.from)
    if (!TYPED.test(before)) return null
    const from = line.from + before.indexOf('{%')
    const found = await includes().catch(() => [])
    const options = [
      ...TAGS,
      ...found.map<Completion>((c) => {
        const { label, displayLabel } = includeSnippet(c)
        return { label, displayLabel, detail: c.path, apply: label, type: 'variable' }
      })
    ].map(overClosingBrace)
    return { from, options, validFor: /^\{%[ \t]*[\w-]*$/ }
  }
}
