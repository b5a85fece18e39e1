import { describe, expect, it } from 'vitest'
import { renderMarkdown } from './markdown.ts'
import { insertMention, mentionMarkdown, mentionQueryAt, mentionedUserId } from './mentions.ts'

describe('mentionQueryAt', () => {
  it('finds the @word at the caret, at the start or after a space', () => {
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' })
    expect(mentionQueryAt('Hi @an', 6)).toEqual({ start: 3, query: 'an' })
    expect(mentionQueryAt('Hi (@an', 7)).toEqual({ start: 4, query: 'an' })
    expect(mentionQueryAt('Hi @an and', 6)).toEqual({ start: 3, query: 'an' })
  })

  it('ignores an e-mail address, a finished word, and text after the caret', () => {
    expect(mentionQueryAt('ann@example', 11)).toBeNull()
    expect(mentionQueryAt('Hi @ann ', 8)).toBeNull()
    expect(mentionQueryAt('Hi there', 8)).toBeNull()
    expect(mentionQueryAt(`@${'x'.repeat(41)}`, 42)).toBeNull()
  })
})

describe('insertMention', () => {
  it('replaces the @word with the mention link and a space, caret after it', () => {
    const user = { id: 'u1', name: 'Ann Lee' }
    expect(insertMention('Hi @an', 3, 6, user)).toEqual({ text: 'Hi [@Ann Lee](mention:u1) ', caret: 26 })
    expect(insertMention('@a please', 0, 2, user)).toEqual({ text: '[@Ann Lee](mention:u1) please', caret: 23 })
  })

  it('escapes brackets in a name', () => {
    expect(mentionMarkdown({ id: 'u 2', name: 'Bo [ops]' })).toBe('[@Bo \\[ops\\]](mention:u%202)')
  })
})

describe('mentionedUserId', () => {
  it('reads the id from a mention address only', () => {
    expect(mentionedUserId('mention:u%202')).toBe('u 2')
    expect(mentionedUserId('mention:')).toBeNull()
    expect(mentionedUserId('https://example.com')).toBeNull()
  })
})

describe('rendering', () => {
  it('draws a mention as a chip with the user id, and keeps it through the sanitizer', () => {
    const html = renderMarkdown(`Ping ${mentionMarkdown({ id: 'u1', name: 'Ann Lee' })} please`)
    expect(html).toBe('<p>Ping <span class="mention" data-user-id="u1">@Ann Lee</span> please</p>')
  })

  it('does not let other markdown make a chip', () => {
    expect(renderMarkdown('[x](javascript:alert(1))')).not.toContain('mention')
    expect(renderMarkdown('<span class="mention">@x</span>')).not.toContain('span')
  })
})
