// How a connected workspace is shown: its server's host, the account it is connected as, its connection's status.
// Pure (tested under Node).
import type { RemoteAccount, RemoteStatus, Workspace } from '../../../../src-shared/workspaces.ts'

/** The host a server address names (`https://docs.example.com:8443/api` → `docs.example.com:8443`). */
export function remoteHost(url: string): string {
  try {
    return new URL(url).host || url
  } catch {
    return url
  }
}

/** `Ada (ada@example.com)`, or the name alone when the server gave no email. */
export function accountLabel(account: RemoteAccount): string {
  return account.email && account.email !== account.displayName ? `${account.displayName} (${account.email})` : account.displayName
}

/** A connection's status as a small badge: its words and colour. */
export const CONNECTION_STATUS: Record<RemoteStatus, { label: string; color: string }> = {
  online: { label: 'Online', color: 'teal' },
  unreachable: { label: 'Cannot reach', color: 'orange' },
  refused: { label: 'Token refused', color: 'red' },
  unknown: { label: 'Not checked', color: 'gray' }
}

/** True when a connected workspace's server did not answer, or refused its token, the last time it was asked. */
export function isCutOff(workspace: Pick<Workspace, 'remote'> | undefined): boolean {
  const status = workspace?.remote?.connection.status
  return status === 'unreachable' || status === 'refused'
}
