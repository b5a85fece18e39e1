import { describe, expect, it } from 'vitest'
import type { RemoteStatus, Workspace } from '../../../../src-shared/workspaces.ts'
import { accountLabel, isCutOff, remoteHost } from './remote.ts'

const connected = (status: RemoteStatus): Pick<Workspace, 'remote'> => ({
  remote: { url: 'https://docs.example.com', account: { id: 'u1', displayName: 'Ada' }, connection: { status } }
})

describe('connected workspaces as shown', () => {
  it('names the server by its host, port included', () => {
    expect(remoteHost('https://docs.example.com')).toBe('docs.example.com')
    expect(remoteHost('http://127.0.0.1:4100/api')).toBe('127.0.0.1:4100')
    expect(remoteHost('not an address')).toBe('not an address')
  })

  it('names the account with its email when the server gave one', () => {
    expect(accountLabel({ id: 'u1', displayName: 'Ada', email: 'ada@example.com' })).toBe('Ada (ada@example.com)')
    expect(accountLabel({ id: 'u1', displayName: 'Ada' })).toBe('Ada')
    expect(accountLabel({ id: 'u1', displayName: 'ada@example.com', email: 'ada@example.com' })).toBe('ada@example.com')
  })

  it('is cut off only when the server did not answer or refused the token', () => {
    expect(isCutOff(connected('unreachable'))).toBe(true)
    expect(isCutOff(connected('refused'))).toBe(true)
    expect(isCutOff(connected('online'))).toBe(false)
    expect(isCutOff(connected('unknown'))).toBe(false)
    expect(isCutOff({})).toBe(false)
    expect(isCutOff(undefined)).toBe(false)
  })
})
