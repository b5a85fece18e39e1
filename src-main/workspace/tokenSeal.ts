// How secrets are kept at rest. `TokenSeal`s turn a secret into text to store and back: the desktop app's
// safeStorage (the system keychain) where it has one, `fileSeal` (no sealing: a file only this user can read)
// for a connected workspace's connection.json. Secrets kept in a workspace database (a space's Git credentials)
// are never stored as they are: `sealSecret` uses the process's keychain seal when there is one, else `keyFileSeal`,
// AES-256-GCM with a key kept beside the database, so a copy of the database alone (a backup) holds no usable secret.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Services } from './context'

/** Turns a token into text to store, and back. */
export interface TokenSeal {
  /** Stored beside the sealed text: which seal opens it. */
  readonly kind: string
  seal(token: string): string
  open(sealed: string): string
}

/** A sealed secret as stored: the seal's kind and its text. */
export interface SealedSecret {
  seal: string
  data: string
}

/** No sealing: the token is as safe as the file's permissions (0600) make it. */
export const fileSeal: TokenSeal = { kind: 'file', seal: (token) => token, open: (sealed) => sealed }

/** Seals a token with the first of `seals` (the best this process has). */
export function sealToken(token: string, seals: readonly TokenSeal[]): SealedSecret {
  const seal = seals[0] ?? fileSeal
  return { seal: seal.kind, data: seal.seal(token) }
}

export const KEY_FILE = 'secrets.key'

/** AES-256-GCM with `key`: the text is base64 of iv (12 bytes), tag (16) and ciphertext. */
export function aesSeal(key: Buffer): TokenSeal {
  return {
    kind: 'key',
    seal(token) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')
    },
    open(sealed) {
      const bytes = Buffer.from(sealed, 'base64')
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12))
      decipher.setAuthTag(bytes.subarray(12, 28))
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')
    }
  }
}

const keySeals = new WeakMap<Services, TokenSeal>()

/**
 * The seal of the workspace's key file (`secrets.key` beside the database, 0600, made on first use); an
 * in-memory workspace keeps its key in memory.
 */
export function keyFileSeal(services: Services): TokenSeal {
  let seal = keySeals.get(services)
  if (seal) return seal
  const file = services.db.name
  let key: Buffer
  if (!file || file === ':memory:') key = randomBytes(32)
  else {
    const path = join(dirname(file), KEY_FILE)
    if (existsSync(path)) key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')
    else {
      key = randomBytes(32)
      writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' })
      chmodSync(path, 0o600)
    }
  }
  seal = aesSeal(key)
  keySeals.set(services, seal)
  return seal
}

/** The seals for secrets in the database, best first: never `fileSeal` (that would store the secret as it is). */
function databaseSeals(services: Services): TokenSeal[] {
  return [...(services.seals ?? []).filter((s) => s.kind !== fileSeal.kind), keyFileSeal(services)]
}

export function sealSecret(services: Services, secret: string): SealedSecret {
  return sealToken(secret, databaseSeals(services))
}

/** The secret, or undefined when this process cannot open it (another machine's keychain, a lost key file). */
export function openSecret(services: Services, sealed: SealedSecret): string | undefined {
  const seal = databaseSeals(services).find((s) => s.kind === sealed.seal)
  if (!seal) return undefined
  try {
    return seal.open(sealed.data)
  } catch {
    return undefined
  }
}
