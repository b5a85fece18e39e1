import { describe, expect, it } from 'vitest'
import { DEFAULT_LAYOUT } from '../../../../src-shared/pageSettings.ts'
import { readPageSettings, withPageSetting } from './pageSettingsEdit.ts'

describe('page settings in the editor', () => {
  it('adds a front matter block for the first setting, and takes it out again with the last one', () => {
    const page = '# Guide\n\nText.\n'
    const hidden = withPageSetting(page, { part: 'title', visible: false })
    expect(hidden).toBe('---\nlayout:\n  title:\n    visible: false\n---\n\n# Guide\n\nText.\n')
    expect(readPageSettings(hidden).layout).toMatchObject({ title: false, description: true, outline: true })
    expect(withPageSetting(hidden, { part: 'title', visible: true })).toBe(page)
    // A default set again changes nothing.
    expect(withPageSetting(page, { part: 'outline', visible: true })).toBe(page)
    expect(withPageSetting(page, { noIndex: false })).toBe(page)
  })

  it('keeps the other keys, their comments and their order', () => {
    const page = '---\n# written by hand\ndescription: Start here # short\nlayout:\n  outline:\n    visible: false\n---\n# Guide\n'
    const next = withPageSetting(withPageSetting(page, { noIndex: true }), { part: 'pagination', visible: false })
    expect(next).toBe(
      '---\n# written by hand\ndescription: Start here # short\nlayout:\n  outline:\n    visible: false\n  pagination:\n    visible: false\nnoIndex: true\n---\n# Guide\n'
    )
    expect(readPageSettings(next)).toEqual({
      layout: { ...DEFAULT_LAYOUT, outline: false, pagination: false },
      noIndex: true,
      hidden: false,
      description: 'Start here',
      cover: undefined,
      writable: true
    })
    // Back to the defaults: the block keeps what the writer put there, and only that.
    const back = withPageSetting(withPageSetting(withPageSetting(next, { noIndex: false }), { part: 'pagination', visible: true }), {
      part: 'outline',
      visible: true
    })
    expect(back).toBe('---\n# written by hand\ndescription: Start here # short\n---\n# Guide\n')
  })

  it('rewrites a part written as a bare boolean in the Git format', () => {
    const next = withPageSetting('---\nlayout:\n  outline: false\n---\nText\n', { part: 'outline', visible: false })
    expect(next).toBe('---\nlayout:\n  outline:\n    visible: false\n---\nText\n')
  })

  it('leaves front matter it cannot edit alone, and says so', () => {
    for (const page of ['---\ntitle: [\n---\nText\n', '---\n- a\n- b\n---\nText\n']) {
      expect(readPageSettings(page).writable).toBe(false)
      expect(withPageSetting(page, { noIndex: true })).toBe(page)
    }
    expect(withPageSetting('---\n---\nText\n', { noIndex: true })).toBe('---\nnoIndex: true\n---\nText\n')
  })

  it('writes the description, hidden and the cover with its size, and takes each out when cleared', () => {
    const page = '# Guide\n'
    let next = withPageSetting(page, { description: '  What this covers  ' })
    next = withPageSetting(next, { hidden: true })
    next = withPageSetting(next, { cover: '/files/abc' })
    next = withPageSetting(next, { coverSize: 'hero' })
    next = withPageSetting(next, { part: 'cover', visible: false })
    expect(next).toBe(
      '---\ndescription: What this covers\nhidden: true\ncover: /files/abc\nlayout:\n  cover:\n    size: hero\n    visible: false\n---\n\n# Guide\n'
    )
    expect(readPageSettings(next)).toMatchObject({
      description: 'What this covers',
      hidden: true,
      cover: '/files/abc',
      layout: { cover: false, coverSize: 'hero' }
    })
    let back = withPageSetting(next, { part: 'cover', visible: true })
    back = withPageSetting(back, { coverSize: 'full' })
    back = withPageSetting(back, { cover: null })
    back = withPageSetting(back, { hidden: false })
    back = withPageSetting(back, { description: '' })
    expect(back).toBe(page)
  })
})
