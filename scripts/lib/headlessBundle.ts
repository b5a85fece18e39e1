// The headless CLI's build (`node out/main/cli.js`) and the workspace host's (out/main/host.js), a step of
// `electron-vite build`. Each is one CommonJS file (out/main/cli.cjs, host.cjs) holding every module a start loads,
// its dependencies too, run by a small launcher (cli.js, host.js) with
// V8's code cache (src-main/base/codeCache.ts): one file read and no compiling, against ~600 module files resolved,
// read and compiled one by one. esbuild builds it in about two seconds: Node CommonJS output with `import.meta`
// mapped onto the file, ASCII (read as one-byte text), minified (2.0 MB against 2.9 with its names: each start reads
// it, copies it into a string and deserializes its cache, ~15 ms less on the 2-core machine; stack traces name
// minified functions, out/main/cli.cjs.map maps them back, and `npm run serve` runs the sources). The packages a
// start must not load (LAZY_PACKAGES: PDF, Word, Git, JWT, ...) and better-sqlite3 (native) stay outside it and load
// from node_modules when first used.
import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import type { Plugin } from 'vite'
import { WRAPPER_HEAD, WRAPPER_TAIL } from '../../src-main/base/codeCache'
import { LAZY_PACKAGES } from '../../src-main/testing/lazyPackages'

const EXTERNAL = [...LAZY_PACKAGES, 'better-sqlite3', 'electron']

/** The bundles: the CLI, and the workspace host (the desktop app's utilityProcess, `quire serve --host-process`). */
const BUNDLES = [
  { name: 'cli', entry: ['src-main', 'cli', 'main.ts'] },
  { name: 'host', entry: ['src-main', 'server', 'hostEntry.ts'] }
]

/** Builds out/main/<name>.cjs and its launcher out/main/<name>.js, for each bundle, under `root`. */
export async function buildHeadless(root: string): Promise<void> {
  const outDir = join(root, 'out', 'main')
  rmSync(join(outDir, 'code-cache'), { recursive: true, force: true })
  for (const { name, entry } of BUNDLES) await buildBundle(root, outDir, name, join(root, ...entry))
}

async function buildBundle(root: string, outDir: string, name: string, entry: string): Promise<void> {
  const bundle = join(outDir, `${name}.cjs`)
  await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: EXTERNAL,
    // import() of the packages left outside becomes require() (Node 20.19+ and 22.12+ require ES modules too): a
    // script compiled from V8's code cache loses the dynamic-import callback Node gave it (Node 20).
    supported: { 'dynamic-import': false },
    minify: true,
    sourcemap: 'external',
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'import.meta.url': '__quire_import_meta_url', 'import.meta.dirname': '__dirname' },
    // Wrapped as Node wraps a CommonJS module, in the file itself: the launcher compiles the text as read, where
    // wrapping it at each start would copy it once more.
    banner: { js: `${WRAPPER_HEAD}var __quire_import_meta_url=require("node:url").pathToFileURL(__filename).href;` },
    footer: { js: WRAPPER_TAIL }
  })
  const text = readFileSync(bundle)
  if (/[^\w$.]import\(/.test(text.toString('latin1'))) throw new Error(`${bundle} calls import(): it fails when run from the code cache`)
  const wide = text.findIndex((byte) => byte > 0x7f)
  if (wide >= 0) throw new Error(`${bundle} is not ASCII (byte ${wide}): the launcher reads it as one-byte text`)
  await build({
    entryPoints: [join(root, 'src-main', 'cli', 'launch.ts')],
    outfile: join(outDir, `${name}.js`),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    define: {
      __QUIRE_BUNDLE__: JSON.stringify(`${name}.cjs`),
      __QUIRE_BUNDLE_HASH__: JSON.stringify(createHash('sha256').update(text).digest('hex').slice(0, 16))
    }
  })
}

/** The step in electron-vite's main build: after its own output is written (its empty out/main first). */
export function headlessBundle(root: string): Plugin {
  return {
    name: 'quire:headless-bundle',
    apply: 'build',
    async closeBundle() {
      await buildHeadless(root)
    }
  }
}
