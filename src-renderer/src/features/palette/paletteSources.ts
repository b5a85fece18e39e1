import { useMemo } from 'react'
import { useDebouncedValue } from '@mantine/hooks'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { fetchPage } from '../../api/lists.ts'
import type { Collection, OrgSearchSpace, Space, Workspace, WorkspaceList } from '../../api/types.ts'
import { collectionsQuery, spacesQuery } from '../content/queries.ts'
import { remoteHost } from '../workspaces/remote.ts'

export interface PaletteItem {
  id: string
  group: string
  label: string
  description?: string
  icon: 'space' | 'collection' | 'screen' | 'action' | 'org' | 'page' | 'workspace' | 'connected-workspace'
  emoji?: string
  /** Hotkeys of a command, shown beside it (`mod+K`). */
  keys?: string[]
  /** A command of the registry: never cut to a few per group. */
  command?: boolean
  /** Extra words that match (e.g. a collection path). */
  keywords?: string
  run(): void
}

const MAX_PER_GROUP = 8

/** Case-insensitive match of every word of the query against the label, description and keywords. */
export function matches(item: Pick<PaletteItem, 'label' | 'description' | 'keywords'>, query: string): boolean {
  const haystack = `${item.label} ${item.description ?? ''} ${item.keywords ?? ''}`.toLowerCase()
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word))
}

/** Groups in a stable order, each cut to a few entries (commands excepted). */
export function groupItems(items: PaletteItem[], query: string): { group: string; items: PaletteItem[] }[] {
  const groups = new Map<string, PaletteItem[]>()
  for (const item of items) {
    if (query && !matches(item, query)) continue
    const list = groups.get(item.group) ?? []
    if (item.command || list.length < MAX_PER_GROUP) list.push(item)
    groups.set(item.group, list)
  }
  return [...groups.entries()].map(([group, list]) => ({ group, items: list }))
}

/** Spaces and collections of the organization, from the same queries the tree uses (no extra request when cached). */
export function useLoadedContent(orgId: string | undefined, enabled: boolean): { spaces: Space[]; collections: Collection[] } {
  const spaces = useQuery({ ...spacesQuery(orgId ?? ''), enabled: enabled && !!orgId }).data ?? []
  const collections = useQuery({ ...collectionsQuery(orgId ?? ''), enabled: enabled && !!orgId }).data ?? []
  return { spaces, collections }
}

/** Full-text search across the organization's pages: `GET /v1/orgs/{id}/search`, from 2 characters. */
export const orgSearchQuery = (orgId: string, query: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'search', { query }],
    queryFn: () => fetchPage<OrgSearchSpace>(`/v1/orgs/${orgId}/search`, { query, limit: 10 }),
    staleTime: 10_000
  })

/**
 * Pages matching the typed words, as palette items under "Pages"; a result opens the page in its space's editor,
 * at its best matching section.
 */
export function useContentSearch(
  orgId: string | undefined,
  query: string,
  openPage: (spaceId: string, pageId: string, sectionId?: string) => void
): { items: PaletteItem[]; searching: boolean } {
  const [debounced] = useDebouncedValue(query.trim(), 200)
  const enabled = !!orgId && debounced.length >= 2
  const result = useQuery({ ...orgSearchQuery(orgId ?? '', debounced), enabled, placeholderData: keepPreviousData, retry: false })
  const items = useMemo(
    () =>
      !enabled
        ? []
        : (result.data?.items ?? []).flatMap((space) =>
            space.pages.map<PaletteItem>((page) => {
              const best = page.sections[0]
              const heading = best?.id && best.title !== page.title ? best.title : undefined
              return {
                id: `page-${space.id}-${page.id}`,
                group: 'Pages',
                label: page.title || 'Untitled page',
                description: [space.title, heading, best?.body].filter(Boolean).join(' · '),
                // The API matched it; the local filter must not hide it for words only in the page's text.
                keywords: query,
                icon: 'page',
                run: () => openPage(space.id, page.id, best?.id || undefined)
              }
            })
          ),
    [enabled, result.data, query, openPage]
  )
  return { items, searching: enabled && result.isFetching }
}

/** "Switch to workspace X" for every other workspace, when the server can switch (none with `quire serve --data`). */
export function workspaceItems(list: WorkspaceList | undefined, switchTo: (workspace: Workspace) => void): PaletteItem[] {
  if (!list?.switchable) return []
  return list.items
    .filter((w) => !w.active)
    .map((w) => ({
      id: `workspace-${w.id}`,
      group: 'Switch workspace',
      label: `Switch to workspace ${w.name}`,
      // A connected workspace says which server it is (and is found by it).
      ...(w.remote ? { description: remoteHost(w.remote.url) } : {}),
      keywords: w.remote ? 'workspace connected server remote' : 'workspace database',
      icon: w.remote ? 'connected-workspace' : 'workspace',
      run: () => switchTo(w)
    }))
}
