import { describe, expect, it } from 'vitest'
import { claimsOf } from './adaptiveSchema.ts'
import { audienceOf, describeAudience, hasClaims, previewAddress } from './audience.ts'

const schema = {
  type: 'object',
  properties: {
    partner: { type: 'boolean' },
    beta: { type: 'boolean' },
    unsigned: { type: 'object', properties: { staff: { type: 'boolean' } } }
  }
}

describe('the audience view', () => {
  it("offers every claim of the site's schema, off until chosen", () => {
    const claims = claimsOf(schema)
    expect(audienceOf(claims)).toEqual({
      signed: { partner: false, beta: false },
      unsigned: { staff: false }
    })
    // Values for claims the schema no longer has are dropped.
    expect(audienceOf(claims, { signed: { partner: true, gone: true } })).toEqual({
      signed: { partner: true, beta: false },
      unsigned: { staff: false }
    })
  })

  it('says which claims are on', () => {
    const audience = {
      signed: { partner: true, beta: false },
      unsigned: { staff: true }
    }
    expect(hasClaims(audience)).toBe(true)
    expect(describeAudience(audience)).toBe('A visitor with partner, unsigned.staff')
    expect(hasClaims({ signed: { partner: false }, unsigned: {} })).toBe(false)
    expect(describeAudience({ signed: {}, unsigned: {} })).toBe('A visitor without claims')
  })

  it('builds the preview address for a visitor, keeping the draft token', () => {
    const draft = 'http://127.0.0.1:4000/preview/sites/s1/?draft=123.u.sig'
    expect(previewAddress(draft)).toBe(draft)
    expect(
      previewAddress(draft, {
        token: 'a.b.c',
        unsigned: { staff: true, intern: false },
        scheme: 'dark'
      })
    ).toBe('http://127.0.0.1:4000/preview/sites/s1/?draft=123.u.sig&jwt_token=a.b.c&visitor.staff=true&scheme=dark')
    // The desktop app's addresses work the same.
    expect(
      previewAddress('quire://local/preview/sites/s1/?draft=x', {
        scheme: 'light'
      })
    ).toBe('quire://local/preview/sites/s1/?draft=x&scheme=light')
  })
})
