import { describe, expect, it } from 'vitest'
import { installablePlaces } from './labels.ts'

describe('installablePlaces', () => {
  it('always offers the organization, and spaces and sites as the target allows', () => {
    expect(installablePlaces('all')).toEqual(['organization', 'space', 'site'])
    expect(installablePlaces('space')).toEqual(['organization', 'space'])
    expect(installablePlaces('site')).toEqual(['organization', 'site'])
    expect(installablePlaces('organization')).toEqual(['organization'])
  })
})
