// The packaged desktop app, read from the build configuration (no Electron binary is needed): electron-builder's own
// schema, the targets per platform, hardening, icons, the file association and the update feed; and the rule that
// only a development build honours ELECTRON_RENDERER_URL and offers DevTools.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import Ajv from 'ajv'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { devServerUrlFor, devToolsAllowed } from '../../src-main/electron/devMode'
import { decideUpdateSettings } from '../../src-main/electron/updateSettings'
import { isWorkspaceFileName, WORKSPACE_FILE_EXTENSION } from '../../src-main/electron/workspaceFileArgs'
import { backupFilename } from '../../src-main/workspaces/files'

const root = resolve(import.meta.dirname, '../..')
const json = (path: string) => JSON.parse(readFileSync(resolve(root, path), 'utf8'))

describe('electron-builder configuration', () => {
  const config = parse(readFileSync(resolve(root, 'electron-builder.yml'), 'utf8'))

  it('is valid against the schema of the installed electron-builder (validated as electron-builder does)', () => {
    // electron-builder's own options (app-builder-lib/out/util/config/schemaValidator.js), without coerceTypes.
    const validate = new Ajv({ allErrors: true, strict: false }).compile(json('node_modules/app-builder-lib/scheme.json'))
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true)
    // The validator does refuse: a misspelt option, or a misspelt architecture.
    expect(validate({ ...config, fileAsociations: [] })).toBe(false)
    expect(validate({ ...config, mac: { ...config.mac, target: [{ target: 'dmg', arch: 'univrsal' }] } })).toBe(false)
  })

  it('is loaded and accepted by electron-builder itself, with a release’s `-c.publish.url=…` merged into the feed', async () => {
    // The loader the electron-builder command runs (an internal module of the pinned version, checked below).
    const require = createRequire(import.meta.url)
    const builder = require('app-builder-lib/out/util/config/config.js') as {
      getConfig(projectDir: string, configPath: null, fromCli: object | null): Promise<typeof config>
      validateConfiguration(config: object, logger: { isEnabled: boolean; add(): void }): Promise<void>
    }
    const logger = { isEnabled: false, add() {} }
    const loaded = await builder.getConfig(root, null, { publish: { url: 'https://updates.example.com/quire' } })
    await expect(builder.validateConfiguration(loaded, logger)).resolves.toBeUndefined()
    expect(loaded.publish).toEqual({ provider: 'generic', url: 'https://updates.example.com/quire', channel: 'latest' })
    expect(loaded.electronFuses).toEqual(config.electronFuses)
    await expect(builder.validateConfiguration({ ...config, fileAsociations: [] }, logger)).rejects.toThrow(/Invalid configuration object/)
  })

  it('builds an AppImage and a deb for Linux, a universal dmg (and the zip updates use) for macOS, NSIS for Windows', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb'])
    expect(config.mac.target).toEqual([
      { target: 'dmg', arch: 'universal' },
      { target: 'zip', arch: 'universal' }
    ])
    expect(config.win.target).toEqual(['nsis'])
  })

  it('names the homepage and maintainer a deb must have', () => {
    expect(new URL(config.extraMetadata.homepage).protocol).toBe('https:')
    expect(config.linux.maintainer).toMatch(/^[^<>]+ <[^<>@\s]+@[^<>@\s]+>$/)
  })

  it('rebuilds the native SQLite addon for Electron with @electron/rebuild before packing, and packs only what loads', () => {
    expect(config.npmRebuild).toBe(true)
    expect(config.nativeRebuilder).toBe('sequential')
    // Its C sources and the compiler's intermediates stay out (the addon itself and lib/ go in).
    expect(config.files).toEqual(
      expect.arrayContaining([
        '!node_modules/better-sqlite3/{deps,src}{,/**}',
        '!node_modules/better-sqlite3/build/{deps,Release/obj,Release/obj.target,Release/.deps,Release/test_extension.node}{,/**}'
      ])
    )
  })

  it('has each platform’s icon where it says, in the build resources (never packed into the app)', () => {
    expect(statSync(resolve(root, config.mac.icon)).isFile()).toBe(true)
    expect(config.mac.icon).toMatch(/\.icns$/)
    expect(statSync(resolve(root, config.win.icon)).isFile()).toBe(true)
    expect(config.win.icon).toMatch(/\.ico$/)
    expect(readdirSync(resolve(root, config.linux.icon))).toContain('512x512.png')
    expect(config.directories.buildResources).toBe('build')
    for (const icon of [config.mac.icon, config.win.icon, config.linux.icon, config.nsis.include]) expect(icon).toMatch(/^build\//)
    expect(config.files.filter((f: string) => f.startsWith('build'))).toEqual([])
    // Nor the headless CLI, the source maps and a code cache (the app runs out/main/index.js and host.js).
    expect(config.files).toContain('!out/main/{cli.js,cli.cjs,*.map,code-cache}{,/**}')
    // The window icon the app loads itself (src-main/electron/main.ts) stays in.
    expect(existsSync(resolve(root, 'resources/icon.png'))).toBe(true)
  })

  it('associates backups with the app: *.quire.db on Linux, “Open with” for .db on macOS and Windows', () => {
    const backup = backupFilename('handbook', new Date('2026-03-01T00:00:00Z'))
    expect(config.linux.fileAssociations).toEqual([
      { ext: WORKSPACE_FILE_EXTENSION, name: 'Quire workspace', description: 'Quire workspace', mimeType: 'application/x-quire-workspace' }
    ])
    expect(backup.endsWith(`.${config.linux.fileAssociations[0].ext}`)).toBe(true)
    // Finder and Explorer go by the last extension: offered for .db, never made the default.
    expect(config.mac.fileAssociations).toEqual([{ ext: 'db', name: 'Quire workspace', role: 'Editor', rank: 'Alternate' }])
    expect(config.fileAssociations).toBeUndefined()
    expect(config.win.fileAssociations).toBeUndefined()
    const nsh = readFileSync(resolve(root, config.nsis.include), 'utf8')
    const [install, uninstall] = nsh.split('!macro customUnInstall')
    expect(install).toContain('!macro customInstall')
    expect(install).toMatch(/WriteRegNone SHELL_CONTEXT "Software\\Classes\\\.db\\OpenWithProgids" "Quire\.Workspace"/)
    expect(install).toContain('shell\\open\\command" "" \'"$appExe" "%1"\'')
    expect(install).not.toMatch(/Classes\\\.db" ""/) // never the default handler of .db
    expect(uninstall).toMatch(/DeleteRegValue SHELL_CONTEXT "Software\\Classes\\\.db\\OpenWithProgids" "Quire\.Workspace"/)
    expect(uninstall).toContain('DeleteRegKey SHELL_CONTEXT "Software\\Classes\\Quire.Workspace"')
    // What the system then hands over is what the app takes from argv and open-file.
    expect(isWorkspaceFileName(backup)).toBe(true)
  })

  it('packages a placeholder update feed that the app reads as “no feed”, and a release’s feed as on', () => {
    expect(config.publish).toEqual({ provider: 'generic', url: 'https://updates.invalid/quire', channel: 'latest' })
    // What electron-builder writes to resources/app-update.yml: the publish options and the updater's cache folder.
    const appUpdateYml = (publish: object) => stringify({ ...publish, updaterCacheDirName: 'quire-updater' })
    expect(decideUpdateSettings({ packageFile: appUpdateYml(config.publish) }, parse)).toEqual({
      state: 'off',
      reason: 'This package was built without an update feed.'
    })
    // A release: `npm run package -- -c.publish.url=https://…`.
    expect(
      decideUpdateSettings({ packageFile: appUpdateYml({ ...config.publish, url: 'https://updates.example.com/quire' }) }, parse)
    ).toEqual({
      state: 'on',
      source: 'app-update.yml',
      feed: { provider: 'generic', url: 'https://updates.example.com/quire', channel: 'latest' }
    })
  })

  it('is run by `npm run package`, which passes its arguments on to electron-builder; the tools are pinned', () => {
    const pkg = json('package.json')
    expect(pkg.scripts.package).toBe('electron-vite build && electron-builder --publish never')
    expect(pkg.scripts.icons).toBe('tsx scripts/icons.ts')
    expect(pkg.devDependencies['electron-builder']).toMatch(/^\d+\.\d+\.\d+$/)
    expect(pkg.dependencies['electron-updater']).toMatch(/^\d+\.\d+\.\d+$/)
    expect(json('node_modules/electron-builder/package.json').version).toBe(pkg.devDependencies['electron-builder'])
  })

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

  it('loads electron-updater only when updates are checked: the main bundle imports it dynamically, never at start', () => {
    const dir = resolve(root, 'out/main')
    const code = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(resolve(dir, f), 'utf8'))
      .join('\n')
    expect(code).toMatch(/import\(\s*["']electron-updater["']\s*\)/)
    expect(code).not.toMatch(/from\s*["']electron-updater["']|require\(\s*["']electron-updater["']\s*\)/)
  })
})
