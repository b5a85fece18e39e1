import { describe, expect, it } from 'vitest'
import { emojiText, withEmoji } from './emoji'

describe('emojiText', () => {
  it('draws code points written in hex as the emoji they name, single or a sequence', () => {
    expect(emojiText('1f4b3')).toBe('💳')
    expect(emojiText('1F4B3')).toBe('💳')
    expect(emojiText('1f468-200d-1f4bb')).toBe('👨‍💻')
    expect(emojiText('2764-fe0f')).toBe('❤️')
    expect(emojiText('1f1eb-1f1f7')).toBe('🇫🇷')
    expect(emojiText(' 1f4d8 ')).toBe('📘')
  })

  it('leaves an emoji, nothing, and what names no code point as they are', () => {
    expect(emojiText('📘')).toBe('📘')
    expect(emojiText('')).toBe('')
    expect(emojiText(null)).toBe('')
    expect(emojiText(undefined)).toBe('')
    expect(emojiText('book')).toBe('book')
    expect(emojiText('110000')).toBe('110000')
    expect(emojiText('d800')).toBe('d800')
    expect(emojiText('41')).toBe('41')
  })

  it('puts the emoji before a title in text labels', () => {
    expect(withEmoji('1f4b3', 'Billing')).toBe('💳 Billing')
    expect(withEmoji('', 'Billing')).toBe('Billing')
  })
})
