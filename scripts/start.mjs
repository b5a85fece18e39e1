#!/usr/bin/env node
// `npm start`: the desktop app where Electron is installed; elsewhere the same app served headless to a
// browser, with a fresh session token so the printed address opens signed in.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { homedir } from 'node:os'
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
  const dataDir = process.env.QUIRE_DATA ?? join(process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'quire')
  const args = [join(repoRoot, 'out/main/cli.js'), 'serve', ...(extraArgs.includes('--data') ? [] : ['--data', dataDir]), ...extraArgs]
  // The token travels in the environment, not argv, so it does not show in `ps`.
  const env = { ...process.env, QUIRE_TOKEN: randomBytes(24).toString('base64url') }
  runForeground(process.execPath, args, env)
}
