import { describe, expect, it } from 'vitest'
import { previewTarget } from './preview.ts'

const urls = { location: '', app: '', published: 'http://127.0.0.1:1/preview/sites/s1/', preview: 'http://127.0.0.1:1/preview/sites/s1/' }
const link = (active: boolean, id: string) => ({ id, active })
const keyed = new Map([
  ['off', 'http://127.0.0.1:1/preview/sites/s1/?shareKey=off'],
  ['on', 'http://127.0.0.1:1/preview/sites/s1/?shareKey=on']
])

describe('previewTarget', () => {
  it('has nothing to open before the site is published', () => {
    expect(previewTarget({ published: false, visibility: 'public', urls }, [])).toEqual({ reason: 'Publish the site to preview it' })
  })

  it('opens a public or unlisted site at its published address', () => {
    expect(previewTarget({ published: true, visibility: 'public', urls }, undefined)).toEqual({ url: urls.published })
    expect(previewTarget({ published: true, visibility: 'unlisted', urls }, [])).toEqual({ url: urls.published })
  })

  it('opens a share-link site with the address of its first active link whose key this window received', () => {
    const site = { published: true, visibility: 'share-link' as const, urls }
    expect(previewTarget(site, [link(false, 'off'), link(true, 'other'), link(true, 'on')], keyed)).toEqual({
      url: 'http://127.0.0.1:1/preview/sites/s1/?shareKey=on'
    })
    expect(previewTarget(site, [link(false, 'off')], keyed).reason).toMatch(/active share link/)
    // The site's own address does not open it, and listed links carry no key.
    expect(previewTarget(site, [link(true, 'other')], keyed).reason).toMatch(/shown when the link is created/)
  })
})
