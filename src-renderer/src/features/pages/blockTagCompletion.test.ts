import { CompletionContext } from '@codemirror/autocomplete'
import { EditorState } from '@codemirror/state'
import type { EditorView } from '@codemirror/view'
import { describe, expect, it } from 'vitest'
import { includePath } from '../../../../src-shared/blockTags.ts'
import { blockTagCompletionSource, includeTargets } from './blockTagCompletion.ts'

const contents = [
  { title: 'Support', markdown: 'x', gitPath: '.gitbook/includes/support.md' },
  { title: 'Made here', markdown: 'y' }
]

describe('block tag completion', () => {
  it('offers includes by the path the tag writes from the page, and that path leads back to the content', () => {
    for (const pagePath of ['guide/setup/linux.md', 'README.md', undefined]) {
      const [target] = includeTargets(contents, pagePath)
      expect(includePath(pagePath, target!.path)).toBe('.gitbook/includes/support.md')
    }
    expect(includeTargets(contents, 'guide/setup.md')).toEqual([{ title: 'Support', path: '../.gitbook/includes/support.md' }])
    expect(includeTargets(contents, '.gitbook/other.md')).toEqual([{ title: 'Support', path: 'includes/support.md' }])
  })

  it('completes after {% at the start of a line (or a quote), with labels the typed text filters', async () => {
    const source = blockTagCompletionSource(async () => includeTargets(contents, 'guide/setup.md'))
    const at = (doc: string) => source(new CompletionContext(EditorState.create({ doc }), doc.length, false))
    const result = await at('Intro\n{% hi')
    expect(result?.from).toBe('Intro\n'.length)
    const labels = result!.options.map((o) => o.label)
    expect(labels).toEqual(
      expect.arrayContaining([
        '{% hint style="info" %}',
        '{% hint style="danger" %}',
        '{% tabs %}',
        '{% include "../.gitbook/includes/support.md" %}'
      ])
    )
    // Every label starts as the typed text does, so CodeMirror's filter keeps what fits.
    expect(labels.every((label) => label.startsWith('{% '))).toBe(true)
    expect((await at('> {%'))?.from).toBe(2)
    expect(await at('Some text {%')).toBeNull()
    expect(await at('{% hint %} more')).toBeNull()
    // Reusable contents that cannot be read leave the tags offered.
    const failing = blockTagCompletionSource(() => Promise.reject(new Error('offline')))
    expect((await failing(new CompletionContext(EditorState.create({ doc: '{%' }), 2, false)))?.options.length).toBeGreaterThan(8)
  })

  it('replaces the } that typing { closed with, and nothing else after the cursor', async () => {
    const source = blockTagCompletionSource(async () => includeTargets(contents, 'guide/setup.md'))
    const pick = async (doc: string, pos: number, label: string) => {
      const state = EditorState.create({ doc, selection: { anchor: pos } })
      const result = (await source(new CompletionContext(state, pos, false)))!
      const option = result.options.find((o) => o.label === label)!
      let next = state
      const view = {
        state,
        dispatch: (spec: Parameters<EditorState['update']>[0]) => (next = state.update(spec).state)
      } as unknown as EditorView
      ;(option.apply as (v: EditorView, c: typeof option, from: number, to: number) => void)(view, option, result.from, pos)
      return next.doc.toString()
    }
    const include = '{% include "../.gitbook/includes/support.md" %}'
    expect(await pick('{% inc}', 6, include)).toBe(include)
    expect(await pick('{% inc} tail', 6, include)).toBe(`${include}} tail`)
  })
})
