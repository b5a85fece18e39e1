#!/usr/bin/env node
// `npm test`: build, typecheck, unit tests, end-to-end tests; then one plain summary line per suite and a
// closing `N passed, N failed` (CI reads it). Any failure, including a crashed runner, exits non-zero.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { binOf, repoRoot, run } from './lib/run.mjs'

const outDir = join(repoRoot, '.ci-out')
mkdirSync(outDir, { recursive: true })
const unitJson = join(outDir, 'unit.json')
const e2eJson = join(outDir, 'e2e.json')
// The published operations the unit suite's HTTP tests received successful answers of (src-main/testing/contract.ts).
const contractSeen = join(outDir, 'contract-seen.txt')
rmSync(unitJson, { force: true })
rmSync(e2eJson, { force: true })
rmSync(contractSeen, { force: true })

/** @param {string} file */
function readJson(file) {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined
  } catch {
    return undefined
  }
}

const lines = []
let passed = 0
let failed = 0

// 1. Build first: it also generates the router's routeTree.gen.ts, which the typecheck needs.
const buildRc = await run(process.execPath, [binOf('electron-vite'), 'build'])
if (buildRc !== 0) {
  lines.push('build: failed')
  failed += 1
}

// 2. Typecheck every project (tsconfig.json references them all).
const tscRc = await run(process.execPath, [binOf('typescript', 'tsc'), '-b'])
if (tscRc !== 0) {
  lines.push('typecheck: failed')
  failed += 1
}

// 2b. Lint and format: ESLint (with the layering rules) and Prettier over the whole tree.
{
  const eslintRc = await run(process.execPath, [binOf('eslint'), '.'])
  const prettierRc = await run(process.execPath, [binOf('prettier'), '--check', '--log-level', 'warn', '.'])
  const ok = eslintRc === 0 && prettierRc === 0
  lines.push(
    `lint: ${ok ? 'passed' : `failed (${[eslintRc !== 0 && 'eslint', prettierRc !== 0 && 'prettier'].filter(Boolean).join(', ')})`}`
  )
  if (ok) passed += 1
  else failed += 1
}

// 3. Unit tests.
const unitRc = await run(
  process.execPath,
  [binOf('vitest'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitJson}`],
  {
    env: { ...process.env, QUIRE_CONTRACT_SEEN: contractSeen }
  }
)
{
  const report = readJson(unitJson)
  const ok = report?.numPassedTests ?? 0
  let bad = report?.numFailedTests ?? 0
  // A failing run with no failed test means the runner itself failed (a suite that did not load, a crash).
  if (unitRc !== 0 && bad === 0) bad = 1
  lines.push(`unit: ${ok} passed, ${bad} failed`)
  passed += ok
  failed += bad
}

// 3b. Contract coverage: the whole unit suite exercised every operation Quire shares with the published document.
{
  const rc = await run(process.execPath, [binOf('vitest'), 'run', '--config', 'vitest.contract.config.ts'], {
    env: { ...process.env, QUIRE_CONTRACT_SEEN: contractSeen }
  })
  lines.push(`contract coverage: ${rc === 0 ? 'passed' : 'failed'}`)
  if (rc === 0) passed += 1
  else failed += 1
}

// 4. End-to-end tests (they need the build).
if (buildRc === 0) {
  const e2eRc = await run(process.execPath, [binOf('@playwright/test', 'playwright'), 'test', '--reporter=list,json'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson }
  })
  const report = readJson(e2eJson)
  const stats = report?.stats ?? {}
  const ok = (stats.expected ?? 0) + (stats.flaky ?? 0)
  let bad = (stats.unexpected ?? 0) + (report?.errors?.length ?? 0)
  if (e2eRc !== 0 && bad === 0) bad = 1
  // Skips (the Electron project where the binary is missing) are reported, not counted.
  lines.push(`e2e: ${ok} passed, ${bad} failed, ${stats.skipped ?? 0} skipped`)
  passed += ok
  failed += bad
} else {
  lines.push('e2e: not run (build failed)')
}

console.log('')
for (const line of lines) console.log(line)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
