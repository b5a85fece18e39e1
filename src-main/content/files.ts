import { createHash } from 'node:crypto'
import { extname } from 'node:path'
import { imageSize } from 'image-size'
import { fileReference } from '../../src-shared/pagePaths'
import type { Db } from '../storage/database'
import { newId } from '../storage/ids'
import type { FileRecord } from './revisions'

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.csv': 'text/csv',
  '.zip': 'application/zip',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml'
}

/**
 * Finds the file of `files` a link or image URL names: by id (`/files/<id>`), or by a path ending in its name
 * (the last file of that name, as the links list resolves it).
 */
export function fileLookup(files: readonly FileRecord[]): (url: string) => FileRecord | undefined {
  const byId = new Map(files.map((f) => [f.id, f]))
  const byName = new Map(files.map((f) => [f.name, f]))
  return (url) => {
    const ref = fileReference(url)
    return ref && ('id' in ref ? byId.get(ref.id) : byName.get(ref.name))
  }
}

export function contentTypeOf(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream'
}

/** Width and height read from the image's own header; none for non-images or unreadable data. */
export function dimensionsOf(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const size = imageSize(bytes)
    return size.width && size.height ? { width: size.width, height: size.height } : undefined
  } catch {
    return undefined
  }
}

/** Stores bytes once by SHA-256 (content-addressed) and describes them as a new file of a revision. */
export function storeFile(db: Db, name: string, bytes: Uint8Array, contentType?: string): FileRecord {
  const hash = createHash('sha256').update(bytes).digest('hex')
  db.prepare('INSERT OR IGNORE INTO blobs (hash, size, bytes) VALUES (?, ?, ?)').run(hash, bytes.byteLength, Buffer.from(bytes))
  const dims = dimensionsOf(bytes)
  return {
    id: newId(),
    name,
    contentType: contentType || contentTypeOf(name),
    blobHash: hash,
    size: bytes.byteLength,
    width: dims?.width ?? null,
    height: dims?.height ?? null,
    git: null
  }
}

export function readBlob(db: Db, hash: string): Buffer | undefined {
  return db.prepare<[string], Buffer>('SELECT bytes FROM blobs WHERE hash = ?').pluck().get(hash)
}
