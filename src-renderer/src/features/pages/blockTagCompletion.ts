// Completion of GitBook's block tags in the page editor: typing `{%` at the start of a line offers the tags the
// previews read (src-shared/blockTags.ts) as snippets with their end tags, and an include for each reusable
// content of the revision, by the path the tag must write from this page. Pure: tested in Node.
import { insertCompletionText, snippetCompletion, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete'
import type { EditorState } from '@codemirror/state'
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

const HINTS = [
  ['info', 'Hint (info)'],
  ['success', 'Hint (success)'],
  ['warning', 'Hint (warning)'],
  ['danger', 'Hint (danger)'],
] as const

/**
 * The tags offered, as snippets: `${}` fields are filled in turn with Tab. A label is the tag as written, since
 * the completion filters labels by what was typed (`{% hi`); the display label says what it makes.
 */
const TAGS: Completion[] = [
  ...HINTS.map(([style, label]) =>
    snippetCompletion(`{% hint style="${style}" %}\n\${}\n{% endhint %}`, { label: `{% hint style="${style}" %}`, displayLabel: label, type: 'keyword' }),
  ),
  snippetCompletion('{% tabs %}\n{% tab title="${First}" %}\n${}\n{% endtab %}\n{% tab title="${Second}" %}\n\n{% endtab %}\n{% endtabs %}', {
    label: '{% tabs %}', displayLabel: 'Tabs', type: 'keyword',
  }),
  snippetCompletion('{% code title="${file}" %}\n```${}\n\n```\n{% endcode %}', { label: '{% code title %}', displayLabel: 'Code block with a title', type: 'keyword' }),
  snippetCompletion('{% stepper %}\n{% step %}\n${}\n{% endstep %}\n{% endstepper %}', { label: '{% stepper %}', displayLabel: 'Steps', type: 'keyword' }),
  snippetCompletion('{% columns %}\n{% column %}\n${}\n{% endcolumn %}\n{% column %}\n\n{% endcolumn %}\n{% endcolumns %}', { label: '{% columns %}', displayLabel: 'Columns', type: 'keyword' }),
  snippetCompletion('{% embed url="${https://}" %}', { label: '{% embed url %}', displayLabel: 'Embed a URL', type: 'keyword' }),
  snippetCompletion('{% file src="${}" %}', { label: '{% file src %}', displayLabel: 'File', type: 'keyword' }),
  snippetCompletion('{% content-ref url="${page}" %}\n[${title}](${})\n{% endcontent-ref %}', { label: '{% content-ref url %}', displayLabel: 'Page link card', type: 'keyword' }),
]

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
    },
  }
}

/** `{%` and what follows it of a tag's name, alone on its line (after indentation or quote markers). */
const TYPED = /^(?:[ \t]*>)*[ \t]*\{%[ \t]*[\w-]*$/

/**
 * A CodeMirror completion source for block tags. `includes` gives the reusable contents a page may include: read
 * when the completion opens (the editor fetches them then, once), and offered only if they come.
 */
export function blockTagCompletionSource(includes: () => Promise<IncludeTarget[]>): (context: CompletionContext) => Promise<CompletionResult | null> {
  return async (context) => {
    const line = context.state.doc.lineAt(context.pos)
    const before = line.text.slice(0, context.pos - line.from)
    if (!TYPED.test(before)) return null
    const from = line.from + before.indexOf('{%')
    const found = await includes().catch(() => [])
    const options = [
      ...TAGS,
      ...found.map<Completion>((c) => ({ label: `{% include "${c.path}" %}`, displayLabel: `Include “${c.title}”`, detail: c.path, type: 'variable' })),
    ].map(overClosingBrace)
    return { from, options, validFor: /^\{%[ \t]*[\w-]*$/ }
  }
}
