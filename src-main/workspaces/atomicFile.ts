import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs'

/**
 * Replaces `path` with `text` atomically: a temp file in the same folder, fsynced, then renamed over it, so a
 * crash leaves either the old file or the new one. Readable by this user only (the files hold workspace lists
 * and connection settings).
 */
export function writeFileAtomic(path: string, text: string): void {
  const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`
  try {
    const fd = openSync(temp, 'w', 0o600)
    try {
      writeSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, path)
  } catch (error) {
    try {
      unlinkSync(temp)
    } catch {
      // never written, or already renamed
    }
    throw error
  }
}
