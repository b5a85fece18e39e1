import { describe, expect, it } from 'vitest'
import { imageUrlsOf, rewriteUrls } from './rewriteUrls'

const map = (url: string) => ({ 'https://site/a': '/a', 'https://site/a#x': '/a#x', 'https://site/i.png': '/files/f1' })[url]

describe('rewriteUrls', () => {
  it('splices the destinations of links, images and definitions, keeping titles and text', () => {
    const md =
      '[A *b*](https://site/a "T") and ![pic](<https://site/i.png>)\n\n[ref][r] ![r2][img]\n\n[r]: https://site/a#x \'t\'\n[img]:\n  https://site/i.png\n'
    expect(rewriteUrls(md, map)).toBe(
      '[A *b*](/a "T") and ![pic](</files/f1>)\n\n[ref][r] ![r2][img]\n\n[r]: /a#x \'t\'\n[img]:\n  /files/f1\n'
    )
  })

  it('leaves code, plain text, raw HTML and unknown URLs alone', () => {
    const md = '```\n[x](https://site/a)\n```\n\n`[y](https://site/a)` https://site/b <a href="https://site/a">z</a> [w](https://site/b)\n'
    expect(rewriteUrls(md, map)).toBe(md)
  })

  it('finds the destination after an alt holding brackets, nested images and escapes', () => {
    expect(rewriteUrls('![a [b](c) d](https://site/i.png)', map)).toBe('![a [b](c) d](/files/f1)')
    expect(rewriteUrls('[![i](https://site/i.png)](https://site/a)', map)).toBe('[![i](/files/f1)](/a)')
    expect(rewriteUrls('[a\\]](https://site/a) [`](`](https://site/a)', map)).toBe('[a\\]](/a) [`](`](/a)')
    expect(rewriteUrls('| l |\n|---|\n| [x](https://site/a) |\n', map)).toBe('| l |\n|---|\n| [x](/a) |\n')
  })

  it('turns an autolink to a known URL into a link keeping its text', () => {
    expect(rewriteUrls('see <https://site/a> or https://site/a.', map)).toBe('see [https://site/a](/a) or [https://site/a](/a).')
  })

  it('escapes what would end the destination', () => {
    expect(rewriteUrls('[x](https://site/a)', () => '/p#(a b)')).toBe('[x](/p#\\(a%20b\\))')
  })
})

describe('imageUrlsOf', () => {
  it('lists images and the definitions image references use, each once', () => {
    const md = '![a](https://x/1.png) ![b](https://x/1.png) [l](https://x/page) ![c][r]\n\n[r]: https://x/2.png\n[s]: https://x/3.png\n'
    expect(imageUrlsOf(md)).toEqual(['https://x/1.png', 'https://x/2.png'])
  })
})
