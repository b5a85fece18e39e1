// The space's Files tab: which files match the name filter, in what order, and how much they weigh. Pure: tested
// in Node.
import type { ContentFile } from '../../api/types.ts'

/** Files whose name holds every word of the filter (any case), by name. */
export function filterFiles(files: ContentFile[], filter: string): ContentFile[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean)
  const kept = words.length ? files.filter((f) => words.every((w) => f.name.toLowerCase().includes(w))) : files
  return [...kept].sort(
    (a, b) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }) || a.id.localeCompare(b.id)
  )
}

/** "image", "PDF", "text"…: what a content type is, in a word for the list. */
export function kindOf(contentType: string): string {
  const [type = '', subtype = ''] = contentType.split(';')[0]!.trim().toLowerCase().split('/')
  if (type === 'image') return `${subtype.replace(/^svg\+xml$/, 'svg').toUpperCase()} image`
  if (subtype === 'pdf') return 'PDF'
  if (type === 'text') return subtype === 'plain' ? 'Text' : `${subtype.toUpperCase()} text`
  if (type === 'video' || type === 'audio') return type === 'video' ? 'Video' : 'Audio'
  return subtype ? subtype.toUpperCase().replace(/^X-/, '') : 'File'
}

/** Whether the app may show the file as an image (the preview's CSP allows the app's own downloads). */
export const isImage = (file: Pick<ContentFile, 'contentType'>) => file.contentType.toLowerCase().startsWith('image/')
