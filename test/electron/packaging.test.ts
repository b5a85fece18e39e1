// The packaged desktop app's hardening, read from the build configuration (no Electron binary is needed), and the
// rule that only a development build honours ELECTRON_RENDERER_URL and offers DevTools.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { devServerUrlFor, devToolsAllowed } from '../../src-main/electron/devMode'

const root = resolve(import.meta.dirname, '../..')

describe('electron-builder configuration', () => {
  const config = parse(readFileSync(resolve(root, 'electron-builder.yml'), 'utf8'))

  it('flips the fuses: no run-as-node, NODE_OPTIONS or inspect; cookies encrypted; only an integrity-checked asar', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true
    })
  })

  it('packs the app into an asar archive, with the native SQLite addon unpacked beside it', () => {
    expect(config.asar).toBe(true)
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**/*')
    expect(config.files).toEqual(expect.arrayContaining(['out/**/*', 'package.json']))
  })
})

describe('development-only switches', () => {
  const env = { ELECTRON_RENDERER_URL: 'http://evil.example:5173' }

  it('ignores ELECTRON_RENDERER_URL in a build and in a package', () => {
    expect(devServerUrlFor(env, { development: false, packaged: false })).toBeUndefined()
    expect(devServerUrlFor(env, { development: false, packaged: true })).toBeUndefined()
    expect(devServerUrlFor(env, { development: true, packaged: true })).toBeUndefined()
    expect(devServerUrlFor(env, { development: true, packaged: false })).toBe('http://evil.example:5173')
    expect(devServerUrlFor({}, { development: true, packaged: false })).toBeUndefined()
  })

  it('allows DevTools in a development build only', () => {
    expect(devToolsAllowed({ development: true, packaged: false })).toBe(true)
    expect(devToolsAllowed({ development: false, packaged: false })).toBe(false)
    expect(devToolsAllowed({ development: false, packaged: true })).toBe(false)
  })

  it('is built as a production build by `electron-vite build`: the bundle says development: false', () => {
    // The build step of `npm test` runs before the unit tests; the Electron entry is then out/main/index.js.
    const bundle = readFileSync(resolve(root, 'out/main/index.js'), 'utf8')
    expect(bundle).toMatch(/development:\s*false/)
    expect(bundle).not.toMatch(/import\.meta\.env/)
  })
})
