import { describe, expect, it } from 'vitest'
import { highlight, searchPattern } from './searchHighlight.ts'

const marked = (text: string, query: string) =>
  highlight(text, searchPattern(query))
    .filter((p) => p.hit)
    .map((p) => p.text)

describe('search highlight', () => {
  it('marks every term as a whole word, and the last one as a prefix while it is typed', () => {
    expect(marked('Install the installer, then reinstall.', 'install')).toEqual(['Install', 'install'])
    expect(marked('Install the installer, then reinstall.', 'install ')).toEqual(['Install'])
    expect(marked('Deploy the app; the deployment app runs.', 'app deploy')).toEqual(['Deploy', 'app', 'deploy', 'app'])
    // Only the last term is a prefix: "app" is a whole word here.
    expect(marked('apples and apps', 'app dep')).toEqual([])
  })

  it('keeps the text whole, in order, around the marks', () => {
    const parts = highlight('See Setup: set up the setup.', searchPattern('setup'))
    expect(parts.map((p) => p.text).join('')).toBe('See Setup: set up the setup.')
    expect(parts.filter((p) => p.hit)).toHaveLength(2)
  })

  it('treats the query as words, never as a pattern', () => {
    expect(marked('a (b) c.* d', '(b) .*')).toEqual(['b'])
    expect(searchPattern('  ?! ')).toBeNull()
    expect(highlight('text', null)).toEqual([{ text: 'text', hit: false }])
  })

  it('matches letters beyond ASCII, ignoring case', () => {
    // A prefix marks what was typed of the word.
    expect(marked('Über Straße und ÜBERALL', 'über')).toEqual(['Über', 'ÜBER'])
    // A 2-letter last term is whole only, as the server matches it.
    expect(marked('go golang', 'go')).toEqual(['go'])
  })

  it('marks CJK words inside running text, ß and ss alike, and a quoted phrase by its words', () => {
    expect(marked('这是一个文档系统', '文档')).toEqual(['文档'])
    expect(marked('東京のラーメン屋', 'ラーメン')).toEqual(['ラーメン'])
    expect(marked('Die Straße und die STRASSE', 'strasse ')).toEqual(['Straße', 'STRASSE'])
    expect(marked('Read the install guide', '"install guide"')).toEqual(['install', 'guide'])
  })
})
