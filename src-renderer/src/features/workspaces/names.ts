import { remoteTokenProblem, remoteUrlProblem, workspaceNameProblem } from '../../../../src-shared/workspaces.ts'

/** A shared rule's problem (`name: must not be blank`) as a form field error (`Must not be blank`), or null. */
function asFieldError(problem: string | null): string | null {
  if (!problem) return null
  const rule = problem.replace(/^[\w.]+: /, '')
  return rule.charAt(0).toUpperCase() + rule.slice(1)
}

/**
 * The shared name rule as a form field error: `name: must not be blank` → `Must not be blank` (shown under the
 * Name field before anything is sent), or null when the API would accept the name.
 */
export function nameFieldError(value: unknown): string | null {
  return asFieldError(workspaceNameProblem(value))
}

/** The shared server address rule (`remote.url: …`) as the Server address field's error. */
export function remoteUrlFieldError(value: string): string | null {
  return asFieldError(remoteUrlProblem(value.trim()))
}

/** The shared token rule (`remote.token: …`) as the API token field's error; a pasted token's edges are trimmed. */
export function remoteTokenFieldError(value: string): string | null {
  return asFieldError(remoteTokenProblem(value.trim()))
}
