import type GitModule from 'isomorphic-git'
import type HttpModule from 'isomorphic-git/http/node'

// isomorphic-git and its HTTP client load on the first Git operation: most starts never sync, and loading them
// (with their hashing and compression dependencies) was a tenth of a cold start.
let git: Promise<typeof GitModule> | undefined
let http: Promise<typeof HttpModule> | undefined

export const loadGit = (): Promise<typeof GitModule> => (git ??= import('isomorphic-git').then((m) => m.default))
export const loadGitHttp = (): Promise<typeof HttpModule> => (http ??= import('isomorphic-git/http/node').then((m) => m.default))
