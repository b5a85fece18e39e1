// A connected workspace's server, kept in the workspace's own folder (`workspaces/<id>/connection.json`, readable
// by this user only) so the folder says what it is even when the list is rebuilt from folders: the address, the
// account the token names, and the token, sealed by the platform where it can (the desktop app's safeStorage:
// the system keychain) and otherwise protected by the file's permissions only (a headless server). Plain Node.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { normalizeRemoteUrl, type RemoteAccount } from '../../src-shared/workspaces'
import { writeFileAtomic } from './atomicFile'
import { fileSeal, sealToken, type TokenSeal } from '../workspace/tokenSeal'

export { fileSeal, sealToken, type TokenSeal }

export const CONNECTION_FILE = 'connection.json'

export interface Connection {
  url: string
  account: RemoteAccount
  token: { seal: string; data: string }
}

interface ConnectionFile extends Connection {
  version: 1
}

/** The folder's connection; undefined for a workspace on this computer. A file that cannot be read throws. */
export function readConnection(dataDir: string): Connection | undefined {
  const path = join(dataDir, CONNECTION_FILE)
  if (!existsSync(path)) return undefined
  const parsed = parseConnection(readFileSync(path, 'utf8'))
  if (typeof parsed === 'string') throw new Error(`${path} could not be read: ${parsed}`)
  return parsed
}

export function writeConnection(dataDir: string, connection: Connection): void {
  const file: ConnectionFile = { version: 1, ...connection }
  writeFileAtomic(join(dataDir, CONNECTION_FILE), `${JSON.stringify(file, null, 2)}\n`)
}

/** The connection in a file's text, or why it is not one. */
export function parseConnection(text: string): Connection | string {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return 'not JSON'
  }
  const file = data as Partial<ConnectionFile> | null
  if (!file || typeof file !== 'object' || file.version !== 1) return 'unknown version'
  if (typeof file.url !== 'string' || normalizeRemoteUrl(file.url) !== file.url) return 'url: not a server address'
  const account = file.account as Partial<RemoteAccount> | undefined
  if (!account || typeof account.id !== 'string' || typeof account.displayName !== 'string') return 'account: missing'
  const token = file.token as Partial<Connection['token']> | undefined
  if (!token || typeof token.seal !== 'string' || typeof token.data !== 'string') return 'token: missing'
  return {
    url: file.url,
    account: { id: account.id, displayName: account.displayName, ...(typeof account.email === 'string' ? { email: account.email } : {}) },
    token: { seal: token.seal, data: token.data }
  }
}

/** The token of a connection, or why this process cannot read it (sealed by the desktop app's keychain, say). */
export function openToken(connection: Connection, seals: readonly TokenSeal[]): { token: string } | { problem: string } {
  const seal = seals.find((s) => s.kind === connection.token.seal)
  const host = new URL(connection.url).host
  if (!seal) {
    return {
      problem:
        connection.token.seal === 'os'
          ? `The token for ${host} was saved in the system keychain by the Quire desktop app, which this process cannot read: enter it again in Manage workspaces`
          : `The token for ${host} was saved in a form this Quire cannot read (${connection.token.seal}): enter it again in Manage workspaces`
    }
  }
  try {
    return { token: seal.open(connection.token.data) }
  } catch {
    return { problem: `The token for ${host} could not be unsealed (the system keychain refused): enter it again in Manage workspaces` }
  }
}
