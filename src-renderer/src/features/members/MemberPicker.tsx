import { useMemo, useRef, useState } from 'react'
import { MultiSelect, type MultiSelectProps } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Member } from '../../api/types.ts'
import { memberSearchQuery } from './queries.ts'

/** Picks organization members by name or e-mail, searching the API as the user types. Values are user ids. */
export function MemberPicker({
  orgId,
  value,
  onChange,
  exclude = [],
  ...props
}: { orgId: string; value: string[]; onChange(ids: string[]): void; exclude?: string[] } & Omit<
  MultiSelectProps,
  'data' | 'value' | 'onChange'
>) {
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search, 200)
  const results = useQuery({ ...memberSearchQuery(orgId, debounced), placeholderData: keepPreviousData })
  // Labels of picked members stay known after the search moves on.
  const picked = useRef(new Map<string, Member>())
  for (const m of results.data ?? []) if (value.includes(m.id)) picked.current.set(m.id, m)

  const data = useMemo(() => {
    const byId = new Map<string, Member>()
    for (const id of value) {
      const m = picked.current.get(id)
      if (m) byId.set(id, m)
    }
    for (const m of results.data ?? []) if (!exclude.includes(m.id)) byId.set(m.id, m)
    return [...byId.values()].map((m) => ({
      value: m.id,
      label: m.user.email ? `${m.user.displayName} (${m.user.email})` : m.user.displayName
    }))
  }, [results.data, value, exclude])

  return (
    <MultiSelect
      searchable
      clearable
      hidePickedOptions
      placeholder="Search members by name or e-mail"
      nothingFoundMessage={results.isFetching ? 'Searching…' : 'No members found'}
      {...props}
      data={data}
      value={value}
      onChange={(ids) => {
        for (const m of results.data ?? []) if (ids.includes(m.id)) picked.current.set(m.id, m)
        onChange(ids)
      }}
      searchValue={search}
      onSearchChange={setSearch}
      // The API already filtered by the search text (name or e-mail); do not filter a second time.
      filter={({ options }) => options}
    />
  )
}
