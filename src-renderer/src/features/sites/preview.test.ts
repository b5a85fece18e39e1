import { describe, expect, it } from 'vitest'
import { previewTarget } from './preview.ts'

const urls = { location: '', app: '', published: 'http://127.0.0.1:1/preview/sites/s1/' }
const link = (active: boolean, key: string) => ({ active, urls: { published: `http://127.0.0.1:1/preview/sites/s1/?shareKey=${key}` } })

describe('previewTarget', () => {
  it('has nothing to open before the site is published', () => {
    expect(previewTarget({ published: false, visibility: 'public', urls }, [])).toEqual({ reason: 'Publish the site to preview it' })
  })

  it('opens a public or unlisted site at its published address', () => {
    expect(previewTarget({ published: true, visibility: 'public', urls }, undefined)).toEqual({ url: urls.published })
    expect(previewTarget({ published: true, visibility: 'unlisted', urls }, [])).toEqual({ url: urls.published })
  })

  it('opens a share-link site with the key of its first active link', () => {
    expect(previewTarget({ published: true, visibility: 'share-link', urls }, [link(false, 'off'), link(true, 'on')])).toEqual({
      url: 'http://127.0.0.1:1/preview/sites/s1/?shareKey=on',
    })
    expect(previewTarget({ published: true, visibility: 'share-link', urls }, [link(false, 'off')]).reason).toMatch(/active share link/)
  })
})
