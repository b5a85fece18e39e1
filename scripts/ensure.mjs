#!/usr/bin/env node
// Installs what is missing, and nothing else: dependencies (when package.json or the lockfile changed), a
// working better-sqlite3 build, and with flags a Chromium for Playwright (--browser) and a fresh app build
// (--app). One short line per action; silent when everything is in place. Plain Node, no dependencies.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { binOf, repoRoot, runQuiet, tail } from './lib/run.mjs'

const args = new Set(process.argv.slice(2))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const at = (/** @type {string} */ p) => join(repoRoot, p)

/** @param {string} message */
function fail(message) {
  console.error(message)
  process.exit(1)
}

/** Environment for npm installs: build native addons offline, never download Electron or browsers. */
function installEnv() {
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' }
  // node-gyp otherwise downloads Node's headers (no network on CI); Debian's nodejs-dev ships them here.
  if (!env.npm_config_nodedir && existsSync('/usr/include/node')) env.npm_config_nodedir = '/usr'
  return env
}

function manifestHash() {
  const hash = createHash('sha256')
  for (const file of ['package.json', 'package-lock.json']) {
    hash.update(file)
    hash.update(existsSync(at(file)) ? readFileSync(at(file)) : '')
  }
  return hash.digest('hex')
}

/** @param {string} p */
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0)

function dependenciesUpToDate() {
  if (!existsSync(at('node_modules/.package-lock.json'))) return false
  const stamp = at('node_modules/.quire-stamp')
  if (existsSync(stamp)) return readFileSync(stamp, 'utf8').trim() === manifestHash()
  // Installed by hand (no stamp yet): trust npm's own record if it is newer than both manifests.
  const npmRecord = mtime(at('node_modules/.package-lock.json'))
  return npmRecord >= mtime(at('package.json')) && npmRecord >= mtime(at('package-lock.json'))
}

function writeStamp() {
  const stamp = at('node_modules/.quire-stamp')
  const hash = manifestHash()
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== hash) writeFileSync(stamp, `${hash}\n`)
}

function installDependencies() {
  // A fresh clone gets the exact lockfile (`npm ci`). An existing node_modules that is merely stale (someone
  // edited package.json) gets `npm install`: it updates in place and keeps the lockfile in step, where
  // `npm ci` would first delete everything and then refuse a lockfile that no longer matches.
  const fresh = !existsSync(at('node_modules/.package-lock.json'))
  const command = fresh && existsSync(at('package-lock.json')) ? 'ci' : 'install'
  console.log(`Installing dependencies (npm ${command}${fresh ? '; compiling better-sqlite3 takes about a minute' : ''})…`)
  const res = runQuiet(npm, [command, '--no-audit', '--no-fund'], { env: installEnv() })
  if (!res.ok) fail(`${tail(res.output)}\nnpm ${command} failed (exit ${res.status}).`)
}

function sqliteLoads() {
  return runQuiet(process.execPath, ['-e', "require('better-sqlite3')(':memory:').close()"])
}

function rebuildSqlite() {
  console.log('Rebuilding better-sqlite3 for this Node…')
  const res = runQuiet(npm, ['rebuild', 'better-sqlite3'], { env: installEnv() })
  const check = sqliteLoads()
  if (!check.ok) fail(`${tail(res.output)}\n${tail(check.output, 10)}\nbetter-sqlite3 still does not load.`)
}

function playwrightChromiumInstalled() {
  const res = runQuiet(process.execPath, [
    '-e',
    "process.exit(require('node:fs').existsSync(require('playwright-core').chromium.executablePath()) ? 0 : 1)"
  ])
  return res.ok
}

function browserPresent() {
  return existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') || playwrightChromiumInstalled()
}

function installBrowser() {
  const hasApt = runQuiet('sh', ['-c', 'command -v apt-get']).ok
  if (process.getuid?.() === 0 && hasApt) {
    console.log('Installing chromium with apt-get…')
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    const res = runQuiet('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq chromium'], { env })
    if (!res.ok) fail(`${tail(res.output)}\napt-get install chromium failed.`)
    return
  }
  console.log("Installing Playwright's Chromium…")
  const env = { ...process.env }
  delete env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD
  const res = runQuiet(process.execPath, [binOf('@playwright/test', 'playwright'), 'install', 'chromium'], { env })
  if (!res.ok) fail(`${tail(res.output)}\nplaywright install chromium failed.`)
}

/** Newest modification time of the files under `dir` (0 when it does not exist). */
function newestIn(/** @type {string} */ dir) {
  if (!existsSync(dir)) return 0
  if (!statSync(dir).isDirectory()) return mtime(dir)
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith('.gen.ts') || /\.test\.tsx?$/.test(entry.name)) continue
    newest = Math.max(newest, mtime(join(entry.parentPath, entry.name)))
  }
  return newest
}

function appBuildFresh() {
  const outputs = ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html'].map(at)
  const oldestOutput = Math.min(...outputs.map(mtime))
  const sources = ['src-main', 'src-shared', 'src-preload', 'src-renderer', 'resources', 'electron.vite.config.ts', 'package.json']
  const newestSource = Math.max(...sources.map((s) => newestIn(at(s))))
  return oldestOutput > 0 && oldestOutput >= newestSource
}

function buildApp() {
  console.log('Building the app (electron-vite build)…')
  const res = runQuiet(process.execPath, [binOf('electron-vite'), 'build'])
  if (!res.ok) fail(`${tail(res.output)}\nelectron-vite build failed.`)
}

// Two installs or builds at once in one checkout corrupt node_modules or out/ (seen: `npm test` beside
// `npm run serve`). Checks run unlocked; any work takes a lock and checks again under it.
const lockDir = join(tmpdir(), `quire-ensure-${createHash('sha256').update(repoRoot).digest('hex').slice(0, 16)}.lock`)

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM'
  }
}

/** @param {() => void} work */
function withLock(work) {
  const release = () => rmSync(lockDir, { recursive: true, force: true })
  let announced = false
  for (;;) {
    try {
      mkdirSync(lockDir)
      writeFileSync(join(lockDir, 'pid'), String(process.pid))
      process.on('exit', release) // fail() exits from inside work()
      break
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error
    }
    let owner = 0
    try {
      owner = Number(readFileSync(join(lockDir, 'pid'), 'utf8'))
    } catch {
      // No pid written yet: the lock is being taken, its age decides.
    }
    const age = Date.now() - mtime(lockDir)
    if ((owner && !alive(owner)) || (!owner && age > 10_000)) {
      rmSync(lockDir, { recursive: true, force: true })
      continue
    }
    if (!announced) console.log(`Waiting for another install or build in this checkout (pid ${owner || '?'})…`)
    announced = true
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500)
  }
  try {
    work()
  } finally {
    release()
  }
}

const needsInstall = () => !dependenciesUpToDate()
const needsSqlite = () => !sqliteLoads().ok
const needsBrowser = () => args.has('--browser') && !browserPresent()
const needsBuild = () => args.has('--app') && !appBuildFresh()

if (needsInstall() || needsSqlite() || needsBrowser() || needsBuild()) {
  withLock(() => {
    if (needsInstall()) installDependencies()
    if (needsSqlite()) rebuildSqlite()
    if (needsBrowser()) installBrowser()
    if (needsBuild()) buildApp()
  })
}
if (existsSync(at('node_modules'))) writeStamp()
