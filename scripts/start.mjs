#!/usr/bin/env node
// `npm start`: the desktop app where Electron is installed; elsewhere the same app served headless to a
// browser, with the workspaces kept as the desktop app keeps them and a fresh session token in the printed address.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { findElectronBinary } from './lib/electron.mjs'
import { repoRoot } from './lib/run.mjs'

const extraArgs = process.argv.slice(2)

/**
 * Runs the child in this terminal, forwards stop signals, and exits with its code.
 * @param {string} command @param {string[]} args @param {NodeJS.ProcessEnv} env
 */
function runForeground(command, args, env) {
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: 'inherit' })
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal))
  child.on('error', (error) => {
    console.error(`${command}: ${error.message}`)
    process.exit(1)
  })
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

const electron = findElectronBinary(repoRoot)
if (electron) {
  runForeground(electron, [repoRoot, ...extraArgs], process.env)
} else {
  console.log('Electron is not available on this machine; serving Quire headless instead.')
  // `quire serve` keeps several workspaces, as the desktop app does, in $QUIRE_DATA or
  // ${XDG_DATA_HOME:-~/.local/share}/quire (a workspace file kept there by earlier versions becomes "Local").
  // Its token (in the printed address) is made at each start and replaces the previous run's, so the address
  // opens signed in and old ones stop working. A one-workspace folder (`npm start -- --data DIR`) makes none after
  // its first start: one is made here, and travels in the environment, not argv, so it does not show in `ps`.
  const args = [join(repoRoot, 'out/main/cli.js'), 'serve', ...extraArgs]
  const oneWorkspace = extraArgs.includes('--data') && !process.env.QUIRE_TOKEN
  const env = oneWorkspace ? { ...process.env, QUIRE_TOKEN: randomBytes(24).toString('base64url') } : process.env
  runForeground(process.execPath, args, env)
}
