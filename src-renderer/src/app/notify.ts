import { notifications } from '@mantine/notifications'
import type { UseFormReturnType } from '@mantine/form'
import { ApiError, REMOTE_OFFLINE, WORKSPACE_CHANGED } from '../api/client.ts'
import { formFieldError } from './formErrors.ts'

/**
 * A toast for an error that has no field to sit beside: the API's own message, never a stack. A write a connected
 * workspace cannot make while its server is out of reach is titled as such (the message says what can be).
 */
export function notifyError(
  error: unknown,
  title = error instanceof ApiError && error.code === REMOTE_OFFLINE ? 'Not available offline' : 'That did not work'
): void {
  const message = error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error)
  notifications.show({ color: 'red', title, message, autoClose: 8000, withBorder: true, 'data-testid': 'toast-error' })
}

export function notifyInfo(message: string): void {
  notifications.show({ color: 'blue', message, autoClose: 8000, withBorder: true, 'data-testid': 'toast-info' })
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'teal', message, autoClose: 3000, withBorder: true, 'data-testid': 'toast-success' })
}

/**
 * Puts a 400/409 answer that names a field of this form beside that field (`title: must be at most 50
 * characters` → under Title); anything else becomes a toast. `aliases` maps API names to form paths, by the
 * message's whole path (`remote.url`) or its first field (`remote`): see `formFieldError`.
 */
export function applyFormError<T extends Record<string, unknown>>(
  form: UseFormReturnType<T>,
  error: unknown,
  aliases: Record<string, string> = {}
): void {
  // Refused because another window switched workspaces: the shell says so once and leaves this screen.
  if (error instanceof ApiError && error.code === WORKSPACE_CHANGED) return
  const blamed = formFieldError(error, form.getValues(), aliases)
  if (blamed) {
    form.setFieldError(blamed.path, blamed.message)
    return
  }
  notifyError(error)
}
