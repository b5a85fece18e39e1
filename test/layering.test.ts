// Imports flow one way: renderer → shared, preload → shared, main → shared; only src-main/electron/ imports
// 'electron'. This test keeps that honest without a linter.
import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, relative, sep } from 'node:path'
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
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  for (const re of patterns) for (const m of text.matchAll(re)) specs.push(m[1]!)
  return specs
}

const isElectron = (spec: string) => spec === 'electron' || spec.startsWith('electron/')
const nodeBuiltins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]))
const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || nodeBuiltins.has(spec)

function violations(files: string[], bad: (spec: string, file: string) => boolean): string[] {
  return files.flatMap((file) => importsOf(file).filter((spec) => bad(spec, file)).map((spec) => `${file} imports '${spec}'`))
}

describe('layering', () => {
  it('finds the import specifiers it checks', () => {
    expect(importsOf('test/layering.test.ts')).toContain('vitest')
    expect(sourceFiles('src-shared').length).toBeGreaterThan(0)
  })

  it("only src-main/electron/ imports 'electron'", () => {
    const files = [...sourceFiles('src-main'), ...sourceFiles('src-shared'), ...sourceFiles('src-renderer/src'), ...sourceFiles('bench')]
    expect(violations(files.filter((f) => !f.startsWith('src-main/electron/')), isElectron)).toEqual([])
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
    const files = [...sourceFiles('src-main'), ...sourceFiles('e2e'), ...sourceFiles('bench'), ...sourceFiles('test')].filter((f) => f !== opener && f !== 'test/layering.test.ts')
    const found = files.flatMap((file) => {
      const m = readFileSync(join(root, file), 'utf8').match(/\binstanceof\s+(Connected|Local|Remote)Backend\b/)
      return m ? [`${file}: ${m[0]}`] : []
    })
    expect(found).toEqual([])
  })

  it('src-shared is pure: no node:*, no electron, no DOM, no other layer', () => {
    const files = sourceFiles('src-shared')
    expect(violations(files, (spec) => isNodeBuiltin(spec) || isElectron(spec) || /(^|\/)src-(main|preload|renderer)(\/|$)/.test(spec))).toEqual([])
    const domGlobals = /(?<![.\w$])(window|document|navigator|localStorage|sessionStorage|HTMLElement|Element|customElements|location|process|Buffer|__dirname|require)\b\s*[.([]/
    const domUse = files.flatMap((file) => {
      const code = readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '""')
      const m = code.match(domGlobals)
      return m ? [`${file} uses '${m[1]}'`] : []
    })
    expect(domUse).toEqual([])
  })
})
