import { useState } from 'react'
import { ActionIcon, Alert, Avatar, Badge, Button, Group, Paper, Select, Stack, Text, Textarea, Tooltip } from '@mantine/core'
import { IconAlertTriangle, IconCheck, IconCircleCheck, IconMessageExclamation, IconX } from '@tabler/icons-react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { COMMENT_MARKDOWN_MAX } from '../../../../src-shared/schemas/comments.ts'
import type { ChangeRequest, ChangeRequestReview, Space } from '../../api/types.ts'
import { notifySuccess } from '../../app/notify.ts'
import commentClasses from '../comments/Comments.module.css'
import { renderMarkdown } from '../comments/markdown.ts'
import { memberSearchQuery } from '../members/queries.ts'
import { userQuery } from '../orgs/queries.ts'
import {
  mergeStatusQuery,
  requestedReviewersQuery,
  reviewsQuery,
  useRemoveRequestedReviewer,
  useRequestReviewers,
  useSubmitReview
} from './queries.ts'
import { currentReviews, reviewsWithComments } from './reviews.ts'

const nameOf = (u: { displayName?: string; email?: string }) => u.displayName || u.email || 'Someone'

/**
 * Reviews of a change request: who is asked (add, remove), who approved or asked for changes, what the merge
 * rules still want before a merge, and Approve / Request changes with an optional comment.
 */
export function ReviewPanel({
  spaceId,
  number,
  cr,
  space,
  active
}: {
  spaceId: string
  number: string
  cr: ChangeRequest
  space?: Space
  active: boolean
}) {
  const reviews = useQuery(reviewsQuery(spaceId, number))
  const requested = useQuery(requestedReviewersQuery(spaceId, number))
  const status = useQuery(mergeStatusQuery(spaceId, number))
  const me = useQuery(userQuery()).data
  const current = currentReviews(reviews.data ?? [])
  const approvals = current.filter((r) => r.status === 'approved')
  const objections = current.filter((r) => r.status === 'changes-requested')
  const commented = reviewsWithComments(reviews.data ?? [])
  const canReview = active && !!space?.permissions.review
  const canAsk = active && !!space?.permissions.edit
  const isAuthor = !!me && cr.createdBy?.id === me.id

  return (
    <Paper withBorder p="md" component="section" aria-label="Reviews" data-testid="review-panel">
      <Stack gap="sm">
        <Text fw={600}>Reviews</Text>

        <Group gap="xs" align="center" data-testid="requested-reviewers">
          <Text size="sm" c="dimmed" w={130}>
            Asked to review
          </Text>
          {requested.data?.length ? (
            requested.data.map((r) => (
              <RequestedChip
                key={r.user.id}
                spaceId={spaceId}
                number={number}
                name={nameOf(r.user)}
                userId={r.user.id}
                removable={canAsk}
              />
            ))
          ) : (
            <Text size="sm">Nobody yet</Text>
          )}
          {canAsk && space && (
            <AskReviewer
              spaceId={spaceId}
              number={number}
              orgId={space.organization}
              exclude={[cr.createdBy?.id ?? '', ...(requested.data ?? []).map((r) => r.user.id)]}
            />
          )}
        </Group>

        <ReviewerRow label="Approved by" reviews={approvals} color="green" testId="approvals" empty="No approval yet" />
        {objections.length > 0 && (
          <ReviewerRow label="Changes requested by" reviews={objections} color="orange" testId="objections" empty="" />
        )}

        {commented.length > 0 && <ReviewComments reviews={commented} />}

        {active && status.data && status.data.unmet.length > 0 && (
          <Alert
            color="yellow"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title="What still blocks the merge"
            data-testid="merge-blockers"
          >
            <Stack gap={2}>
              {status.data.unmet.map((u) => (
                <Text size="sm" key={u.rule}>
                  {u.message}
                </Text>
              ))}
              {status.data.canBypass && (
                <Text size="sm" c="dimmed">
                  You may merge anyway: the merge rules let you bypass them.
                </Text>
              )}
            </Stack>
          </Alert>
        )}
        {active && status.data && status.data.rules.length > 0 && status.data.unmet.length === 0 && (
          <Text size="sm" c="green" data-testid="merge-rules-met">
            <IconCircleCheck size={14} style={{ verticalAlign: -2 }} /> The merge rules are met.
          </Text>
        )}

        {canReview && <ReviewForm spaceId={spaceId} number={number} isAuthor={isAuthor} />}
      </Stack>
    </Paper>
  )
}

function ReviewerRow({
  label,
  reviews,
  color,
  testId,
  empty
}: {
  label: string
  reviews: ChangeRequestReview[]
  color: string
  testId: string
  empty: string
}) {
  return (
    <Group gap="xs" data-testid={testId}>
      <Text size="sm" c="dimmed" w={130}>
        {label}
      </Text>
      {reviews.length ? (
        reviews.map((r) => (
          <Badge key={r.id} color={color} variant="light" leftSection={<Avatar size={14} radius="xl" name={nameOf(r.reviewer)} />}>
            {nameOf(r.reviewer)}
          </Badge>
        ))
      ) : (
        <Text size="sm">{empty}</Text>
      )}
    </Group>
  )
}

/** What reviewers wrote with their reviews, newest first; an outdated review's comment is marked so. */
function ReviewComments({ reviews }: { reviews: ReturnType<typeof reviewsWithComments> }) {
  return (
    <Stack gap={6} data-testid="review-comments">
      {reviews.map((r) => (
        <Paper key={r.id} withBorder p="xs" data-testid="review-comment">
          <Group gap={6} mb={4}>
            <Avatar size={18} radius="xl" name={nameOf(r.reviewer)} />
            <Text size="sm" fw={500}>
              {nameOf(r.reviewer)}
            </Text>
            <Badge size="xs" variant="light" color={r.status === 'approved' ? 'green' : 'orange'}>
              {r.status === 'approved' ? 'Approved' : 'Requested changes'}
            </Badge>
            {r.outdated && (
              <Badge size="xs" variant="default" title="The change request changed since, or a newer review came">
                Outdated
              </Badge>
            )}
          </Group>
          <div
            className={commentClasses.markdown}
            data-testid="review-comment-body"
            dangerouslySetInnerHTML={{ __html: renderMarkdown(r.comment.body.markdown ?? '') }}
          />
        </Paper>
      ))}
    </Stack>
  )
}

function RequestedChip({
  spaceId,
  number,
  name,
  userId,
  removable
}: {
  spaceId: string
  number: string
  name: string
  userId: string
  removable: boolean
}) {
  const remove = useRemoveRequestedReviewer(spaceId, number)
  return (
    <Badge
      variant="default"
      data-testid="requested-reviewer"
      rightSection={
        removable ? (
          <ActionIcon
            size="xs"
            variant="transparent"
            color="gray"
            aria-label={`Remove ${name}`}
            loading={remove.isPending}
            onClick={() => remove.mutate(userId)}
          >
            <IconX size={12} />
          </ActionIcon>
        ) : undefined
      }
    >
      {name}
    </Badge>
  )
}

function AskReviewer({ spaceId, number, orgId, exclude }: { spaceId: string; number: string; orgId: string; exclude: string[] }) {
  const [search, setSearch] = useState('')
  const members = useQuery(memberSearchQuery(orgId, search))
  const ask = useRequestReviewers(spaceId, number)
  const options = (members.data ?? []).filter((m) => !exclude.includes(m.user.id)).map((m) => ({ value: m.user.id, label: nameOf(m.user) }))
  return (
    <Select
      aria-label="Ask for a review"
      placeholder="Ask for a review…"
      size="xs"
      w={200}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      data={options}
      value={null}
      disabled={ask.isPending}
      onChange={(userId) => {
        if (!userId) return
        setSearch('')
        ask.mutate([userId], { onSuccess: () => notifySuccess('Review requested') })
      }}
      nothingFoundMessage="No member found"
    />
  )
}

function ReviewForm({ spaceId, number, isAuthor }: { spaceId: string; number: string; isAuthor: boolean }) {
  const [comment, setComment] = useState('')
  const submit = useSubmitReview(spaceId, number)
  const client = useQueryClient()
  const send = (status: 'approved' | 'changes-requested') =>
    submit.mutate(
      { status, comment },
      {
        onSuccess: () => {
          setComment('')
          // The comment, if any, joins the change request's discussion.
          void client.invalidateQueries({ queryKey: ['spaces', spaceId, 'comments'] })
          notifySuccess(status === 'approved' ? 'Approved' : 'Changes requested')
        }
      }
    )
  return (
    <Stack gap={6}>
      <Textarea
        aria-label="Review comment"
        placeholder="Comment (optional)"
        maxLength={COMMENT_MARKDOWN_MAX}
        autosize
        minRows={1}
        maxRows={6}
        value={comment}
        onChange={(e) => setComment(e.currentTarget.value)}
      />
      <Group gap="xs">
        <Tooltip label="You started this change request: someone else approves it" disabled={!isAuthor}>
          <Button
            color="green"
            leftSection={<IconCheck size={16} />}
            loading={submit.isPending && submit.variables?.status === 'approved'}
            disabled={submit.isPending && submit.variables?.status !== 'approved'}
            // Looks disabled but keeps the pointer, so the tooltip can say why.
            {...(isAuthor ? { 'data-disabled': true, 'aria-disabled': true } : {})}
            onClick={() => !isAuthor && send('approved')}
          >
            Approve
          </Button>
        </Tooltip>
        <Button
          variant="default"
          leftSection={<IconMessageExclamation size={16} />}
          loading={submit.isPending && submit.variables?.status === 'changes-requested'}
          disabled={submit.isPending && submit.variables?.status !== 'changes-requested'}
          onClick={() => send('changes-requested')}
        >
          Request changes
        </Button>
      </Group>
    </Stack>
  )
}
