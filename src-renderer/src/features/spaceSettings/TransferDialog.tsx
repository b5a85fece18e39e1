import { useEffect, useState } from 'react'
import { Alert, Button, Group, List, Modal, Select, Stack, Text } from '@mantine/core'
import { IconArrowsExchange, IconInfoCircle } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { notifySuccess } from '../../app/notify.ts'
import { orgsQuery } from '../orgs/queries.ts'
import { useTransfer } from './queries.ts'

export interface TransferItem {
  kind: 'space' | 'collection'
  id: string
  title: string
  /** The organization it is in now. */
  organization: string
  /** A space inside a collection (it leaves it for the top level). */
  inCollection?: boolean
}

/**
 * Transfers a space or a collection to another organization the caller may create content in (the API asks
 * `create` there and admin on the item), saying first what moves and what is left behind, as the transfer
 * commands do it (`spaceMoves.ts`, `collectionTransferrer.ts`); then opens the item in its new organization.
 */
export function TransferDialog({ item, onClose }: { item: TransferItem | null; onClose(): void }) {
  const orgs = useQuery({ ...orgsQuery(), enabled: item !== null }).data ?? []
  const [target, setTarget] = useState<string | null>(null)
  const transfer = useTransfer()
  const navigate = useNavigate()
  useEffect(() => {
    if (item) setTarget(null)
  }, [item])

  const choices = orgs.filter((o) => o.id !== item?.organization && o.permissions.createContent)
  const name = item?.title || (item?.kind === 'collection' ? 'Untitled collection' : 'Untitled space')
  const targetTitle = orgs.find((o) => o.id === target)?.title ?? ''
  const submit = () => {
    if (!item || !target) return
    transfer.mutate(
      { kind: item.kind, id: item.id, organization: target, from: item.organization },
      {
        onSuccess: () => {
          notifySuccess(`“${name}” is now in ${targetTitle}`)
          onClose()
          if (item.kind === 'space') void navigate({ to: '/spaces/$spaceId', params: { spaceId: item.id } })
          else void navigate({ to: '/collections/$collectionId', params: { collectionId: item.id } })
        }
      }
    )
  }
  return (
    <Modal
      opened={item !== null}
      onClose={onClose}
      size="lg"
      title={item?.kind === 'collection' ? 'Transfer collection to another organization' : 'Transfer space to another organization'}
      data-testid="transfer-dialog"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <Stack gap="md">
          {choices.length === 0 ? (
            <Alert color="gray" icon={<IconInfoCircle size={18} />}>
              There is no other organization where you can create content. Create one, or ask an admin of another organization for the
              Create role there.
            </Alert>
          ) : (
            <Select
              label="Organization"
              description="Organizations where you can create content"
              placeholder="Choose an organization"
              data={choices.map((o) => ({ value: o.id, label: o.title }))}
              value={target}
              onChange={setTarget}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              data-autofocus
              data-testid="transfer-target"
            />
          )}
          <TransferConsequences kind={item?.kind ?? 'space'} name={name} inCollection={item?.inCollection ?? false} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              color="orange"
              disabled={!target}
              loading={transfer.isPending}
              leftSection={<IconArrowsExchange size={16} />}
              data-testid="confirm-transfer"
            >
              Transfer
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}

/** What the API's transfer does, in its order: what goes along, what is dropped, what stays where it was. */
function TransferConsequences({ kind, name, inCollection }: { kind: 'space' | 'collection'; name: string; inCollection: boolean }) {
  const spaces = kind === 'collection' ? 'its spaces' : 'the space'
  return (
    <Stack gap={6} data-testid="transfer-consequences">
      <Text size="sm" fw={600}>
        What moves
      </Text>
      <List size="sm" spacing={2}>
        {kind === 'collection' ? (
          <List.Item>
            “{name}”, the collections nested in it and every space in them (deleted ones too), to the top level of the organization.
          </List.Item>
        ) : (
          <List.Item>
            “{name}”, to the top level of the organization, with its pages, files, change requests, comments and history.
          </List.Item>
        )}
        <List.Item>
          The general access of {kind === 'collection' ? 'the collections and spaces' : 'the space'}, and the grants of people who are
          members of both organizations.
        </List.Item>
        <List.Item>You keep the Admin role on the {kind}.</List.Item>
      </List>
      <Text size="sm" fw={600} mt={4}>
        What is removed
      </Text>
      <List size="sm" spacing={2}>
        <List.Item>The custom field values of {spaces}: fields belong to this organization.</List.Item>
        <List.Item>Grants to people who are not members of the new organization, and to this organization’s teams.</List.Item>
        {kind === 'space' && inCollection && (
          <List.Item>“Inherits from collection” visibility becomes Private (the space leaves its collection).</List.Item>
        )}
      </List>
      <Text size="sm" fw={600} mt={4}>
        What stays
      </Text>
      <List size="sm" spacing={2}>
        <List.Item>
          Sites that show {spaces} keep showing {kind === 'collection' ? 'them' : 'it'}: the site links are not removed.
        </List.Item>
        <List.Item>Teams and their members stay in this organization.</List.Item>
      </List>
    </Stack>
  )
}
