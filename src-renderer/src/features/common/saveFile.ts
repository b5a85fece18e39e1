/** Saves bytes or text as a download named `filename` (the browser's or the desktop app's save flow). */
export function saveFile(data: BlobPart, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  // The download has its bytes once it started; the address is let go of a little later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
