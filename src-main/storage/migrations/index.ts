import { sql as init } from './0001_init'

/**
 * Numbered, append-only. Kept as TypeScript modules (not .sql files) so the same import works under Node,
 * vitest and the electron-vite bundle without a loader.
 */
export const migrations: { version: number; name: string; sql: string }[] = [{ version: 1, name: 'init', sql: init }]
