import { describe, expect, it } from 'vitest'
import { locationText, progressPercent, progressText, slugFrom, specStatus } from './specState.ts'

describe('specStatus', () => {
  it('reads waiting, processing, ready and failed from the state and the error code', () => {
    expect(specStatus({ processingState: 'pending' })).toBe('pending')
    expect(specStatus({ processingState: 'progress', lastProcessErrorCode: 'PARSE_ERROR' })).toBe('processing')
    expect(specStatus({ processingState: 'complete' })).toBe('ready')
    expect(specStatus({ processingState: 'complete', lastProcessErrorCode: 'FETCH_ERROR' })).toBe('failed')
  })
})

describe('progress', () => {
  it('counts phases done, a started one as half', () => {
    expect(progressPercent(undefined)).toBe(0)
    expect(progressPercent({ phase: 'fetching', filesRead: 0 })).toBe(10)
    expect(progressPercent({ phase: 'storing', filesRead: 3 })).toBe(90)
  })
  it('says the phase and the files read', () => {
    expect(progressText(undefined)).toBe('Starting…')
    expect(progressText({ phase: 'parsing', filesRead: 0 })).toBe('Parsing')
    expect(progressText({ phase: 'resolving', filesRead: 1 })).toBe('Reading $ref files · 1 file read')
    expect(progressText({ phase: 'validating', filesRead: 3 })).toBe('Validating · 3 files read')
  })
})

describe('locationText', () => {
  it('gives the file with its line and column, or its pointer', () => {
    expect(locationText(undefined)).toBeUndefined()
    expect(locationText({ file: 'openapi.yaml', line: 7, column: 3 })).toBe('openapi.yaml, line 7, column 3')
    expect(locationText({ file: 'openapi.yaml', pointer: '/info', line: 2, column: 1 })).toBe('openapi.yaml, line 2, column 1 (at /info)')
    expect(locationText({ file: 'schemas/pet.yaml', pointer: '' })).toBe('schemas/pet.yaml (at /)')
  })
})

describe('slugFrom', () => {
  it('makes a slug from a file name or an address', () => {
    expect(slugFrom('Pet Store.v2.yaml')).toBe('pet-store-v2')
    expect(slugFrom('https://example.com/api/openapi.json?x=1')).toBe('openapi')
    expect(slugFrom('https://example.com/specs/billing/')).toBe('billing')
    expect(slugFrom('???')).toBe('')
  })
})
