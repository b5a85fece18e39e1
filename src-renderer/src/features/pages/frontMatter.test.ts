import { describe, expect, it } from 'vitest'
import { readFrontMatter } from './frontMatter.ts'

describe('front matter', () => {
  it('is absent when the page does not start with ---', () => {
    expect(readFrontMatter('# Hi\n---\nx: 1\n---')).toEqual({ present: false, entries: [] })
  })

  it('lists keys and values', () => {
    const fm = readFrontMatter('---\ntitle: Guide\ntags: [a, b]\ndraft: true\nmeta:\n  x: 1\n---\n# Body')
    expect(fm.error).toBeUndefined()
    expect(fm.entries).toEqual([
      { key: 'title', value: 'Guide' },
      { key: 'tags', value: 'a, b' },
      { key: 'draft', value: 'true' },
      { key: 'meta', value: '{ x: 1 }' }
    ])
  })

  it('accepts an empty block', () => {
    expect(readFrontMatter('---\n---\ntext')).toEqual({ present: true, entries: [] })
  })

  it('reports a YAML error with its line in the page', () => {
    const fm = readFrontMatter('---\ntitle: ok\nbad: [1, 2\n---\n')
    expect(fm.present).toBe(true)
    expect(fm.error?.message).toBeTruthy()
    expect(fm.error?.message).not.toMatch(/at line/)
    expect(fm.error?.line).toBe(3)
  })

  it('refuses a block that is not a mapping', () => {
    expect(readFrontMatter('---\n- a\n- b\n---\n').error?.message).toMatch(/key: value/)
  })
})
