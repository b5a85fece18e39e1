// Connected workspaces' tokens sealed by the system keychain (safeStorage: Keychain on macOS, DPAPI on Windows,
// libsecret/kwallet on Linux). Where the platform offers no real keychain (Linux without one falls back to a
// fixed key), tokens are kept as the headless server keeps them: in a file only this user can read.
import { safeStorage } from 'electron'
import { fileSeal, type TokenSeal } from '../workspaces/connection.ts'

const osSeal: TokenSeal = {
  kind: 'os',
  seal: (token) => safeStorage.encryptString(token).toString('base64'),
  open: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64'))
}

/** The seals this app uses, best first (call after `app` is ready: safeStorage needs it). */
export function tokenSeals(): TokenSeal[] {
  const realKeychain =
    safeStorage.isEncryptionAvailable() && (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text')
  return realKeychain ? [osSeal, fileSeal] : [fileSeal]
}
