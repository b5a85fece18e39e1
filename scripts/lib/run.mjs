// Small helpers shared by the scripts in this folder (plain Node, no dependencies).
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export const repoRoot = join(import.meta.dirname, '..', '..')
const isWindows = process.platform === 'win32'

/**
 * The JS file behind a package's command (e.g. 'electron-vite'), run with this Node: no npx, no shell.
 * @param {string} pkg
 * @param {string} [command]
 */
export function binOf(pkg, command = pkg) {
  const pkgDir = join(repoRoot, 'node_modules', pkg)
  const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'))
  const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[command]
  if (!rel) throw new Error(`${pkg} has no '${command}' command`)
  return join(pkgDir, rel)
}

/**
 * Runs a command to completion, sharing the terminal. Resolves to its exit code (1 when it could not start).
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string }} [options]
 * @returns {Promise<number>}
 */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? repoRoot,
      env: options.env ?? process.env,
      stdio: 'inherit',
      shell: isWindows && !command.endsWith('.exe')
    })
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`)
      resolve(1)
    })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

/**
 * Runs a command quietly; returns its status and combined output (shown by the caller only on failure).
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string }} [options]
 */
export function runQuiet(command, args, options = {}) {
  const res = spawnSync(command, args, {
    cwd: options.cwd ?? repoRoot,
    env: options.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    shell: isWindows && !command.endsWith('.exe')
  })
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}${res.error ? String(res.error) : ''}`
  return { ok: res.status === 0, status: res.status ?? 1, output }
}

/** @param {string} output @param {number} [lines] */
export function tail(output, lines = 40) {
  return output.trimEnd().split('\n').slice(-lines).join('\n')
}
