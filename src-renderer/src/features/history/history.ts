// Pure logic of the history screens: how a revision is named, a revision's page tree as rows, and what a
// comparison of two revisions lists. Tested under Node.
import type { ContentPage } from '../../api/types.ts'
import type { RevisionSummary } from '../../../../src-shared/schemas/history.ts'
import type { SemanticChange, SemanticChangeType } from '../../../../src-shared/schemas/history.ts'

export type { SemanticChange }

/** Revision types as the server writes them (src-main/api/commands), in words. */
const TYPE_LABELS: Record<string, string> = {
  merge: 'Merge',
  edits: 'Edit',
  rollback: 'Restore',
  update: 'Update from main',
  import: 'Import',
  'git-sync': 'Git sync'
}

export function revisionTypeLabel(type: string): string {
  return TYPE_LABELS[type] ?? type.charAt(0).toUpperCase() + type.slice(1).replace(/[-_]/g, ' ')
}

/** An exact date and time, as the timeline's tooltips and a revision's header give it. */
export const exactTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'medium' })

/** What a timeline row says a revision did: the change request it merged, else its type. */
export function revisionTitle(revision: Pick<RevisionSummary, 'type' | 'changeRequest' | 'parents'>): string {
  if (revision.changeRequest) return `#${revision.changeRequest.number} ${revision.changeRequest.subject || 'Untitled change request'}`
  if (revision.parents.length === 0) return 'First revision'
  return revisionTypeLabel(revision.type)
}

/** A revision's pages in tree order, each with its depth (a list a virtualizer can show). */
export interface PageRow {
  page: ContentPage
  depth: number
}

export function pageRows(pages: readonly ContentPage[], depth = 0, out: PageRow[] = []): PageRow[] {
  for (const page of pages) {
    out.push({ page, depth })
    pageRows(page.pages ?? [], depth + 1, out)
  }
  return out
}

/** The page to show first: the one asked for if the revision has it, else its first document page. */
export function pickPage(rows: readonly PageRow[], wanted: string | undefined): ContentPage | undefined {
  return (
    (wanted ? rows.find((r) => r.page.id === wanted)?.page : undefined) ??
    rows.find((r) => r.page.type === 'document')?.page ??
    rows[0]?.page
  )
}

// --- comparing two revisions -------------------------------------------------------------------------------------

export type CompareGroupKey = 'created' | 'edited' | 'moved' | 'deleted' | 'files'

const GROUP_OF: Record<SemanticChangeType, CompareGroupKey> = {
  page_created: 'created',
  page_edited: 'edited',
  page_moved: 'moved',
  page_deleted: 'deleted',
  file_created: 'files',
  file_edited: 'files',
  file_deleted: 'files'
}
const GROUP_ORDER: readonly CompareGroupKey[] = ['created', 'edited', 'moved', 'deleted', 'files']
export const COMPARE_GROUP_LABELS: Record<CompareGroupKey, string> = {
  created: 'Created',
  edited: 'Edited',
  moved: 'Moved',
  deleted: 'Deleted',
  files: 'Files'
}

export function compareGroupOf(change: SemanticChange): CompareGroupKey {
  return GROUP_OF[change.type]
}

/** A page can be both edited and moved: the pair (type, page or file) names one entry. */
export function compareKey(change: SemanticChange): string {
  return `${change.type}:${change.page?.id ?? change.file?.id ?? ''}`
}

export type CompareRow =
  { kind: 'group'; key: CompareGroupKey; label: string; count: number } | { kind: 'change'; key: string; change: SemanticChange }

/** The changes grouped Created / Edited / Moved / Deleted / Files (empty groups left out), in the API's order. */
export function compareRows(changes: readonly SemanticChange[]): CompareRow[] {
  const groups = new Map<CompareGroupKey, SemanticChange[]>(GROUP_ORDER.map((k) => [k, []]))
  for (const change of changes) groups.get(GROUP_OF[change.type])!.push(change)
  return GROUP_ORDER.flatMap((key) => {
    const list = groups.get(key)!
    if (list.length === 0) return []
    return [
      { kind: 'group' as const, key, label: COMPARE_GROUP_LABELS[key], count: list.length },
      ...list.map((change) => ({ kind: 'change' as const, key: compareKey(change), change }))
    ]
  })
}

/** The entry to show: the one asked for if listed, else the first one. */
export function pickChange(rows: readonly CompareRow[], wanted: string | undefined): SemanticChange | undefined {
  const changes = rows.flatMap((r) => (r.kind === 'change' ? [r.change] : []))
  return (wanted ? changes.find((c) => compareKey(c) === wanted) : undefined) ?? changes[0]
}

/**
 * Whether a listed page can be restored as the compared revision has it: every page change but a deletion (a
 * page the revision does not have cannot be restored from it; the API refuses it).
 */
export function restorable(change: SemanticChange): boolean {
  return !!change.page && change.type !== 'page_deleted'
}

/** The pages ticked for a restore that the list still offers, once each, in the list's order. */
export function pagesToRestore(changes: readonly SemanticChange[], ticked: ReadonlySet<string>): string[] {
  const ids: string[] = []
  for (const change of changes)
    if (restorable(change) && ticked.has(change.page!.id) && !ids.includes(change.page!.id)) ids.push(change.page!.id)
  return ids
}

/** Whether a page's text (not only its settings) differs between the two revisions. */
export function textChanged(change: SemanticChange): boolean {
  return change.type === 'page_edited' && !!change.attributes?.document
}

/** `set` with `id` taken out if it is in, else put in (a ticked page, unticked). */
export function toggled(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(set)
  if (!next.delete(id)) next.add(id)
  return next
}
