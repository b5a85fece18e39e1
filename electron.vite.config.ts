import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import type { PluginOption } from 'vite'
import react from '@vitejs/plugin-react'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import { headlessBundle } from './scripts/lib/headlessBundle'

const root = import.meta.dirname

/** Dependencies bundled into out/main (see `externalizeDeps` below): pure ESM, no native code, no files of their own. */
const BUNDLED_DEPS = [
  'typebox',
  'unified',
  'remark-parse',
  'remark-gfm',
  'remark-frontmatter',
  'remark-rehype',
  'rehype-stringify',
  'rehype-sanitize',
  'mdast-util-to-string',
  'mdast-util-gfm',
  'mdast-util-to-markdown',
  'diff',
  'node-diff3',
  'image-size',
  'yaml',
  'jsep'
]

/**
 * The dev server injects inline scripts (React Refresh preamble) and <style> tags (CSS HMR) and needs a
 * websocket, which the strict CSP in index.html forbids. Relax it only while serving; builds keep it strict
 * (src-main/electron/appContent.ts relaxes the header the same way).
 */
function devCsp(): PluginOption {
  return {
    name: 'quire:dev-csp',
    apply: 'serve',
    transformIndexHtml(html: string) {
      return html.replace(
        /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/,
        (_m, a: string, csp: string, b: string) => a + relaxForDev(csp) + b
      )
    }
  }
}

function relaxForDev(csp: string): string {
  return csp
    .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
    .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
    .replace("connect-src 'self'", "connect-src 'self' ws:")
}

export default defineConfig({
  main: {
    build: {
      // Dependencies stay external (electron-vite's default), better-sqlite3 above all: it is a native addon. Pure
      // ESM packages every start loads are bundled instead: as files they are hundreds of modules (typebox alone
      // 370, the unified/micromark family 250) for Node to resolve, read and link one by one at each start.
      externalizeDeps: { include: ['better-sqlite3'], exclude: BUNDLED_DEPS },
      rolldownOptions: {
        input: {
          index: resolve(root, 'src-main/electron/main.ts') // Electron entry: the only one that imports 'electron'
        }
      }
    },
    // `node out/main/cli.js serve` and the workspace host's process (utilityProcess, --host-process), out/main/host.js:
    // each one CommonJS bundle run with V8's code cache.
    plugins: [headlessBundle(root)]
  },
  preload: {
    build: {
      rolldownOptions: {
        input: { index: resolve(root, 'src-preload/index.ts') },
        // A sandboxed preload is evaluated as a classic script, so it must be CommonJS with nothing external
        // but 'electron' (shared code is bundled in).
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    // resources/ (the app icon) is copied beside index.html; the page uses icon.svg as its favicon.
    publicDir: resolve(root, 'resources'),
    build: {
      // electron-vite leaves the renderer unminified; minified, the scripts the first screen parses are a third the size.
      minify: true,
      rolldownOptions: { input: { index: resolve(root, 'src-renderer/index.html') } }
    },
    server: {
      // `npm run serve -- --port 5174` beside `electron-vite dev --rendererOnly` gives a browser dev loop.
      proxy: { '/v1': 'http://127.0.0.1:5174', '/app/workspaces': 'http://127.0.0.1:5174' }
    },
    plugins: [
      // Absolute paths: relative ones resolve against the renderer root and end up doubled.
      tanstackRouter({
        target: 'react',
        autoCodeSplitting: true,
        routesDirectory: resolve(root, 'src-renderer/src/routes'),
        generatedRouteTree: resolve(root, 'src-renderer/src/routeTree.gen.ts')
      }),
      react(),
      devCsp()
    ]
  }
})
