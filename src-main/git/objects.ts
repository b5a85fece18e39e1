import * as fs from 'node:fs'
import { loadGit } from './isomorphicGit'

/** A file of a Git tree: its blob and mode (`100644`, `100755`, `120000` for a symlink). */
export interface TreeFile {
  oid: string
  mode: string
}

/** More entries than this in one tree walk and the repository is refused (a docs repo is far smaller). */
export const MAX_TREE_FILES = 50_000

export class TreeTooLargeError extends Error {
  constructor() {
    super(`the repository has more than ${MAX_TREE_FILES} files`)
  }
}

/** Every blob of a commit's tree, by full path (`docs/guide/README.md`). Submodules are left out. */
export async function listFiles(gitdir: string, commitOid: string): Promise<Map<string, TreeFile>> {
  const git = await loadGit()
  const { commit } = await git.readCommit({ fs, gitdir, oid: commitOid })
  const files = new Map<string, TreeFile>()
  const visit = async (treeOid: string, prefix: string) => {
    const { tree } = await git.readTree({ fs, gitdir, oid: treeOid })
    for (const entry of tree) {
      const path = prefix ? `${prefix}/${entry.path}` : entry.path
      if (entry.type === 'tree') await visit(entry.oid, path)
      else if (entry.type === 'blob') {
        if (files.size >= MAX_TREE_FILES) throw new TreeTooLargeError()
        files.set(path, { oid: entry.oid, mode: entry.mode })
      }
    }
  }
  await visit(commit.tree, '')
  return files
}

export async function readBlob(gitdir: string, oid: string): Promise<Uint8Array> {
  const git = await loadGit()
  return (await git.readBlob({ fs, gitdir, oid })).blob
}

export async function writeBlob(gitdir: string, bytes: Uint8Array): Promise<string> {
  const git = await loadGit()
  return git.writeBlob({ fs, gitdir, blob: bytes })
}

interface Dir {
  files: Map<string, TreeFile>
  dirs: Map<string, Dir>
}

/** Writes the nested trees for a flat map of paths and returns the root tree's oid. */
export async function writeTreeFromPaths(gitdir: string, files: Map<string, TreeFile>): Promise<string> {
  const git = await loadGit()
  const root: Dir = { files: new Map(), dirs: new Map() }
  for (const [path, file] of files) {
    const parts = path.split('/')
    let dir = root
    for (const part of parts.slice(0, -1)) {
      let next = dir.dirs.get(part)
      if (!next) dir.dirs.set(part, (next = { files: new Map(), dirs: new Map() }))
      dir = next
    }
    dir.files.set(parts[parts.length - 1]!, file)
  }
  const write = async (dir: Dir): Promise<string> => {
    const tree: { mode: string; path: string; oid: string; type: 'blob' | 'tree' }[] = []
    for (const [name, sub] of dir.dirs) tree.push({ mode: '040000', path: name, oid: await write(sub), type: 'tree' })
    for (const [name, file] of dir.files) tree.push({ mode: file.mode, path: name, oid: file.oid, type: 'blob' })
    return git.writeTree({ fs, gitdir, tree })
  }
  return write(root)
}

export interface Signature {
  name: string
  email: string
  /** Seconds since the epoch. */
  timestamp: number
}

/** Writes a commit object (no ref moves) and returns its oid. */
export async function writeCommit(
  gitdir: string,
  input: { tree: string; parents: string[]; message: string; author: Signature }
): Promise<string> {
  const git = await loadGit()
  const who = { name: input.author.name, email: input.author.email, timestamp: input.author.timestamp, timezoneOffset: 0 }
  return git.writeCommit({
    fs,
    gitdir,
    commit: {
      tree: input.tree,
      parent: input.parents,
      message: input.message.endsWith('\n') ? input.message : `${input.message}\n`,
      author: who,
      committer: who
    }
  })
}

export async function readCommit(gitdir: string, oid: string) {
  const git = await loadGit()
  return (await git.readCommit({ fs, gitdir, oid })).commit
}

/** The oid a ref names in `gitdir`, or undefined when the ref does not exist. */
export async function resolveRef(gitdir: string, ref: string): Promise<string | undefined> {
  const git = await loadGit()
  try {
    return await git.resolveRef({ fs, gitdir, ref })
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFoundError') return undefined
    throw error
  }
}
