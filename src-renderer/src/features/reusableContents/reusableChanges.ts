// What a change request did to the reusable contents: its head's against its merge base's. Pure: tested in Node.

export interface ContentVersion {
  id: string
  title: string
  markdown: string
}

export interface ReusableChange {
  kind: 'added' | 'edited' | 'removed'
  id: string
  /** The title now (the old one for a removal). */
  title: string
  /** The old title, when it changed. */
  renamedFrom?: string
}

/** Added and edited contents in the head's order (by title), then the removed ones. */
export function reusableChanges(base: readonly ContentVersion[], head: readonly ContentVersion[]): ReusableChange[] {
  const before = new Map(base.map((c) => [c.id, c]))
  const out: ReusableChange[] = []
  for (const c of head) {
    const b = before.get(c.id)
    if (!b) out.push({ kind: 'added', id: c.id, title: c.title })
    else if (b.title !== c.title || b.markdown !== c.markdown)
      out.push({ kind: 'edited', id: c.id, title: c.title, ...(b.title !== c.title ? { renamedFrom: b.title } : {}) })
  }
  const now = new Set(head.map((c) => c.id))
  for (const b of base) if (!now.has(b.id)) out.push({ kind: 'removed', id: b.id, title: b.title })
  return out
}
