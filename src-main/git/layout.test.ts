import { describe, expect, it } from 'vitest'
import { isBranchRef, parseRemote, providerOf, redact, repoNameOf } from './remote'
import { parseSummary, writeSummary, type SummaryEntry } from './summary'
import { readLayout } from './layout'

describe('remote URLs', () => {
  it('splits credentials off http URLs and keeps them out of what is shown', () => {
    const remote = parseRemote('https://bot:p%40ss-word@github.com/acme/docs.git')
    expect(remote).toEqual({ kind: 'http', url: 'https://github.com/acme/docs.git', auth: { username: 'bot', password: 'p@ss-word' } })
    expect(providerOf(remote)).toBe('github')
    expect(repoNameOf(remote)).toBe('acme/docs')
    expect(redact('failed https://bot:p%40ss-word@github.com/x and p@ss-word', remote)).toBe('failed https://github.com/x and ***')
    expect(providerOf(parseRemote('https://gitlab.com/a/b'))).toBe('gitlab')
    expect(providerOf(parseRemote('https://gitlab.example.org/a/b'))).toBe('gitlab')
    expect(providerOf(parseRemote('https://git.example.org/a/b'))).toBe('git')
    expect(providerOf(parseRemote('/srv/repos/docs.git'))).toBe('git')
    expect(repoNameOf(parseRemote('file:///srv/repos/docs.git'))).toBe('docs')
  })

  it('accepts branch refs only, with names git accepts', () => {
    for (const ok of ['refs/heads/main', 'refs/heads/feature/docs-1', 'refs/heads/v1.2']) expect(isBranchRef(ok), ok).toBe(true)
    for (const bad of [
      'main',
      'refs/tags/v1',
      'refs/heads/',
      'refs/heads/a..b',
      'refs/heads/a b',
      'refs/heads/x.lock',
      'refs/heads/.hidden',
      'refs/heads/a//b',
      'refs/heads/a~1'
    ]) {
      expect(isBranchRef(bad), bad).toBe(false)
    }
  })
})

describe('SUMMARY.md', () => {
  it('reads nested lists, groups, external links and plain entries', () => {
    const entries = parseSummary(
      '# Table of contents\n\n* [Intro](README.md)\n* [Guide](guide/README.md#top)\n  * [A *b*](guide/a%20b.md)\n\n## Reference\n\n* [API](<api/index.md>)\n* [Site](https://example.com)\n* Plain\n'
    )
    expect(entries).toEqual([
      { title: 'Intro', target: 'README.md', children: [] },
      { title: 'Guide', target: 'guide/README.md', children: [{ title: 'A b', target: 'guide/a b.md', children: [] }] },
      {
        title: 'Reference',
        group: true,
        children: [
          { title: 'API', target: 'api/index.md', children: [] },
          { title: 'Site', href: 'https://example.com', children: [] },
          { title: 'Plain', children: [] }
        ]
      }
    ])
  })

  it('writes what it reads back the same, titles with markdown punctuation included', () => {
    const entries: SummaryEntry[] = [
      { title: 'Home', target: 'README.md', children: [] },
      {
        title: 'API [v2] *beta* & <more>',
        target: 'api (v2)/README.md',
        children: [{ title: 'Auth_flow #1', target: 'api (v2)/auth.md', children: [] }]
      },
      { title: 'Links', group: true, children: [{ title: 'Site', href: 'https://example.com/a b', children: [] }] }
    ]
    const text = writeSummary(entries)
    expect(parseSummary(text)).toEqual([
      entries[0],
      entries[1],
      { ...entries[2], children: [{ title: 'Site', href: 'https://example.com/a%20b', children: [] }] }
    ])
  })
})

describe('.gitbook.yaml', () => {
  it('reads root and structure relative to the project folder, and refuses paths out of it', () => {
    expect(readLayout('', undefined)).toMatchObject({
      root: '',
      readme: 'README.md',
      summary: 'SUMMARY.md',
      configPath: '.gitbook.yaml',
      hasConfig: false
    })
    expect(readLayout('packages/docs', 'root: ./content/\nstructure:\n  readme: intro.md\n  summary: toc/SUMMARY.md\n')).toMatchObject({
      root: 'packages/docs/content',
      readme: 'intro.md',
      summary: 'toc/SUMMARY.md',
      configPath: 'packages/docs/.gitbook.yaml',
      hasConfig: true
    })
    expect(() => readLayout('', 'root: ../../etc\n')).toThrow(/inside the repository/)
    expect(() => readLayout('', 'root: [unclosed\n')).toThrow(/not valid YAML/)
  })
})
