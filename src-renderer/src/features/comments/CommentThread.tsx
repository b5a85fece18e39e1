import { useState, type ReactNode } from 'react'
import { ActionIcon, Anchor, Avatar, Badge, Button, Menu, Text, Tooltip, UnstyledButton } from '@mantine/core'
import { modals } from '@mantine/modals'
import {
  IconCheck,
  IconChevronDown,
  IconChevronRight,
  IconDots,
  IconFileText,
  IconMoodPlus,
  IconPencil,
  IconRotate,
  IconTrash
} from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { Comment, CommentReaction, CommentReply, User } from '../../api/types.ts'
import { notifySuccess } from '../../app/notify.ts'
import { RowsSkeleton } from '../common/Skeletons.tsx'
import { formatRelative, initials } from '../common/format.ts'
import { CommentComposer } from './CommentComposer.tsx'
import { renderMarkdown } from './markdown.ts'
import { plural } from './messages.ts'
import { usePassageUi } from './passageStore.ts'
import { isPassage } from './passages.ts'
import { ReactionPicker } from './ReactionPicker.tsx'
import {
  repliesQuery,
  useCreateReply,
  useDeleteComment,
  useDeleteReply,
  useEditComment,
  useEditReply,
  useReactToComment,
  useReactToReply,
  useResolveComment
} from './queries.ts'
import { hasReacted, reactedBy, toggleReaction } from './reactions.ts'
import classes from './Comments.module.css'

/**
 * What a list keeps for its threads while virtualized rows mount and unmount: which threads show their
 * replies, unsent drafts, and which reply box was asked for focus.
 */
export interface ThreadUi {
  expanded: ReadonlySet<string>
  setExpanded(id: string, open: boolean): void
  drafts: Map<string, string>
  focus: { id: string; n: number } | null
  focusReply(id: string): void
}

/** How a thread shows the page it is on: a link (the space's primary content), plain text, or not at all. */
export type TargetDisplay = 'link' | 'text' | 'none'

const exact = (iso: string) => new Date(iso).toLocaleString()
const nameOf = (user: User | undefined) => user?.displayName || user?.email || 'Deleted user'

function ItemHead({
  user,
  postedAt,
  editedAt,
  size,
  children,
  menu
}: {
  user?: User
  postedAt: string
  editedAt?: string
  size: number
  children?: ReactNode
  menu?: ReactNode
}) {
  const name = nameOf(user)
  return (
    <>
      <Avatar size={size} radius="xl" color="initials" name={name} src={user?.photoURL}>
        {initials(name)}
      </Avatar>
      <div className={classes.head}>
        <span className={classes.name} data-testid="comment-author">
          {name}
        </span>
        <span className={classes.meta} title={exact(postedAt)}>
          {formatRelative(postedAt)}
        </span>
        {editedAt && (
          <span className={classes.meta} title={`Edited ${exact(editedAt)}`} data-testid="comment-edited">
            · edited
          </span>
        )}
        {children}
        {menu && <span className={classes.menu}>{menu}</span>}
      </div>
    </>
  )
}

function MarkdownBody({ markdown }: { markdown: string | undefined }) {
  if (!markdown?.trim()) return <div className={classes.empty}>No text</div>
  return <div className={classes.markdown} data-testid="comment-body" dangerouslySetInnerHTML={{ __html: renderMarkdown(markdown) }} />
}

function ItemMenu({
  label,
  canEdit,
  canDelete,
  onEdit,
  onDelete
}: {
  label: string
  canEdit: boolean
  canDelete: boolean
  onEdit(): void
  onDelete(): void
}) {
  if (!canEdit && !canDelete) return null
  return (
    <Menu>
      <Menu.Target>
        <ActionIcon size="sm" aria-label={`${label} actions`} data-testid="comment-menu">
          <IconDots size={15} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {canEdit && (
          <Menu.Item leftSection={<IconPencil size={15} />} onClick={onEdit}>
            Edit
          </Menu.Item>
        )}
        {canDelete && (
          <Menu.Item color="red" leftSection={<IconTrash size={15} />} onClick={onDelete}>
            Delete
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  )
}

/** Emoji chips: highlighted when the caller reacted; a click toggles the caller's reaction. */
function ReactionChips({
  reactions,
  me,
  canReact,
  onToggle
}: {
  reactions: CommentReaction[]
  me?: User
  canReact: boolean
  onToggle(emoji: string): void
}) {
  return reactions.map((r) => {
    const mine = hasReacted(r, me?.id)
    return (
      <Tooltip key={r.emoji} label={reactedBy(r, me?.id)}>
        <UnstyledButton
          className={classes.reaction}
          data-mine={mine || undefined}
          aria-pressed={mine}
          aria-label={`${r.emoji} ${r.count}`}
          disabled={!canReact || !me}
          onClick={() => onToggle(r.emoji)}
          data-testid="reaction"
          data-emoji={r.emoji}
        >
          <span className={classes.reactionEmoji}>{r.emoji}</span>
          <span data-testid="reaction-count">{r.count}</span>
        </UnstyledButton>
      </Tooltip>
    )
  })
}

/** "+": a reaction from the picker. It only adds; a chip already mine is removed with its own click. */
function AddReaction({ reactions, me, onToggle }: { reactions: CommentReaction[]; me: User; onToggle(emoji: string): void }) {
  const mine = new Set(reactions.filter((r) => hasReacted(r, me.id)).map((r) => r.emoji))
  return (
    <ReactionPicker
      mine={mine}
      onPick={(emoji) => {
        if (!mine.has(emoji)) onToggle(emoji)
      }}
    >
      <Tooltip label="Add reaction">
        <ActionIcon size="sm" aria-label="Add reaction" data-testid="add-reaction">
          <IconMoodPlus size={15} />
        </ActionIcon>
      </Tooltip>
    </ReactionPicker>
  )
}

function PageTarget({ spaceId, page, display }: { spaceId: string; page: NonNullable<Comment['target']['page']>; display: TargetDisplay }) {
  const navigate = useNavigate()
  const title = `${page.emoji ? `${page.emoji} ` : ''}${page.title || 'Untitled page'}`
  // The page editor's route belongs to another screen; the hash address works whether or not it is typed yet.
  const to = `/spaces/${encodeURIComponent(spaceId)}/pages/${encodeURIComponent(page.id)}`
  return (
    <div className={classes.target}>
      <IconFileText size={13} style={{ flex: 'none' }} />
      <span>on</span>
      {display === 'link' ? (
        <Anchor
          href={`#${to}`}
          size="xs"
          className={classes.targetTitle}
          data-testid="comment-target"
          onClick={(e) => {
            e.preventDefault()
            void navigate({ to: '/spaces/$spaceId/pages/$pageId', params: { spaceId, pageId: page.id } } as never)
          }}
        >
          {title}
        </Anchor>
      ) : (
        <span className={classes.targetTitle} data-testid="comment-target">
          {title}
        </span>
      )}
      {page.outdated && (
        <Tooltip label="The page changed since this was posted">
          <Badge size="xs" color="orange">
            Outdated
          </Badge>
        </Tooltip>
      )}
    </div>
  )
}

/**
 * The passage or block a comment is on. A passage the page editor shows (`passages.ts`) is a button that selects
 * it there, and says "Outdated" once its text is no longer in the page.
 */
function NodeQuote({ comment }: { comment: Comment }) {
  const node = comment.target.node!
  const found = usePassageUi((s) => (isPassage(node) ? s.found[comment.id] : undefined))
  const reveal = usePassageUi((s) => s.revealPassage)
  if (found === undefined) return <div className={classes.quote}>{node.preview}</div>
  return (
    <div className={classes.passage}>
      <UnstyledButton
        className={classes.quote}
        data-outdated={!found || undefined}
        disabled={!found}
        onClick={() => reveal(comment.id)}
        title={found ? 'Show the passage in the editor' : undefined}
        data-testid="comment-passage"
      >
        {node.preview}
      </UnstyledButton>
      {!found && (
        <Tooltip label="This text is no longer in the page">
          <Badge size="xs" color="orange" data-testid="passage-outdated">
            Outdated
          </Badge>
        </Tooltip>
      )}
    </div>
  )
}

/** One comment with its reactions, actions, and (expanded) its replies and a reply box. */
export function CommentThread({
  spaceId,
  comment,
  me,
  ui,
  target,
  focused
}: {
  spaceId: string
  comment: Comment
  me?: User
  ui: ThreadUi
  target: TargetDisplay
  focused?: boolean
}) {
  const [editing, setEditing] = useState(() => ui.drafts.has(`edit:${comment.id}`))
  const edit = useEditComment(spaceId)
  const resolve = useResolveComment(spaceId)
  const react = useReactToComment(spaceId)
  const remove = useDeleteComment(spaceId)
  const resolved = comment.status === 'resolved'
  const expanded = ui.expanded.has(comment.id)
  const canTakePart = comment.permissions.reply

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete comment?',
      children: (
        <Text size="sm">
          The comment{comment.replies > 0 ? ` and its ${plural(comment.replies, 'reply', 'replies')}` : ''} will be deleted for everyone.
          This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      onConfirm: () => remove.mutate(comment, { onSuccess: () => notifySuccess('Comment deleted') })
    })

  const toggle = (emoji: string) => {
    if (!me) return
    const { change, reactions } = toggleReaction(comment.reactions, emoji, me)
    react.mutate({ commentId: comment.id, change, reactions })
  }

  return (
    <article
      className={classes.thread}
      data-testid="comment-thread"
      data-comment-id={comment.id}
      data-status={comment.status ?? 'open'}
      data-focused={focused || undefined}
    >
      <div className={classes.item}>
        <ItemHead
          user={comment.postedBy}
          postedAt={comment.postedAt}
          editedAt={comment.editedAt}
          size={28}
          menu={
            <ItemMenu
              label="Comment"
              canEdit={comment.permissions.edit}
              canDelete={comment.permissions.delete}
              onEdit={() => setEditing(true)}
              onDelete={confirmDelete}
            />
          }
        >
          {resolved && (
            <Tooltip
              label={`Resolved ${comment.resolvedBy ? `by ${nameOf(comment.resolvedBy)} ` : ''}${comment.resolvedAt ? formatRelative(comment.resolvedAt) : ''}`}
            >
              <Badge size="xs" color="teal" leftSection={<IconCheck size={10} />} data-testid="comment-resolved">
                Resolved
              </Badge>
            </Tooltip>
          )}
        </ItemHead>
        <div />
        <div style={{ minWidth: 0 }}>
          {target !== 'none' && comment.target.page && <PageTarget spaceId={spaceId} page={comment.target.page} display={target} />}
          {comment.target.node?.preview && <NodeQuote comment={comment} />}
          {editing ? (
            <div style={{ marginTop: 6 }}>
              <CommentComposer
                spaceId={spaceId}
                noun="Comment"
                placeholder="Edit comment"
                submitLabel="Save"
                initialValue={comment.body.markdown ?? ''}
                drafts={ui.drafts}
                draftKey={`edit:${comment.id}`}
                autoFocus
                minRows={2}
                testId="comment-edit"
                onCancel={() => {
                  ui.drafts.delete(`edit:${comment.id}`)
                  setEditing(false)
                }}
                onSubmit={async (markdown) => {
                  await edit.mutateAsync({ commentId: comment.id, markdown })
                  ui.drafts.delete(`edit:${comment.id}`)
                  setEditing(false)
                }}
              />
            </div>
          ) : (
            <MarkdownBody markdown={comment.body.markdown} />
          )}
          <div className={classes.actions}>
            <ReactionChips reactions={comment.reactions} me={me} canReact={canTakePart} onToggle={toggle} />
            {canTakePart && me && <AddReaction reactions={comment.reactions} me={me} onToggle={toggle} />}
            {/* Reply and Resolve wrap together in a narrow panel. */}
            <span className={classes.threadButtons}>
              {canTakePart && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="gray"
                  onClick={() => {
                    ui.setExpanded(comment.id, true)
                    ui.focusReply(comment.id)
                  }}
                  data-testid="comment-reply"
                >
                  Reply
                </Button>
              )}
              {canTakePart && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color={resolved ? 'gray' : 'teal'}
                  leftSection={resolved ? <IconRotate size={13} /> : <IconCheck size={13} />}
                  loading={resolve.isPending}
                  onClick={() =>
                    resolve.mutate(
                      { comment, resolved: !resolved },
                      { onSuccess: () => notifySuccess(resolved ? 'Comment reopened' : 'Comment resolved') }
                    )
                  }
                  data-testid={resolved ? 'comment-reopen' : 'comment-resolve'}
                >
                  {resolved ? 'Reopen' : 'Resolve'}
                </Button>
              )}
            </span>
          </div>
          {comment.replies > 0 && (
            <UnstyledButton
              className={classes.repliesToggle}
              onClick={() => ui.setExpanded(comment.id, !expanded)}
              aria-expanded={expanded}
              data-testid="replies-toggle"
            >
              {expanded ? <IconChevronDown size={13} /> : <IconChevronRight size={13} />}
              {expanded ? 'Hide replies' : plural(comment.replies, 'reply', 'replies')}
            </UnstyledButton>
          )}
        </div>
      </div>
      {expanded && <Replies spaceId={spaceId} comment={comment} me={me} ui={ui} />}
    </article>
  )
}

function Replies({ spaceId, comment, me, ui }: { spaceId: string; comment: Comment; me?: User; ui: ThreadUi }) {
  const query = useQuery(repliesQuery(spaceId, comment.id))
  const create = useCreateReply(spaceId)
  return (
    <div className={classes.replies} data-testid="replies">
      {query.isPending ? (
        comment.replies > 0 && <RowsSkeleton rows={Math.min(comment.replies, 3)} />
      ) : query.isError ? (
        <Text size="xs" c="red" py={6}>
          {query.error.message}
        </Text>
      ) : (
        query.data.map((reply) => <ReplyItem key={reply.id} spaceId={spaceId} commentId={comment.id} reply={reply} me={me} ui={ui} />)
      )}
      {comment.permissions.reply && (
        <div className={classes.replyComposer}>
          <CommentComposer
            spaceId={spaceId}
            noun="Reply"
            placeholder="Write a reply…"
            submitLabel="Reply"
            minRows={1}
            drafts={ui.drafts}
            draftKey={`reply:${comment.id}`}
            focusSignal={ui.focus?.id === comment.id ? ui.focus.n : 0}
            testId="reply-composer"
            onCancel={comment.replies === 0 ? () => ui.setExpanded(comment.id, false) : undefined}
            onSubmit={(markdown) => create.mutateAsync({ commentId: comment.id, markdown })}
          />
        </div>
      )}
    </div>
  )
}

function ReplyItem({
  spaceId,
  commentId,
  reply,
  me,
  ui
}: {
  spaceId: string
  commentId: string
  reply: CommentReply
  me?: User
  ui: ThreadUi
}) {
  const draftKey = `edit-reply:${reply.id}`
  const [editing, setEditing] = useState(() => ui.drafts.has(draftKey))
  const edit = useEditReply(spaceId)
  const react = useReactToReply(spaceId)
  const remove = useDeleteReply(spaceId)
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete reply?',
      children: <Text size="sm">The reply will be deleted for everyone. This cannot be undone.</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      onConfirm: () => remove.mutate({ commentId, replyId: reply.id }, { onSuccess: () => notifySuccess('Reply deleted') })
    })
  const toggle = (emoji: string) => {
    if (!me) return
    const { change, reactions } = toggleReaction(reply.reactions, emoji, me)
    react.mutate({ commentId, replyId: reply.id, change, reactions })
  }
  return (
    <div className={`${classes.item} ${classes.reply}`} data-testid="reply" data-reply-id={reply.id}>
      <ItemHead
        user={reply.postedBy}
        postedAt={reply.postedAt}
        editedAt={reply.editedAt}
        size={22}
        menu={
          <>
            {reply.permissions.reply && me && <AddReaction reactions={reply.reactions} me={me} onToggle={toggle} />}
            <ItemMenu
              label="Reply"
              canEdit={reply.permissions.edit}
              canDelete={reply.permissions.delete}
              onEdit={() => setEditing(true)}
              onDelete={confirmDelete}
            />
          </>
        }
      />
      <div />
      <div style={{ minWidth: 0 }}>
        {editing ? (
          <div style={{ marginTop: 4 }}>
            <CommentComposer
              spaceId={spaceId}
              noun="Reply"
              placeholder="Edit reply"
              submitLabel="Save"
              initialValue={reply.body.markdown ?? ''}
              drafts={ui.drafts}
              draftKey={draftKey}
              autoFocus
              minRows={1}
              testId="reply-edit"
              onCancel={() => {
                ui.drafts.delete(draftKey)
                setEditing(false)
              }}
              onSubmit={async (markdown) => {
                await edit.mutateAsync({ commentId, replyId: reply.id, markdown })
                ui.drafts.delete(draftKey)
                setEditing(false)
              }}
            />
          </div>
        ) : (
          <MarkdownBody markdown={reply.body.markdown} />
        )}
        {reply.reactions.length > 0 && (
          <div className={classes.actions}>
            <ReactionChips reactions={reply.reactions} me={me} canReact={reply.permissions.reply} onToggle={toggle} />
          </div>
        )}
      </div>
    </div>
  )
}
