import { describe, expect, it } from 'vitest'
import { firstAfter, resolveLink } from './links'

const resolver = {
  pathsById: new Map([
    ['g', 'guide'],
    ['i', 'guide/install'],
    ['h', 'home']
  ]),
  idsByPath: new Map([
    ['guide', 'g'],
    ['guide/install', 'i'],
    ['home', 'h']
  ]),
  hasChildren: new Set(['g']),
  fileIds: new Set(['f1']),
  filesByName: new Map([['logo.png', 'f1']]),
  appOrigins: ['http://127.0.0.1:4100']
}
const resolve = (from: string, href: string) => resolveLink(resolver, from, href)

describe('resolveLink', () => {
  it('resolves page paths relative to the page, absolute, by id, with .md and README', () => {
    expect(resolve('i', '../home')).toEqual({ status: 'ok', target: { kind: 'page', page: 'h' } })
    expect(resolve('g', './install')).toEqual({ status: 'ok', target: { kind: 'page', page: 'i' } })
    expect(resolve('g', 'home')).toEqual({ status: 'ok', target: { kind: 'page', page: 'h' } })
    expect(resolve('h', 'guide/install.md#step-2')).toEqual({ status: 'ok', target: { kind: 'page', page: 'i' } })
    expect(resolve('h', '/guide/README.md')).toEqual({ status: 'ok', target: { kind: 'page', page: 'g' } })
    expect(resolve('h', '/pages/i')).toEqual({ status: 'ok', target: { kind: 'page', page: 'i' } })
    expect(resolve('h', '/guide%2Finstall')).toEqual({ status: 'ok', target: { kind: 'page', page: 'i' } })
  })

  it('reports missing pages and files as broken', () => {
    expect(resolve('i', './nope')).toEqual({ status: 'broken', target: { kind: 'page', path: 'guide/nope' } })
    expect(resolve('h', '../../x')).toEqual({ status: 'broken', target: { kind: 'page', path: '../../x' } })
    expect(resolve('h', '/pages/zz')).toEqual({ status: 'broken', target: { kind: 'page', page: 'zz' } })
    expect(resolve('h', '/files/zz')).toEqual({ status: 'broken', target: { kind: 'file', file: 'zz' } })
    expect(resolve('h', 'img/other.png')).toEqual({ status: 'broken', target: { kind: 'file', name: 'other.png' } })
    expect(resolve('h', '/files/f1')).toEqual({ status: 'ok', target: { kind: 'file', file: 'f1' } })
    expect(resolve('h', '.gitbook/assets/logo.png')).toEqual({ status: 'ok', target: { kind: 'file', file: 'f1' } })
  })

  it('tells URLs of this app from other URLs and skips anchors', () => {
    expect(resolve('h', 'https://example.com')).toEqual({ status: 'ok', target: { kind: 'url', url: 'https://example.com' } })
    expect(resolve('h', 'http://127.0.0.1:4100/#/spaces/s')?.status).toBe('in-app')
    expect(resolve('h', 'http://127.0.0.1:4100')?.status).toBe('in-app')
    expect(resolve('h', 'http://127.0.0.1:41000/x')?.status).toBe('ok')
    expect(resolve('h', 'mailto:a@b.c')?.status).toBe('ok')
    expect(resolve('h', '#top')).toBeUndefined()
    expect(resolve('h', '')).toBeUndefined()
  })
})

describe('firstAfter', () => {
  it('finds the first item after a key', () => {
    const list = [
      ['a', 1],
      ['a', 2],
      ['b', 1]
    ] as [string, number][]
    expect(firstAfter(list, (x) => x, undefined)).toBe(0)
    expect(firstAfter(list, (x) => x, ['a', 1])).toBe(1)
    expect(firstAfter(list, (x) => x, ['a', 5])).toBe(2)
    expect(firstAfter(list, (x) => x, ['c', 0])).toBe(3)
  })
})
