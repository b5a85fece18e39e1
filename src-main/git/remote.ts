import { isAbsolute, basename } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where a sync reads and writes: an http(s) remote (credentials split off the URL, kept in memory only) or a
 * repository on this machine (a folder path or a file:// URL).
 */
export type Remote = { kind: 'http'; url: string; auth?: { username: string; password: string } } | { kind: 'local'; path: string }

export class RemoteUrlError extends Error {}

/** Parses the `url` of an import or export. Throws RemoteUrlError with a message that never repeats the URL. */
export function parseRemote(raw: string): Remote {
  const value = raw.trim()
  if (/^https?:\/\//i.test(value)) {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      throw new RemoteUrlError('must be a valid http(s) URL')
    }
    const auth =
      url.username || url.password ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : undefined
    url.username = ''
    url.password = ''
    url.hash = ''
    return { kind: 'http', url: url.toString(), auth }
  }
  if (/^file:\/\//i.test(value)) {
    try {
      return { kind: 'local', path: fileURLToPath(value) }
    } catch {
      throw new RemoteUrlError('must be a valid file:// URL')
    }
  }
  if (isAbsolute(value)) return { kind: 'local', path: value }
  throw new RemoteUrlError('must be an http(s) URL, a file:// URL or an absolute path to a local repository')
}

/** The URL as it may be shown and stored: never with credentials. */
export function displayUrl(remote: Remote): string {
  return remote.kind === 'http' ? remote.url : remote.path
}

/** `github` / `gitlab` from the host (or the caller's `gitInfo.provider`), else `git`. */
export function providerOf(remote: Remote, hint?: string): 'github' | 'gitlab' | 'git' {
  if (hint === 'github' || hint === 'gitlab') return hint
  if (remote.kind !== 'http') return 'git'
  const host = new URL(remote.url).hostname.toLowerCase()
  if (host === 'github.com' || host.endsWith('.github.com')) return 'github'
  if (host === 'gitlab.com' || host.startsWith('gitlab.')) return 'gitlab'
  return 'git'
}

/** `owner/repo` for an http remote (the path without `.git`), the folder name for a local one. */
export function repoNameOf(remote: Remote): string {
  if (remote.kind === 'local') return basename(remote.path.replace(/[\\/]+$/, '')).replace(/\.git$/, '') || remote.path
  const path = decodeURIComponent(new URL(remote.url).pathname)
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
  return path || new URL(remote.url).host
}

/**
 * Removes credentials from any text headed for a log, a stored row or a response: userinfo in URLs, and the
 * given secrets (the password and its URL-encoded form) wherever they appear.
 */
export function redact(text: string, remote?: Remote): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1')
  if (remote?.kind === 'http' && remote.auth) {
    for (const secret of [remote.auth.password, encodeURIComponent(remote.auth.password)]) {
      if (secret.length >= 3) out = out.split(secret).join('***')
    }
  }
  return out
}

/** `refs/heads/<branch>` with a name Git accepts (git check-ref-format, the rules that matter here). */
export function isBranchRef(ref: string): boolean {
  if (!ref.startsWith('refs/heads/')) return false
  const name = ref.slice('refs/heads/'.length)
  if (!name || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return false
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name) || name.includes('..') || name.includes('@{') || name.includes('//')) return false
  return name.split('/').every((part) => part && !part.startsWith('.'))
}
