import { Button, EmptyState } from '@mantine/core'
import { IconDoorEnter } from '@tabler/icons-react'
import { useNavigate } from '@tanstack/react-router'
import { notifySuccess } from '../../app/notify.ts'
import { useScreenReady } from '../common/screen.ts'
import { useJoinWithInvite } from './queries.ts'

/** Where an invite link leads: joining takes one click (POST /orgs/{id}/invites/{inviteId}). */
export function JoinScreen({ orgId, inviteId }: { orgId: string; inviteId: string }) {
  const join = useJoinWithInvite(orgId)
  const navigate = useNavigate()
  useScreenReady()
  return (
    <EmptyState
      mt={96}
      variant="light"
      icon={<IconDoorEnter size={28} stroke={1.6} />}
      title="You were invited to an organization"
      description="Join it to see its spaces and work with its team."
    >
      <EmptyState.Actions>
        <Button
          loading={join.isPending}
          onClick={() =>
            join.mutate(inviteId, {
              onSuccess: () => {
                notifySuccess('Welcome aboard')
                void navigate({ to: '/orgs/$orgId', params: { orgId } })
              }
            })
          }
        >
          Join organization
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  )
}
