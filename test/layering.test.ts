// Imports flow one way: renderer → shared, preload → shared, main → shared; only src-main/electron/ imports
// 'electron'; inside src-main, down its floors. This test keeps that honest without a linter.
import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, posix, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')

function sourceFiles(dir: string): string[] {
  let entries
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
  } catch {
    return []
  }
  return entries
    .filter((e) => e.isFile() && /\.(c|m)?tsx?$/.test(e.name) && !e.name.endsWith('.gen.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
}

/** Module specifiers of static imports, re-exports, dynamic imports and require() calls. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
  const specs: string[] = []
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g
  ]
  for (const re of patterns) for (const m of text.matchAll(re)) specs.push(m[1]!)
  return specs
}

const isElectron = (spec: string) => spec === 'electron' || spec.startsWith('electron/')
const nodeBuiltins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]))
const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || nodeBuiltins.has(spec)

function violations(files: string[], bad: (spec: string, file: string) => boolean): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((spec) => bad(spec, file))
      .map((spec) => `${file} imports '${spec}'`)
  )
}

/**
 * The floors of src-main, lowest first (docs/architecture.md): a folder imports only from lower floors (and
 * itself), never from a higher floor or another folder of its own floor.
 */
const FLOORS: string[][] = [
  ['base'], // errors and the clock, used by every layer
  ['storage'], // SQLite: the database file, migrations, repositories
  ['content'], // documents, revisions, page trees, search, PDF
  ['workspace'], // the kernel: services, the request context, opening, bootstrap and upkeep of a workspace
  ['git', 'openapi', 'preview'], // engines beside the API
  ['api'], // the /v1 routes, policies, presenters, commands
  ['backend'], // WorkspaceBackend: the local one (embedded API) and the remote one (a /v1 server)
  ['sync'], // a connected workspace: its copy, outbox and replay
  ['workspaces'], // the workspaces of a home, the host and the one module that opens a backend
  ['server'], // the loopback HTTP server
  ['cli', 'electron'] // the shells
]
const floorOf = new Map(FLOORS.flatMap((folders, floor) => folders.map((folder) => [folder, floor] as const)))

/** Test support may import anything (src-main/testing, a folder's testing/, route fixtures); only tests and test support import it. */
const isTestSupport = (file: string) =>
  /\.test\.tsx?$/.test(file) || /^src-main\/(.+\/)?testing\//.test(file) || /\/(fixtures|testFactories)\.ts$/.test(file)

/** The top-level folder of src-main a relative import names, and the file it resolves to (no extension). */
function targetOf(file: string, spec: string): { folder: string; path: string } | undefined {
  if (!spec.startsWith('.')) return undefined
  const path = posix.join(posix.dirname(file), spec)
  const m = /^src-main\/([^/]+)\//.exec(path)
  return m ? { folder: m[1]!, path } : undefined
}

describe('layering', () => {
  it('finds the import specifiers it checks', () => {
    expect(importsOf('test/layering.test.ts')).toContain('vitest')
    expect(sourceFiles('src-shared').length).toBeGreaterThan(0)
  })

  it("only src-main/electron/ imports 'electron'", () => {
    const files = [...sourceFiles('src-main'), ...sourceFiles('src-shared'), ...sourceFiles('src-renderer/src'), ...sourceFiles('bench')]
    expect(
      violations(
        files.filter((f) => !f.startsWith('src-main/electron/')),
        isElectron
      )
    ).toEqual([])
  })

  it('the renderer never imports src-main or the preload', () => {
    expect(violations(sourceFiles('src-renderer'), (spec) => /(^|\/)src-(main|preload)(\/|$)/.test(spec))).toEqual([])
  })

  it('the renderer and preload use no Node built-ins', () => {
    expect(violations([...sourceFiles('src-renderer'), ...sourceFiles('src-preload')], isNodeBuiltin)).toEqual([])
  })

  it('only the module that opens a workspace knows whether it is local or connected', () => {
    // Hosts ask the WorkspaceBackend's optional members (`connected`, `serveNode`…), never its class.
    const opener = 'src-main/workspaces/openBackend.ts'
    const files = [...sourceFiles('src-main'), ...sourceFiles('e2e'), ...sourceFiles('bench'), ...sourceFiles('test')].filter(
      (f) => f !== opener && f !== 'test/layering.test.ts'
    )
    const found = files.flatMap((file) => {
      const m = readFileSync(join(root, file), 'utf8').match(/\binstanceof\s+(Connected|Local|Remote)Backend\b/)
      return m ? [`${file}: ${m[0]}`] : []
    })
    expect(found).toEqual([])
  })

  it('src-main imports down its floors only (base → storage → content → workspace → engines → api → backend → sync → workspaces → server → shells)', () => {
    const files = sourceFiles('src-main')
    const folders = [...new Set(files.map((f) => f.split('/')[1]!).filter((f) => !f.includes('.')))]
    expect(
      folders.filter((f) => f !== 'testing' && !floorOf.has(f)),
      'folders on no floor'
    ).toEqual([])
    const upward = files
      .filter((file) => !isTestSupport(file))
      .flatMap((file) => {
        const from = file.split('/')[1]!
        return importsOf(file).flatMap((spec) => {
          const target = targetOf(file, spec)
          if (!target || target.folder === from) return []
          if (isTestSupport(target.path) || target.folder === 'testing') return [`${file} imports '${spec}': test support`]
          const [a, b] = [floorOf.get(from)!, floorOf.get(target.folder)!]
          if (b < a) return []
          return [`${file} imports '${spec}': ${target.folder} is ${b === a ? 'beside' : 'above'} ${from}`]
        })
      })
    expect(upward).toEqual([])
  })

  it('src-shared is pure: no node:*, no electron, no DOM, no other layer', () => {
    const files = sourceFiles('src-shared')
    expect(
      violations(files, (spec) => isNodeBuiltin(spec) || isElectron(spec) || /(^|\/)src-(main|preload|renderer)(\/|$)/.test(spec))
    ).toEqual([])
    const domGlobals =
      /(?<![.\w$])(window|document|navigator|localStorage|sessionStorage|HTMLElement|Element|customElements|location|process|Buffer|__dirname|require)\b\s*[.([]/
    const domUse = files.flatMap((file) => {
      const code = readFileSync(join(root, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '')
        .replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '""')
      const m = code.match(domGlobals)
      return m ? [`${file} uses '${m[1]}'`] : []
    })
    expect(domUse).toEqual([])
  })
})
