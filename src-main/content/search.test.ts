import { describe, expect, it } from 'vitest'
import { buildSearchQuery, excerpt, EXCERPT_LENGTH, MAX_TERMS } from './search'

describe('buildSearchQuery', () => {
  it('quotes every word and matches the last one as a prefix', () => {
    expect(buildSearchQuery('install guide')?.match).toBe('"install" "guide"*')
    expect(buildSearchQuery('install guide ')?.match).toBe('"install" "guide"')
    expect(buildSearchQuery('go')?.match).toBe('"go"')
    expect(buildSearchQuery('api')?.match).toBe('"api"*')
  })

  it('never passes FTS5 syntax through', () => {
    expect(buildSearchQuery('title:foo OR "bar* NEAR(baz)')?.match).toBe('"title" "foo" "OR" "bar" "NEAR" "baz"')
    expect(buildSearchQuery('-x ^y')?.match).toBe('"x" "y"')
    expect(buildSearchQuery('"" * () : !!')).toBeUndefined()
    expect(buildSearchQuery('a a a')?.terms).toEqual(['a'])
  })

  it('keeps letters of every script and bounds the number of terms', () => {
    expect(buildSearchQuery('Grüße 東京')?.terms).toEqual(['Grüße', '東京'])
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')
    expect(buildSearchQuery(many)?.terms).toHaveLength(MAX_TERMS)
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
