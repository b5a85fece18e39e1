// Comments on a passage of a page: the `node` target of the API (`{id, preview}`). The API keeps both as given and
// does not read the id; Quire writes `passage:<section>:<n>`: the heading id (`src-shared/slug.ts` headingIds, as
// the preview and search anchors) of the section the passage is in (`top` before the first heading), and which
// occurrence of the passage's text in that section it is (0 first). The preview is the passage's text. The
// editor finds the passage again by its text, that occurrence in that section first, else its first occurrence
// anywhere; when the text is nowhere in the page, the comment is outdated. Pure (tested under Node).
import { headingIds } from '../../../../src-shared/slug.ts'

export const PASSAGE_PREFIX = 'passage:'
/** The API's longest `node.preview`. */
export const PREVIEW_MAX = 1000
/** The API's longest `node.id`, less room for the prefix and the occurrence. */
const SECTION_MAX = 150

export interface PassageNode {
  id: string
  preview: string
}

interface Section {
  id: string
  start: number
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/
const FENCE = /^ {0,3}(`{3,}|~{3,})/

/** The sections of a markdown document: each ATX heading's id and where its line starts (code fences skipped). */
export function sectionsOf(doc: string): Section[] {
  const idOf = headingIds()
  const sections: Section[] = [{ id: 'top', start: 0 }]
  let fence: string | null = null
  let at = 0
  for (const line of doc.split('\n')) {
    const opens = FENCE.exec(line)
    if (fence) {
      if (opens && opens[1]![0] === fence[0] && opens[1]!.length >= fence.length) fence = null
    } else if (opens) {
      fence = opens[1]!
    } else {
      const heading = HEADING.exec(line)
      if (heading) sections.push({ id: idOf(heading[2]!), start: at })
    }
    at += line.length + 1
  }
  return sections
}

function sectionAt(sections: Section[], pos: number): Section & { end: number } {
  let i = 0
  while (i + 1 < sections.length && sections[i + 1]!.start <= pos) i++
  return { ...sections[i]!, end: sections[i + 1]?.start ?? Infinity }
}

function occurrences(doc: string, text: string, from = 0, to = Infinity): number[] {
  const found: number[] = []
  for (let at = doc.indexOf(text, from); at !== -1 && at + text.length <= to; at = doc.indexOf(text, at + 1)) found.push(at)
  return found
}

/** The node of the passage selected from `from` to `to` (its surrounding blanks left out), or null for blanks only. */
export function passageNode(doc: string, from: number, to: number): PassageNode | null {
  const raw = doc.slice(from, to)
  const start = from + (raw.length - raw.trimStart().length)
  const preview = raw.trim().slice(0, PREVIEW_MAX)
  if (!preview) return null
  const section = sectionAt(sectionsOf(doc), start)
  const n = occurrences(doc, preview, section.start, section.end).indexOf(start)
  return { id: `${PASSAGE_PREFIX}${section.id.slice(0, SECTION_MAX)}:${Math.max(0, n)}`, preview }
}

/** Whether a comment's node is a passage Quire can find in the text. */
export function isPassage(node: { id: string; preview?: string } | undefined): node is PassageNode {
  return !!node && node.id.startsWith(PASSAGE_PREFIX) && !!node.preview
}

/** Where the passage is in `doc` now, or null when its text is gone (the comment is outdated). */
export function locatePassage(doc: string, node: PassageNode): { from: number; to: number } | null {
  const rest = node.id.slice(PASSAGE_PREFIX.length)
  const split = rest.lastIndexOf(':')
  const sectionId = split === -1 ? rest : rest.slice(0, split)
  const n = split === -1 ? 0 : Number(rest.slice(split + 1)) || 0
  const section = sectionsOf(doc)
    .map((s, i, all) => ({ ...s, end: all[i + 1]?.start ?? Infinity }))
    .find((s) => s.id === sectionId)
  const inSection = section ? occurrences(doc, node.preview, section.start, section.end) : []
  const at = inSection[n] ?? inSection[0] ?? doc.indexOf(node.preview)
  return at === -1 ? null : { from: at, to: at + node.preview.length }
}
