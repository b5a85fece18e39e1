import { describe, expect, it } from 'vitest'
import { buildSearchQuery, excerpt, EXCERPT_LENGTH, MAX_TERMS } from './search'
import { indexedText, spellings, WORD_BREAK } from './searchText'

describe('buildSearchQuery', () => {
  it('quotes every word and matches the last one as a prefix', () => {
    expect(buildSearchQuery('install guide')?.match).toBe('"install" AND "guide"*')
    expect(buildSearchQuery('install guide ')?.match).toBe('"install" AND "guide"')
    expect(buildSearchQuery('go')?.match).toBe('"go"')
    expect(buildSearchQuery('api')?.match).toBe('"api"*')
  })

  it('never passes FTS5 syntax through', () => {
    expect(buildSearchQuery('title:foo OR "bar* NEAR(baz)')?.match).toBe('"title" AND "foo" AND "OR" AND "bar" AND "NEAR" AND "baz"')
    expect(buildSearchQuery('-x ^y')?.match).toBe('"x" AND "y"')
    expect(buildSearchQuery('"" * () : !!')).toBeUndefined()
    expect(buildSearchQuery('a a a')?.terms).toEqual(['a'])
  })

  it('keeps letters of every script and bounds the number of terms', () => {
    expect(buildSearchQuery('Grüße 東京')?.terms).toEqual(['Grüße', '東京'])
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')
    expect(buildSearchQuery(many)?.terms).toHaveLength(MAX_TERMS)
  })
})

describe('buildSearchQuery in every language', () => {
  it('keeps a quoted phrase together, its words adjacent', () => {
    expect(buildSearchQuery('"install guide" first')?.match).toBe('"install guide" AND "first"*')
    expect(buildSearchQuery('first "install guide"')?.match).toBe('"first" AND "install guide"')
    // A quoted word is whole; an open quote is no phrase.
    expect(buildSearchQuery('"install"')?.match).toBe('"install"')
    expect(buildSearchQuery('"install guide')?.match).toBe('"install" AND "guide"*')
  })

  it('matches a run of CJK characters as a phrase of single characters, never as a prefix', () => {
    expect(buildSearchQuery('文档')?.match).toBe('"文 档"')
    expect(buildSearchQuery('API文档 ラーメン')?.match).toBe('"API 文 档" AND "ラ ー メ ン"')
    expect(buildSearchQuery('문서')?.match).toBe('"문 서"')
    expect(buildSearchQuery('文'.repeat(100))?.match).toBe(`"${Array(32).fill('文').join(' ')}"`)
  })

  it('looks a word with ß or ss up in both spellings', () => {
    expect(buildSearchQuery('Straße ')?.match).toBe('("strasse" OR "straße")')
    expect(buildSearchQuery('GRÖSSE')?.match).toBe('("grösse"* OR "größe"*)')
    expect(buildSearchQuery('"die Straße"')?.match).toBe('("die strasse" OR "die straße")')
    expect(spellings('Messestrasse')).toEqual(['messestrasse', 'meßestrasse', 'messestraße', 'meßestraße'])
    expect(spellings('Haus')).toEqual(['Haus'])
  })

  it('finds the words for the excerpt inside CJK text and in either ß spelling', () => {
    expect(buildSearchQuery('文档')!.pattern.exec('这是一个文档系统')?.index).toBe(4)
    expect(buildSearchQuery('Strasse')!.pattern.exec('In der Straße')?.index).toBe(7)
    expect(buildSearchQuery('Größe')!.pattern.exec('Die GRÖSSE')?.index).toBe(4)
  })
})

describe('indexed text', () => {
  it('sets CJK characters apart for the index, adding only break characters', () => {
    expect(indexedText('Plain text stays')).toBe('Plain text stays')
    expect(indexedText('API文档 ok')).toBe('API\x1f文\x1f档 ok')
    expect(indexedText('東京のラーメン')).toBe('東\x1f京\x1fの\x1fラ\x1fー\x1fメ\x1fン')
    for (const text of ['API文档 ok', '東京のラーメン。한국어 문서', 'Plain'])
      expect(indexedText(text).replaceAll(WORD_BREAK, '')).toBe(text)
  })
})

describe('excerpt', () => {
  const pattern = (text: string) => buildSearchQuery(text)!.pattern
  it('returns short text whole and cuts long text around the first match', () => {
    expect(excerpt('  short\n text ', pattern('text'))).toBe('short text')
    // Every whitespace run, and any single whitespace character other than a space, becomes one space.
    expect(excerpt('one\u00a0two \n three\tfour  five\r\nsix', pattern('two'))).toBe('one two three four five six')
    const long = `${'lorem '.repeat(100)}needle ${'ipsum '.repeat(100)}`
    const cut = excerpt(long, pattern('needle'))
    expect(cut.startsWith('…')).toBe(true)
    expect(cut.endsWith('…')).toBe(true)
    expect(cut).toContain('needle')
    expect(cut.length).toBeLessThanOrEqual(EXCERPT_LENGTH + 2)
    expect(excerpt(long, pattern('absent')).startsWith('lorem')).toBe(true)
  })

  it('finds a match deep in a long section, whole words, whitespace runs folded, the match not taken from inside a word', () => {
    const body = `Intro\n\n${'alpha   beta\tgamma\n'.repeat(400)}xneedle and then the needle itself\n${'delta epsilon '.repeat(300)}`
    const cut = excerpt(body, pattern('needle'))
    expect(cut.startsWith('…')).toBe(true)
    expect(cut.endsWith('…')).toBe(true)
    expect(cut).toContain('the needle itself')
    expect(cut).not.toMatch(/\s{2}|\t|\n/)
    expect(cut.length).toBeLessThanOrEqual(EXCERPT_LENGTH + 2)
    // The match is where the word starts (not inside "xneedle"): the excerpt starts at most a quarter before it.
    expect(cut.indexOf('the needle')).toBeLessThan(EXCERPT_LENGTH / 4 + 12)
  })

  it('cuts a body of a few hundred characters around a match past its first excerpt length', () => {
    const body = `${'lorem  ipsum\n'.repeat(30)}the needle here ${'dolor sit '.repeat(30)}`
    expect(body.length).toBeLessThan(EXCERPT_LENGTH * 4)
    const cut = excerpt(body, pattern('needle'))
    expect(cut).toMatch(/^…(lorem|ipsum) .*the needle here dolor .*…$/)
    expect(cut).not.toMatch(/\s{2}|\n/)
    expect(cut.length).toBeLessThanOrEqual(EXCERPT_LENGTH + 2)
    expect(cut.indexOf('the needle')).toBeLessThan(EXCERPT_LENGTH / 4 + 12)
  })
})
