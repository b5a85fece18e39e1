import { useEffect, useState } from 'react'
import { Anchor, Button, Code, EmptyState, Text, TextInput, UnstyledButton } from '@mantine/core'
import { modals } from '@mantine/modals'
import { IconGitBranch, IconGitPullRequest, IconPlus, IconPuzzle, IconTrash } from '@tabler/icons-react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { relativeIncludePath } from '../../../../src-shared/blockTags.ts'
import type { ContentChangeInput } from '../../api/types.ts'
import { useReportAppState } from '../../app/appState.ts'
import { notifySuccess } from '../../app/notify.ts'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { changeRequestQuery, resolveDraft } from '../pages/queries.ts'
import { changeReusableContents, reusableContentListQuery, type ReusableContent } from './queries.ts'
import { ReusableMarkdownEditor } from './ReusableMarkdownEditor.tsx'
import classes from './ReusableContentsScreen.module.css'

const NEW = 'new'

/**
 * A space's reusable contents: blocks of markdown pages show with `{% include "…" %}`. The list and an editor
 * (title and markdown); on the main content the first change opens (or reuses) the caller's draft change request
 * and the screen then shows that change request's contents (`?cr=N`), as the page editor does. Merged, every page
 * that includes one shows the new text.
 */
export function ReusableContentsScreen({ spaceId, changeRequest }: { spaceId: string; changeRequest: number | undefined }) {
  const client = useQueryClient()
  const navigate = useNavigate()
  const scope = { spaceId, changeRequest }
  const list = useQuery(reusableContentListQuery(scope))
  const cr = useQuery({ ...changeRequestQuery(spaceId, changeRequest ?? 0), enabled: changeRequest !== undefined }).data
  const [selected, setSelected] = useState<string | null>(null)
  useReportAppState(list.data ? 'ready' : 'loading')
  const contents = list.data ?? []
  const current = selected === NEW ? undefined : (contents.find((c) => c.id === selected) ?? (selected === null ? contents[0] : undefined))
  const editable = !cr || cr.status === 'draft' || cr.status === 'open'

  // Writes go to the change request shown, or on main to the caller's draft, which the screen then shows.
  const write = useMutation({
    mutationFn: async (changes: ContentChangeInput[]) => {
      const number = changeRequest ?? (await resolveDraft(client, spaceId, { subject: 'Edit reusable contents' })).number
      const before = new Set(contents.map((c) => c.id))
      await changeReusableContents(client, spaceId, number, changes)
      const after = await client.fetchQuery(reusableContentListQuery({ spaceId, changeRequest: number }))
      return { number, added: after.find((c) => !before.has(c.id)) }
    },
    onSuccess: ({ number, added }, changes) => {
      if (added) setSelected(added.id)
      else if (changes[0]?.operation === 'delete_reusable_content') setSelected(null)
      if (changeRequest === undefined)
        void navigate({ to: '/spaces/$spaceId/reusable-contents', params: { spaceId }, search: { cr: number }, replace: true })
      notifySuccess(changeRequest === undefined ? `Saved in draft change request #${number}` : 'Saved')
    }
  })

  const remove = (content: ReusableContent) =>
    modals.openConfirmModal({
      title: `Delete “${content.title}”?`,
      children: (
        <Text size="sm">
          Pages that include it show it as missing once this change request is merged. The change request keeps the deletion until you merge
          or undo it.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete-reusable' } as never,
      onConfirm: () => write.mutate([{ operation: 'delete_reusable_content', reusableContent: content.id }])
    })

  return (
    <div>
      <div className={classes.scopeBar} data-testid="reusable-scope">
        {changeRequest === undefined ? (
          <>
            <IconGitBranch size={16} />
            <Text size="sm" fw={500}>
              Main content
            </Text>
            <Text size="sm" c="dimmed">
              · your first change starts a draft change request
            </Text>
          </>
        ) : (
          <>
            <IconGitPullRequest size={16} />
            <Anchor href={`#/spaces/${spaceId}/change-requests/${changeRequest}`} size="sm" fw={500} data-testid="reusable-cr-link">
              Change request #{changeRequest}
            </Anchor>
            {cr?.subject && (
              <Text size="sm" c="dimmed" truncate>
                · {cr.subject}
              </Text>
            )}
            <Anchor size="sm" onClick={() => void navigate({ to: '/spaces/$spaceId/reusable-contents', params: { spaceId }, search: {} })}>
              Show main content
            </Anchor>
          </>
        )}
      </div>
      <div className={classes.layout}>
        <div className={classes.list} data-testid="reusable-list">
          <div className={classes.listHead}>
            <Text size="xs" fw={600} c="dimmed" tt="uppercase">
              Reusable content
            </Text>
            {editable && (
              <Button
                size="compact-xs"
                variant="light"
                leftSection={<IconPlus size={12} />}
                onClick={() => setSelected(NEW)}
                data-testid="reusable-new"
              >
                New
              </Button>
            )}
          </div>
          {!list.data ? (
            <RowsSkeleton rows={3} />
          ) : (
            contents.map((c) => (
              <UnstyledButton
                key={c.id}
                className={classes.item}
                data-selected={c.id === current?.id || undefined}
                onClick={() => setSelected(c.id)}
                data-testid="reusable-item"
              >
                <Text size="sm" fw={500} truncate>
                  {c.title}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {c.path}
                </Text>
              </UnstyledButton>
            ))
          )}
        </div>
        <div className={classes.pane}>
          {selected === NEW ? (
            <ContentForm
              key={NEW}
              editable={editable}
              saving={write.isPending}
              onSave={(title, markdown) => write.mutate([{ operation: 'insert_reusable_content', title, document: { markdown } }])}
            />
          ) : current ? (
            <ContentForm
              key={`${current.id}:${changeRequest ?? 'main'}`}
              content={current}
              editable={editable}
              saving={write.isPending}
              onSave={(title, markdown) =>
                write.mutate([
                  {
                    operation: 'update_reusable_content',
                    reusableContent: current.id,
                    ...(title !== current.title ? { title } : {}),
                    ...(markdown !== current.markdown ? { document: { markdown } } : {})
                  }
                ])
              }
              onDelete={() => remove(current)}
            />
          ) : (
            list.data && (
              <EmptyState
                icon={<IconPuzzle size={28} />}
                title="No reusable content yet"
                description="A block of text many pages show, written once: pages include it with {% include %}, and an edit shows on all of them."
                data-testid="reusable-empty"
              />
            )
          )}
        </div>
      </div>
    </div>
  )
}

function ContentForm({
  content,
  editable,
  saving,
  onSave,
  onDelete
}: {
  content?: ReusableContent
  editable: boolean
  saving: boolean
  onSave(title: string, markdown: string): void
  onDelete?(): void
}) {
  const [title, setTitle] = useState(content?.title ?? '')
  const [markdown, setMarkdown] = useState(content?.markdown ?? '')
  // The content as saved changed (a save, an update from main): the form shows it.
  useEffect(() => {
    setTitle(content?.title ?? '')
    setMarkdown(content?.markdown ?? '')
  }, [content?.title, content?.markdown])
  const changed = !content || title !== content.title || markdown !== content.markdown
  const titleProblem = title.trim()
    ? title.length > 255
      ? 'At most 255 characters'
      : null
    : content
      ? 'A reusable content needs a title'
      : null
  return (
    <>
      <TextInput
        label="Title"
        value={title}
        readOnly={!editable}
        error={titleProblem}
        onChange={(e) => setTitle(e.currentTarget.value)}
        placeholder="Support note"
        data-testid="reusable-title"
      />
      {content?.path && (
        <Text size="xs" c="dimmed">
          A page at the top level includes it with <Code>{`{% include "${relativeIncludePath(undefined, content.path)}" %}`}</Code> (the
          editor’s Insert menu writes it for any page).
        </Text>
      )}
      <ReusableMarkdownEditor value={markdown} onChange={setMarkdown} readOnly={!editable} />
      {editable && (
        <div className={classes.actions}>
          <Button
            size="xs"
            disabled={!changed || !title.trim() || !!titleProblem}
            loading={saving}
            onClick={() => onSave(title.trim(), markdown)}
            data-testid="reusable-save"
          >
            {content ? 'Save' : 'Create'}
          </Button>
          <span className={classes.grow} />
          {onDelete && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={14} />}
              onClick={onDelete}
              data-testid="reusable-delete"
            >
              Delete…
            </Button>
          )}
        </div>
      )}
    </>
  )
}
