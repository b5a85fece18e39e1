import { useDeferredValue, useMemo, useState } from 'react'
import { Anchor, Button, CloseButton, EmptyState, Group, Loader, Popover, Stack, Text, TextInput } from '@mantine/core'
import { IconFile, IconFiles, IconSearch } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { ContentFile } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { plural } from '../common/format.ts'
import { RouterAnchor } from '../common/links.tsx'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { usePageVirtualizer } from '../common/usePageVirtualizer.ts'
import { formatBytes } from '../pages/fileUpload.ts'
import { filesQuery, usePageTitles } from '../pages/queries.ts'
import { filterFiles, isImage, kindOf } from './files.ts'
import { backlinksQuery } from './queries.ts'
import table from '../common/DataTable.module.css'
import classes from './FilesScreen.module.css'

const ROW_HEIGHT = 60
const COLUMNS = '48px minmax(200px, 1.4fr) 120px 90px 110px 120px'

/**
 * The files of the space's main content (uploads and imports): a thumbnail for images, name (downloads it),
 * kind, size, image dimensions, and on demand the pages that use each one. A name filter narrows the list;
 * totals say how many files and how much they weigh.
 */
export function FilesScreen({ spaceId }: { spaceId: string }) {
  const files = useQuery(filesQuery({ spaceId }))
  const titles = usePageTitles(spaceId)
  const [filter, setFilter] = useState('')
  const deferred = useDeferredValue(filter)
  const rows = useMemo(() => filterFiles(files.data ?? [], deferred), [files.data, deferred])
  const total = useMemo(() => (files.data ?? []).reduce((sum, f) => sum + f.size, 0), [files.data])
  useReportAppState(files.data ? 'ready' : 'loading')
  const { listRef, virtualizer, scrollMargin } = usePageVirtualizer({
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    getItemKey: (i) => rows[i]!.id
  })

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap">
        <TextInput
          placeholder="Filter by name"
          aria-label="Filter files by name"
          leftSection={<IconSearch size={16} />}
          rightSection={filter ? <CloseButton size="sm" aria-label="Clear filter" onClick={() => setFilter('')} /> : null}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          w={280}
          data-testid="files-filter"
        />
        <span style={{ flex: 1 }} />
        {files.data && (
          <Text size="sm" c="dimmed" data-testid="files-count">
            {deferred.trim() ? `${rows.length} of ${plural(files.data.length, 'file')}` : plural(files.data.length, 'file')} ·{' '}
            {formatBytes(total)}
          </Text>
        )}
      </Group>

      {!files.data ? (
        <RowsSkeleton rows={4} />
      ) : rows.length === 0 ? (
        <EmptyState
          mt={32}
          variant="light"
          icon={<IconFiles size={28} stroke={1.6} />}
          title={files.data.length ? 'No file matches' : 'No files yet'}
          description={
            files.data.length
              ? `No file name holds “${deferred.trim()}”.`
              : 'Images and files uploaded to pages (drop, paste or Upload in the editor) show up here once merged.'
          }
          data-testid="files-empty"
        />
      ) : (
        <div className={table.table} style={{ ['--columns' as string]: COLUMNS }}>
          <div className={table.head}>
            <span />
            <span>Name</span>
            <span>Kind</span>
            <span>Size</span>
            <span>Dimensions</span>
            <span>Used in</span>
          </div>
          <div ref={listRef} className={table.body} style={{ height: virtualizer.getTotalSize() }} data-testid="files-list">
            {virtualizer.getVirtualItems().map((item) => (
              <FileRow key={item.key} spaceId={spaceId} file={rows[item.index]!} top={item.start - scrollMargin} titles={titles} />
            ))}
          </div>
        </div>
      )}
    </Stack>
  )
}

function FileRow({ spaceId, file, top, titles }: { spaceId: string; file: ContentFile; top: number; titles: ReadonlyMap<string, string> }) {
  return (
    <div
      className={table.row}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      data-testid="file-row"
      data-file-id={file.id}
    >
      <div className={classes.thumb}>
        {isImage(file) ? <img src={file.downloadURL} alt="" loading="lazy" /> : <IconFile size={20} stroke={1.5} />}
      </div>
      <Anchor href={file.downloadURL} download={file.name} size="sm" fw={500} truncate className={table.cell} data-testid="file-name">
        {file.name}
      </Anchor>
      <Text className={table.cell} c="dimmed" truncate>
        {kindOf(file.contentType)}
      </Text>
      <Text className={table.cell} c="dimmed">
        {formatBytes(file.size)}
      </Text>
      <Text className={table.cell} c="dimmed">
        {file.dimensions ? `${file.dimensions.width} × ${file.dimensions.height}` : '—'}
      </Text>
      <div className={table.cell}>
        <UsedIn spaceId={spaceId} file={file} titles={titles} />
      </div>
    </div>
  )
}

/** The pages using a file, asked for when opened (one request per file the user looks at, not per row). */
function UsedIn({ spaceId, file, titles }: { spaceId: string; file: ContentFile; titles: ReadonlyMap<string, string> }) {
  const [opened, setOpened] = useState(false)
  const backlinks = useQuery({ ...backlinksQuery(spaceId, file.id), enabled: opened })
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={260} shadow="md" withArrow>
      <Popover.Target>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => setOpened((o) => !o)}
          aria-label={`Pages using ${file.name}`}
          data-testid="file-used-in"
        >
          Pages…
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="file-backlinks">
        {!backlinks.data ? (
          <Group gap={8}>
            <Loader size={14} />
            <Text size="sm" c="dimmed">
              Looking…
            </Text>
          </Group>
        ) : backlinks.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            No page uses this file.
          </Text>
        ) : (
          <Stack gap={4}>
            <Text size="xs" c="dimmed">
              Used in {plural(backlinks.data.length, 'page')}
            </Text>
            {backlinks.data.map((b) => (
              <RouterAnchor
                key={b.page}
                to="/spaces/$spaceId/pages/$pageId"
                params={{ spaceId, pageId: b.page }}
                size="sm"
                truncate
                data-testid="file-backlink"
              >
                {titles.get(b.page) || 'Untitled page'}
              </RouterAnchor>
            ))}
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  )
}
