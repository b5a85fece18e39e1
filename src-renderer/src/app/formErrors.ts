// Where a 400/409 answer belongs in a form. Pure (no window, no Mantine): applyFormError in notify.ts applies it.
import { fieldError } from '../api/apiError.ts'

/**
 * The form field an API error blames, and what to show under it: `title: must be at most 50 characters` →
 * `{path: 'title', message: 'Must be at most 50 characters'}`. `aliases` maps the API's names to the form's paths,
 * keyed by the message's whole path (`remote.url` → `url`) or by its first field (`emails` for `emails.0`). Null
 * when the error names no field, or one this form does not have (the caller then shows it as a toast).
 */
export function formFieldError(
  error: unknown,
  values: Record<string, unknown>,
  aliases: Record<string, string> = {}
): { path: string; message: string } | null {
  const blamed = fieldError(error)
  if (!blamed) return null
  const path = aliases[blamed.path] ?? aliases[blamed.field] ?? blamed.field
  return hasPath(values, path) ? { path, message: capitalize(blamed.rule) } : null
}

/** True when the form's values have `path` (`name`, or a nested `remote.url`, as Mantine forms name fields). */
function hasPath(values: unknown, path: string): boolean {
  let node = values
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !(key in node)) return false
    node = (node as Record<string, unknown>)[key]
  }
  return true
}

/** The rule as a sentence; one that starts with an address keeps it as written ("http://… could not be reached"). */
function capitalize(text: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : text.charAt(0).toUpperCase() + text.slice(1)
}
