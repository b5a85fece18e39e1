// What a connected workspace says when its server is out of reach, or when a change request still has changes the
// server does not have. Which requests the copy answers or keeps is not decided here: each route declares it
// (`config.offline`, api/offline.ts).
import type { RouteMatch } from '../workspace/offline'

export const needsServer = (host: string) =>
  `${host} is out of reach, and this change needs it. Change requests and their pages can be edited meanwhile: those edits are kept on this computer and sent when it answers`

export const filesNeedServer = (host: string) => `${host} is out of reach: files can be added once it answers again (text edits are kept meanwhile)`

export const notKeptOffline = (host: string) =>
  `Not available offline: ${host} is out of reach, and this computer keeps only organizations, spaces, their pages and change requests`

/** True for a content batch that adds files (the copy keeps no file bytes to send later). */
export function addsFiles(body: string | undefined): boolean {
  if (!body) return false
  try {
    const changes = (JSON.parse(body) as { changes?: unknown }).changes
    return Array.isArray(changes) && changes.some((c) => (c as { operation?: unknown } | null)?.operation === 'insert_files')
  } catch {
    return false
  }
}

/** Why a write to a change request with unsent changes waits for them (it needs the server's version of it). */
export function heldWriteProblem(route: RouteMatch, files: boolean, host: string): string {
  const what = route.pattern.endsWith('/merge')
    ? 'it can be merged'
    : route.pattern.endsWith('/update')
      ? 'it can be updated'
      : files
        ? 'files can be added to it'
        : 'this change can be made'
  return `This change request has changes ${host} does not have yet: send them, or discard them (Unsent changes), before ${what}`
}
