import { workspaceNameProblem } from '../../../../src-shared/workspaces.ts'

/**
 * The shared name rule as a form field error: `name: must not be blank` → `Must not be blank` (shown under the
 * Name field before anything is sent), or null when the API would accept the name.
 */
export function nameFieldError(value: unknown): string | null {
  const problem = workspaceNameProblem(value)
  if (!problem) return null
  const rule = problem.replace(/^name: /, '')
  return rule.charAt(0).toUpperCase() + rule.slice(1)
}
