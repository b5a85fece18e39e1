import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

/**
 * A maker of fresh folders under the system's temp folder, named `quire-<prefix>-…`; every folder it made is
 * removed after each test. Call it at a test file's top level.
 */
export function tempDirs(prefix: string): () => string {
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync(join(tmpdir(), `quire-${prefix}-`))
    made.push(dir)
    return dir
  }
}
