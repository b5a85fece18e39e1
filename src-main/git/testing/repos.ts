// Test-only: real Git repositories made with isomorphic-git (no git binary), and readers to check them.
import * as fs from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import git from 'isomorphic-git'
import { listFiles, readBlob, resolveRef, writeBlob, writeCommit, writeTreeFromPaths, type TreeFile } from '../objects'

const made: string[] = []

/** A new temporary folder, removed by `removeTempDirs()`. */
export function tempDir(prefix = 'quire-git-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  made.push(dir)
  return dir
}

/** Removes every folder `tempDir` made (call after each test). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
}

let clock = Date.UTC(2026, 0, 1) / 1000

/**
 * Commits `files` (the whole tree) on `branch` of the repository at `gitdir`, on top of the branch's current
 * commit when there is one. Returns the commit oid.
 */
export async function commitTree(
  gitdir: string,
  files: Record<string, string | Uint8Array>,
  options: { branch?: string; message?: string } = {}
) {
  const ref = `refs/heads/${options.branch ?? 'main'}`
  const entries = new Map<string, TreeFile>()
  for (const [path, content] of Object.entries(files)) {
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content
    entries.set(path, { oid: await writeBlob(gitdir, bytes), mode: '100644' })
  }
  const parent = await resolveRef(gitdir, ref)
  const oid = await writeCommit(gitdir, {
    tree: await writeTreeFromPaths(gitdir, entries),
    parents: parent ? [parent] : [],
    message: options.message ?? 'Test commit',
    author: { name: 'Test Author', email: 'author@example.com', timestamp: ++clock }
  })
  await git.writeRef({ fs, gitdir, ref, value: oid, force: true })
  return oid
}

/** A new bare repository (the kind a server holds) with `files` committed on `branch`. Returns its folder. */
export async function bareRepo(files?: Record<string, string | Uint8Array>, branch = 'main'): Promise<string> {
  const dir = tempDir('quire-bare-')
  await git.init({ fs, dir, gitdir: dir, bare: true, defaultBranch: branch })
  if (files) await commitTree(dir, files, { branch })
  return dir
}

/** A new working repository (`<dir>/.git`), files written and committed through the index like a person would. */
export async function workingRepo(files: Record<string, string>, branch = 'main'): Promise<string> {
  const dir = tempDir('quire-work-')
  await git.init({ fs, dir, defaultBranch: branch })
  for (const [path, content] of Object.entries(files)) {
    fs.mkdirSync(join(dir, path, '..'), { recursive: true })
    fs.writeFileSync(join(dir, path), content)
    await git.add({ fs, dir, filepath: path })
  }
  await git.commit({ fs, dir, message: 'Initial docs', author: { name: 'Test Author', email: 'author@example.com', timestamp: ++clock } })
  return dir
}

/** The text of every file at `ref` (a branch or commit oid). */
export async function readTexts(gitdir: string, ref = 'refs/heads/main'): Promise<Record<string, string>> {
  const oid = /^[0-9a-f]{40}$/.test(ref) ? ref : await git.resolveRef({ fs, gitdir, ref })
  const out: Record<string, string> = {}
  for (const [path, file] of await listFiles(gitdir, oid)) out[path] = new TextDecoder().decode(await readBlob(gitdir, file.oid))
  return out
}

export async function headOf(gitdir: string, branch = 'main'): Promise<string> {
  return git.resolveRef({ fs, gitdir, ref: `refs/heads/${branch}` })
}

export async function commitOf(gitdir: string, oid: string) {
  return (await git.readCommit({ fs, gitdir, oid })).commit
}
