// What a connected workspace's local copy answers while its server is out of reach: the reads of what the copy
// keeps (the mirror: organizations, collections, spaces, their pages, change requests), and the writes the outbox
// can send later (change requests and their content, as journal.ts records them). Everything else is refused with
// a message that says so, rather than answered from a copy that does not have it.

const ID = '[^/]+'
const OFFLINE_READS = [
  '/v1/user',
  '/v1/orgs',
  `/v1/orgs/${ID}`,
  `/v1/orgs/${ID}/(spaces|collections|search)`,
  `/v1/collections/${ID}(/spaces)?`,
  `/v1/spaces/${ID}`,
  `/v1/spaces/${ID}/(search|content|content/pages|content/page/${ID})`,
  `/v1/spaces/${ID}/change-requests(/${ID}(/(changes|content|content/pages|content/page/${ID}))?)?`
].map((pattern) => new RegExp(`^${pattern}$`))

const OFFLINE_WRITES: [string, RegExp][] = [
  ['POST', new RegExp(`^/v1/spaces/${ID}/change-requests$`)],
  ['PATCH', new RegExp(`^/v1/spaces/${ID}/change-requests/${ID}$`)],
  ['POST', new RegExp(`^/v1/spaces/${ID}/change-requests/${ID}/content$`)]
]

export const isOfflineRead = (pathname: string): boolean => OFFLINE_READS.some((re) => re.test(pathname))

/** Why a write cannot be kept for later (null: it can). `host` names the server in the message. */
export function offlineWriteProblem(method: string, pathname: string, body: string | undefined, host: string): string | null {
  if (!OFFLINE_WRITES.some(([m, re]) => m === method && re.test(pathname))) {
    return `${host} is out of reach, and this change needs it. Change requests and their pages can be edited meanwhile: those edits are kept on this computer and sent when it answers`
  }
  if (body && /"operation"\s*:\s*"insert_files"/.test(body)) {
    return `${host} is out of reach: files can be added once it answers again (text edits are kept meanwhile)`
  }
  return null
}

export const notKeptOffline = (host: string) =>
  `Not available offline: ${host} is out of reach, and this computer keeps only organizations, spaces, their pages and change requests`

/** Why a write to a change request with unsent changes waits for them (it needs the server's version of it). */
export function heldWriteProblem(pathname: string, body: string | undefined, host: string): string {
  const what = pathname.endsWith('/merge')
    ? 'it can be merged'
    : pathname.endsWith('/update')
      ? 'it can be updated'
      : body && /"operation"\s*:\s*"insert_files"/.test(body)
        ? 'files can be added to it'
        : 'this change can be made'
  return `This change request has changes ${host} does not have yet: send them, or discard them (Unsent changes), before ${what}`
}
