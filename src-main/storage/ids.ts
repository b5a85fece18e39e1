import { createHash, randomBytes } from 'node:crypto'

/** Random, URL-safe, 20 characters (120 bits). */
export function newId(): string {
  return randomBytes(15).toString('base64url')
}

/** An API token as shown once to its owner. */
export function newToken(): string {
  return `qr_${randomBytes(24).toString('base64url')}`
}

/** Tokens are stored as SHA-256 hashes; a leaked database does not leak usable tokens. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}
