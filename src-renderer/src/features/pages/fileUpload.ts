// Files dropped, pasted or picked into the editor: the size rule checked before anything is sent, the markdown
// that links an uploaded file, and which listed file an upload became (the API answers with the change request,
// not the file). The checks and names are pure (tested in Node); `readAsBase64` needs a browser.

/** The API refuses a file larger than this once decoded. */
export const MAX_FILE_BYTES = 1024 * 1024

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KB`
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
}

/** Why a file cannot be uploaded, or null when it can. */
export function fileProblem(file: { name: string; size: number }): string | null {
  if (file.size > MAX_FILE_BYTES) return `“${file.name}” (${formatBytes(file.size)}) is larger than 1 MB, the most a file can be.`
  if (file.size === 0) return `“${file.name}” is empty.`
  return null
}

/** A name for a pasted image, which comes without one (`image.png` from the clipboard). */
export function uploadName(file: { name: string; type: string }, now = new Date()): string {
  if (file.name && file.name !== 'image.png') return file.name
  const ext = file.type.startsWith('image/') ? file.type.slice('image/'.length).replace('jpeg', 'jpg').replace(/\+.*$/, '') : 'bin'
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')
  return `pasted-${stamp}.${ext}`
}

/** The markdown that shows (images) or links (anything else) an uploaded file. */
export function fileMarkdown(file: { id: string; name: string; contentType: string }): string {
  const label = file.name.replace(/[[\]\\]/g, (c) => `\\${c}`)
  return file.contentType.startsWith('image/') ? `![${label}](/files/${file.id})` : `[${label}](/files/${file.id})`
}

/**
 * The files an upload created: the revision's files after it, minus those before, matched to the uploaded names
 * in order (two uploads of one name take the new files of that name one by one).
 */
export function newFiles<T extends { id: string; name: string }>(
  beforeIds: ReadonlySet<string>,
  after: T[],
  names: string[]
): (T | undefined)[] {
  const fresh = after.filter((f) => !beforeIds.has(f.id))
  return names.map((name) => {
    const i = fresh.findIndex((f) => f.name === name)
    return i < 0 ? undefined : fresh.splice(i, 1)[0]
  })
}

/** The file's bytes as base64, reporting how much was read (0..1). */
export function readAsBase64(file: Blob, onProgress?: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onprogress = (e) => {
      if (e.lengthComputable && onProgress) onProgress(e.loaded / e.total)
    }
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'))
    reader.onload = () => {
      const url = String(reader.result)
      resolve(url.slice(url.indexOf(',') + 1))
    }
    reader.readAsDataURL(file)
  })
}
