import { describe, expect, it } from 'vitest'
import { isLocalPreviewUrl, localSchemeRequest } from './localScheme'

describe('quire://local requests', () => {
  it('forwards file downloads, the site preview and integration assets to the backend, path and query kept', () => {
    const req = localSchemeRequest(
      'quire://local/files/s1/r1/f1/logo.png?token=abc',
      'GET',
      new Headers({ range: 'bytes=0-9', cookie: 'x' })
    )
    expect(req?.url).toBe('http://quire.localhost/files/s1/r1/f1/logo.png?token=abc')
    expect(req?.headers.get('range')).toBe('bytes=0-9')
    expect(req?.headers.get('cookie')).toBeNull()
    expect(localSchemeRequest('quire://local/preview/sites/site1/docs/intro', 'GET', new Headers())?.url).toBe(
      'http://quire.localhost/preview/sites/site1/docs/intro'
    )
    expect(localSchemeRequest('quire://local/integrations/acme/assets/abc123', 'HEAD', new Headers())?.method).toBe('HEAD')
    // "Export as PDF" saves the signed address GET …/pdf answers.
    expect(localSchemeRequest('quire://local/pdf/s1/r1/Guide.pdf?page=p1&only=true&token=abc', 'GET', new Headers())?.url).toBe(
      'http://quire.localhost/pdf/s1/r1/Guide.pdf?page=p1&only=true&token=abc'
    )
  })

  it('refuses the API, writes, other hosts and other paths', () => {
    expect(localSchemeRequest('quire://local/v1/orgs', 'GET', new Headers())).toBeUndefined()
    expect(localSchemeRequest('quire://local/files/s1/r1/f1/a.png', 'POST', new Headers())).toBeUndefined()
    expect(localSchemeRequest('quire://other/preview/sites/x', 'GET', new Headers())).toBeUndefined()
    expect(localSchemeRequest('quire://local/files/../v1/orgs', 'GET', new Headers())).toBeUndefined()
    expect(localSchemeRequest('quire://local/pdf/s1/r1/a/b.pdf', 'GET', new Headers())).toBeUndefined()
    expect(localSchemeRequest('not a url', 'GET', new Headers())).toBeUndefined()
  })

  it('knows preview pages from the rest', () => {
    expect(isLocalPreviewUrl('quire://local/preview/sites/s/x')).toBe(true)
    expect(isLocalPreviewUrl('quire://local/files/a/b/c/d')).toBe(false)
    expect(isLocalPreviewUrl('https://example.com/preview/sites/s')).toBe(false)
  })
})
