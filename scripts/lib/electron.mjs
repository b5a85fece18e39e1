// Finds the Electron executable WITHOUT requiring the 'electron' package: under plain Node its index.js
// tries to download the binary and throws when it cannot (no network here).
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export const ELECTRON_MISSING_REASON = 'Electron binary not installed on this machine (npx install-electron to enable)'

/**
 * The absolute path of the Electron executable, or null when it is not installed.
 * @param {string} [fromDir] directory to resolve the package from (default: this repository)
 * @returns {string | null}
 */
export function findElectronBinary(fromDir = join(import.meta.dirname, '..', '..')) {
  if (process.env.ELECTRON_EXEC_PATH) return existsSync(process.env.ELECTRON_EXEC_PATH) ? process.env.ELECTRON_EXEC_PATH : null
  let pkgDir
  try {
    pkgDir = dirname(createRequire(join(fromDir, 'package.json')).resolve('electron/package.json'))
  } catch {
    return null
  }
  const pathFile = join(pkgDir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const relative = readFileSync(pathFile, 'utf8').trim()
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(pkgDir, 'dist')
  const binary = join(distDir, relative)
  return existsSync(binary) ? binary : null
}
