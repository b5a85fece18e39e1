// The rows a changed page or file shows for what changed besides its text (`attributes` of a revision's or a change
// request's changes, src-shared/schemas/history.ts): one label with the value before and after, as words.
import type { SemanticChange } from '../../../../src-shared/schemas/history.ts'

type Attributes = NonNullable<SemanticChange['attributes']>

export interface AttributeRow {
  key: string
  label: string
  before: string
  after: string
}

const LABELS: Record<string, string> = {
  title: 'Title',
  slug: 'Slug',
  emoji: 'Emoji',
  icon: 'Icon',
  description: 'Description',
  hidden: 'Hidden',
  noIndex: 'No index',
  noRobotsIndex: 'No robots index',
  target: 'Link',
  name: 'Name',
  contentType: 'Type',
  size: 'Size',
  downloadURL: 'Download'
}

const LAYOUT_LABELS: Record<string, string> = {
  width: 'width',
  cover: 'cover',
  coverSize: 'cover size',
  coverMask: 'cover mask',
  title: 'title',
  description: 'description',
  tableOfContents: 'table of contents',
  outline: 'outline',
  pagination: 'pagination',
  metadata: 'metadata',
  tags: 'tags',
  actions: 'actions',
  anchors: 'anchors'
}

/** A value as a reader reads it: `—` for none, yes/no for a flag. */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (typeof value === 'object' && 'url' in value) return String((value as { url: unknown }).url)
  return String(value)
}

type Cover = NonNullable<Attributes['cover']>['before']
const coverShown = (cover: Cover | undefined, other: Cover | undefined) =>
  !cover ? '—' : other && other.ref.file === cover.ref.file ? `image, offset ${cover.yPos}` : 'image'

/**
 * What changed besides the text (`document` is the text itself), in the order the attributes come: a layout
 * change gives a row per part it shows or hides, a cover change says whether an image is set.
 */
export function attributeRows(attributes: SemanticChange['attributes'] | undefined): AttributeRow[] {
  const rows: AttributeRow[] = []
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (key === 'document' || !value) continue
    if (key === 'layout') {
      const { before, after } = value as NonNullable<Attributes['layout']>
      for (const part of Object.keys(after) as (keyof typeof after)[]) {
        if (before[part] === after[part]) continue
        const word = (v: unknown) => (typeof v === 'boolean' ? (v ? 'shown' : 'hidden') : String(v))
        rows.push({
          key: `layout.${part}`,
          label: `Layout: ${LAYOUT_LABELS[part] ?? part}`,
          before: word(before[part]),
          after: word(after[part])
        })
      }
      continue
    }
    if (key === 'cover') {
      const { before, after } = value as NonNullable<Attributes['cover']>
      rows.push({ key, label: 'Cover', before: coverShown(before, after), after: coverShown(after, before) })
      continue
    }
    const { before, after } = value as { before?: unknown; after?: unknown }
    rows.push({ key, label: LABELS[key] ?? key, before: shownValue(before), after: shownValue(after) })
  }
  return rows
}
