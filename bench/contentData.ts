// The content benchmark's data: one space of many pages with generated prose, written straight through the
// content core (storeDocument, writeRevision, syncSearchIndex) in batched transactions, no HTTP.
import type { Services } from '../src-main/workspace/context'
import { systemCtx } from '../src-main/workspace/context'
import { createSpace } from '../src-main/api/commands/spaceCreator'
import { writeRevision, type PageRecord } from '../src-main/content/revisions'
import { storeDocument } from '../src-main/content/documents'
import { syncSearchIndex } from '../src-main/content/searchIndex'
import { newId } from '../src-main/storage/ids'
import { repository } from '../src-main/storage/repositories/memo'
import { spaceRepository } from '../src-main/storage/repositories/spaceRepository'
import type { UserRow } from '../src-main/storage/repositories/userRepository'
import { prng } from '../src-main/testing/prng'

// A seeded PRNG, so every run indexes the same text.
export { prng }

// 90 consonant-vowel syllables, 2 to 4 per word (sometimes a closing consonant): words share prefixes about as
// rarely as English words do, which matters because search matches the last word as a prefix.
const SYLLABLES = [...'bcdfghjklmnprstvwz'].flatMap((c) => [...'aeiou'].map((v) => c + v))
const CLOSING = 'nrstlm'

/**
 * A vocabulary of `size` distinct pseudo-words, used with a Zipf distribution (the word of rank r is drawn with
 * probability ∝ 1/r), the shape of natural-language word frequencies: a few words are everywhere, most are rare.
 */
export class Vocabulary {
  readonly words: string[] = []
  private readonly cumulative: Float64Array

  constructor(size: number, random: () => number) {
    const seen = new Set<string>()
    while (this.words.length < size) {
      const n = 2 + Math.floor(random() * 3)
      let w = ''
      for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)]
      if (random() < 0.3) w += CLOSING[Math.floor(random() * CLOSING.length)]
      if (!seen.has(w)) {
        seen.add(w)
        this.words.push(w)
      }
    }
    this.cumulative = new Float64Array(size)
    let sum = 0
    for (let r = 0; r < size; r++) this.cumulative[r] = sum += 1 / (r + 1)
    for (let r = 0; r < size; r++) this.cumulative[r]! /= sum
  }

  draw(random: () => number): string {
    const x = random()
    let lo = 0
    let hi = this.cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.cumulative[mid]! < x) lo = mid + 1
      else hi = mid
    }
    return this.words[lo]!
  }

  sentence(random: () => number, length: number): string {
    const words = Array.from({ length }, () => this.draw(random))
    return `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`
  }
}

export interface ContentSpace {
  spaceId: string
  revisionId: string
  /** Every page id, in tree order (chapters first, then their pages). */
  pageIds: string[]
  /** Leaf pages (what the benchmark edits). */
  leafIds: string[]
  vocabulary: Vocabulary
  millis: number
}

export interface BuildOptions {
  organizationId: string
  owner: UserRow
  pages: number
  /** Pages per chapter (root page); the rest of the tree is chapters' children. */
  perChapter?: number
  seed?: number
  /** Documents stored per transaction. */
  batch?: number
}

const title = (v: Vocabulary, random: () => number, words: number) =>
  Array.from({ length: words }, () => v.draw(random))
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ')

/**
 * Builds a space of `pages` pages: chapters at the root, `perChapter - 1` pages under each. Every document has a
 * few sections of prose, and links: to a sibling (relative), to another chapter (absolute), to the web, and
 * about one in a hundred to a page that does not exist. Written as one revision, then indexed for search.
 */
export function buildContentSpace(services: Services, options: BuildOptions): ContentSpace {
  const started = performance.now()
  const { db } = services
  const { pages, perChapter = 100, seed = 42, batch = 1_000 } = options
  const random = prng(seed)
  const vocabulary = new Vocabulary(20_000, random)
  const ctx = systemCtx(services, options.owner)
  const space = db.transaction(() =>
    createSpace(ctx, { organizationId: options.organizationId, parentId: null, title: 'Bench content', empty: true })
  )()
  const now = ctx.now

  // Slugs first (links need the targets' paths), unique among siblings.
  const records: PageRecord[] = []
  const paths: string[] = []
  const chapters = Math.ceil(pages / perChapter)
  const usedAtRoot = new Set<string>()
  const unique = (used: Set<string>, base: string) => {
    let slug = base
    for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`
    used.add(slug)
    return slug
  }
  for (let c = 0; c < chapters && records.length < pages; c++) {
    const chapterTitle = title(vocabulary, random, 2)
    const chapter = page(unique(usedAtRoot, slug(chapterTitle)), chapterTitle, null, c)
    records.push(chapter)
    paths.push(chapter.slug)
    const used = new Set<string>()
    for (let i = 0; i < perChapter - 1 && records.length < pages; i++) {
      const t = title(vocabulary, random, 3)
      const child = page(unique(used, slug(t)), t, chapter.id, i)
      records.push(child)
      paths.push(`${chapter.slug}/${child.slug}`)
    }
  }
  function page(slugValue: string, titleValue: string, parentId: string | null, position: number): PageRecord {
    return {
      id: newId(),
      parentId,
      position,
      type: 'document',
      title: titleValue,
      emoji: null,
      slug: slugValue,
      description: null,
      documentId: newId(),
      documentHash: null,
      hidden: false,
      props: {},
      createdAt: now,
      updatedAt: now
    }
  }

  const markdownOf = (i: number): string => {
    const p = records[i]!
    const parts = [`# ${p.title}`, '', vocabulary.sentence(random, 12 + Math.floor(random() * 12)), '']
    const sections = 3 + Math.floor(random() * 3)
    for (let s = 0; s < sections; s++) {
      parts.push(`## ${title(vocabulary, random, 2)}`, '')
      parts.push(
        `${vocabulary.sentence(random, 15 + Math.floor(random() * 25))} ${vocabulary.sentence(random, 10 + Math.floor(random() * 20))}`,
        ''
      )
    }
    const sibling = records[i + 1]?.parentId === p.parentId && p.parentId ? records[i + 1]!.slug : undefined
    const elsewhere = paths[Math.floor(random() * paths.length)]!
    const links = [`[next](./${sibling ?? 'index'})`, `[see also](/${elsewhere})`, `[site](https://example.com/${vocabulary.draw(random)})`]
    if (i % 100 === 7) links.push(`[gone](./missing-${i})`)
    parts.push(`Links: ${links.join(', ')}.`, '')
    return parts.join('\n')
  }

  // Documents in batches: storeDocument parses each once (its links); one transaction per row is ~6x slower.
  const store = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) records[i]!.documentHash = storeDocument(db, markdownOf(i))
  })
  for (let from = 0; from < records.length; from += batch) store(from, Math.min(records.length, from + batch))

  const revisionId = db.transaction(() => {
    const id = writeRevision(db, {
      spaceId: space.id,
      parents: [space.revision_id!],
      type: 'edits',
      createdBy: options.owner.id,
      now,
      base: space.revision_id,
      pages: { upsert: records, remove: [] }
    })
    repository(db, spaceRepository).update(space.id, { revision_id: id })
    syncSearchIndex(db, space.id, id)
    return id
  })()
  services.writes++
  return {
    spaceId: space.id,
    revisionId,
    pageIds: records.map((r) => r.id),
    leafIds: records.filter((r) => r.parentId).map((r) => r.id),
    vocabulary,
    millis: performance.now() - started
  }
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'page'
  )
}
