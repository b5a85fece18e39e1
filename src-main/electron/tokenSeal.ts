// The system keychain (safeStorage: Keychain on macOS, DPAPI on Windows, libsecret/kwallet on Linux) stays in main:
// it keeps a random key sealed in `keychain.key` in the user-data folder, and main hands the opened key to the
// workspace host, which seals connected workspaces' tokens and stored credentials with it (kind `os`). The host's
// seals are synchronous (a write seals inside its transaction), which a round trip to main could not be. Where
// the platform offers no real keychain (Linux without one falls back to a fixed key), there is no key: tokens are
// kept as the headless server keeps them, in a file only this user can read.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { safeStorage } from 'electron'

const KEY_FILE = 'keychain.key'

/** The host's sealing key (base64), opened from `userData` or made there; undefined without a real keychain (call after `ready`). */
export function keychainKey(userData: string): string | undefined {
  const realKeychain =
    safeStorage.isEncryptionAvailable() && (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text')
  if (!realKeychain) return undefined
  const file = join(userData, KEY_FILE)
  if (existsSync(file)) {
    try {
      return safeStorage.decryptString(readFileSync(file))
    } catch (error) {
      // Kept as it is (the keychain may answer again next time); tokens sealed with it ask to be entered again.
      console.error(`The system keychain cannot open ${file}:`, error)
      return undefined
    }
  }
  const key = randomBytes(32).toString('base64')
  mkdirSync(userData, { recursive: true })
  writeFileSync(file, safeStorage.encryptString(key), { mode: 0o600, flag: 'wx' })
  return key
}
