import { describe, expect, it } from 'vitest'
import { asciiSlug, headingIds, isSlug, slugFollowsTitle, slugify } from './slug'

describe('slugify', () => {
  it('keeps the letters of every script, lower-case, dashes between words, no punctuation', () => {
    expect(slugify('Größe 文档')).toBe('größe-文档')
    expect(slugify('GRÖSSE')).toBe('grösse')
    expect(slugify('Привет, мир!')).toBe('привет-мир')
    expect(slugify('Ελληνικά κείμενα')).toBe('ελληνικά-κείμενα')
    expect(slugify('مرحبا بالعالم')).toBe('مرحبا-بالعالم')
    expect(slugify('東京のラーメン屋「一番」')).toBe('東京のラーメン屋-一番')
    expect(slugify('한국어 문서')).toBe('한국어-문서')
    expect(slugify('हिन्दी पाठ')).toBe('हिन्दी-पाठ')
    expect(slugify('  Getting   started (v2.0)! ')).toBe('getting-started-v2-0')
    expect(slugify('🎉 ?!')).toBe('')
  })

  it('composes what was typed decomposed, and cuts at a character, never inside one', () => {
    expect(slugify('Gro\u0308\u00dfe')).toBe('größe')
    expect(slugify('𠀋𠀋𠀋', 2)).toBe('𠀋𠀋')
    expect(slugify('ab cd', 3)).toBe('ab')
  })

  it('gives headings anchors with their letters, numbered when repeated', () => {
    const idOf = headingIds()
    expect([idOf('Größe 文档'), idOf('Größe 文档'), idOf('!!')]).toEqual(['größe-文档', 'größe-文档-1', 'section'])
  })
})

describe('asciiSlug', () => {
  it('keeps ASCII letters and digits only, accents dropped', () => {
    expect(asciiSlug('Product Handbook (EN)')).toBe('product-handbook-en')
    expect(asciiSlug('Café Größe 文档')).toBe('cafe-grosse')
  })
})

describe('isSlug', () => {
  it('accepts what slugify makes, in any script, and refuses capitals, spaces, slashes and stray dashes', () => {
    for (const title of ['Größe 文档', 'Привет, мир!', 'हिन्दी पाठ', 'Getting started (v2.0)']) expect(isSlug(slugify(title))).toBe(true)
    for (const bad of ['', 'Getting-started', 'two words', 'a/b', '-a', 'a-', 'a--b', 'a_b', 'x'.repeat(101), 'gro\u0308sse']) {
      expect(isSlug(bad), bad).toBe(false)
    }
  })
})

describe('slugFollowsTitle', () => {
  it('is true for the slug of the title, with or without the suffix that kept it unique, and false for a slug given by hand', () => {
    expect(slugFollowsTitle('untitled', 'Untitled')).toBe(true)
    expect(slugFollowsTitle('setup-2', 'Setup')).toBe(true)
    expect(slugFollowsTitle('page', '🎉')).toBe(true)
    expect(slugFollowsTitle('install', 'Setup')).toBe(false)
    expect(slugFollowsTitle('setup-x', 'Setup')).toBe(false)
  })
})
