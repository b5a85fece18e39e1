import { Button, Divider, Group, Paper, Select, Stack, Switch, TagsInput, Text, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useSuspenseQuery } from '@tanstack/react-query'
import type { OrgMergeRules, Organization } from '../../api/types.ts'
import { applyFormError, notifyError, notifySuccess } from '../../app/notify.ts'
import { MergeRulesForm } from '../spaceSettings/MergeRulesForm.tsx'
import { formatDate } from '../common/format.ts'
import { fromRoleValue, roleOptions, toRoleValue } from '../common/roles.ts'
import { useScreenReady } from '../common/screen.ts'
import { orgQuery, useUpdateOrg, type OrgUpdate } from '../orgs/queries.ts'
import { useFormFollow } from '../common/useFormReset.ts'

function valuesOf(org: Organization) {
  return {
    title: org.title,
    hostname: org.hostname ?? '',
    defaultRole: toRoleValue(org.defaultRole),
    inviteLinks: org.inviteLinks,
    emailDomains: org.emailDomains
  }
}

/** The organization's own settings; only what changed is sent. */
export function OrgSettingsScreen({ orgId }: { orgId: string }) {
  const { data: org, isStale, isFetchedAfterMount, isError, error } = useSuspenseQuery(orgQuery(orgId))
  // The merge rules are shown once they are the stored ones: organization data kept from another screen and past
  // its freshness is read again first (the form shows its place loading meanwhile, never defaults or old rules).
  const rulesKnown = !isStale || isFetchedAfterMount
  const update = useUpdateOrg(orgId)
  const form = useForm({ initialValues: valuesOf(org) })
  useScreenReady()
  // Another window (or a refetch) changed the organization: show it, unless the user is mid-edit.
  useFormFollow(form, valuesOf(org))

  const canAdmin = org.permissions.admin
  const submit = form.onSubmit((v) => {
    const before = valuesOf(org)
    const body: OrgUpdate = {}
    if (v.title.trim() !== before.title) body.title = v.title.trim()
    if (v.hostname.trim() !== before.hostname) body.hostname = v.hostname.trim()
    if (v.defaultRole !== before.defaultRole) body.defaultRole = fromRoleValue(v.defaultRole)
    if (v.inviteLinks !== before.inviteLinks) body.inviteLinks = v.inviteLinks
    if (v.emailDomains.join('\n') !== before.emailDomains.join('\n')) body.emailDomains = v.emailDomains
    if (Object.keys(body).length === 0) return
    update.mutate(body, {
      onSuccess: (saved) => {
        form.setValues(valuesOf(saved))
        form.resetDirty(valuesOf(saved))
        notifySuccess('Settings saved')
      },
      onError: (e) => applyFormError(form, e)
    })
  })

  return (
    <Stack gap="lg">
      <form onSubmit={submit}>
        <Paper p="lg" maw={720}>
          <Stack gap="lg">
            <Section
              title="Organization"
              description={`Created ${formatDate(org.createdAt)} · ${org.type === 'community' ? 'Community' : 'Business'} · ${org.plan} plan`}
            >
              <TextInput label="Name" disabled={!canAdmin} {...form.getInputProps('title')} data-testid="settings-title" />
              <TextInput
                label="Hostname"
                description="Default hostname of your public content: lower-case letters, digits and dashes"
                placeholder="acme-docs"
                disabled={!canAdmin}
                {...form.getInputProps('hostname')}
              />
            </Section>
            <Divider />
            <Section title="Joining" description="How people become members and what they can do at first.">
              <Select
                label="Default role"
                description="The role of new members who join without a specific role"
                data={roleOptions(true)}
                disabled={!canAdmin}
                {...form.getInputProps('defaultRole')}
                w={280}
              />
              <Switch
                label="Allow invite links"
                description="Anyone with an invite link can join the organization"
                disabled={!canAdmin}
                {...form.getInputProps('inviteLinks', { type: 'checkbox' })}
              />
              <TagsInput
                label="E-mail domains"
                description="People with an address at these domains can find and join the organization"
                placeholder="example.com"
                splitChars={[',', ' ']}
                disabled={!canAdmin}
                {...form.getInputProps('emailDomains')}
              />
            </Section>
            {canAdmin && (
              <Group justify="flex-end" gap="sm">
                <Button variant="default" disabled={!form.isDirty()} onClick={() => form.setValues(valuesOf(org))}>
                  Discard
                </Button>
                <Button type="submit" disabled={!form.isDirty()} loading={update.isPending} data-testid="settings-save">
                  Save changes
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      </form>
      <Paper p="lg" maw={720}>
        {!rulesKnown && isError ? (
          <Text size="sm" c="red" data-testid="merge-rules-error">
            The merge rules could not be read: {error.message}
          </Text>
        ) : (
          <MergeRulesForm
            value={rulesKnown ? org.mergeRules : undefined}
            orgId={orgId}
            allowInherit={false}
            disabled={!canAdmin}
            saving={update.isPending && !!update.variables?.mergeRules}
            onSave={(mergeRules) =>
              update.mutate(
                { mergeRules: mergeRules as OrgMergeRules },
                { onSuccess: () => notifySuccess('Merge rules saved'), onError: (e) => notifyError(e) }
              )
            }
          />
        )}
      </Paper>
    </Stack>
  )
}

function Section({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  return (
    <Stack gap="md">
      <div>
        <Title order={4}>{title}</Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </div>
      {children}
    </Stack>
  )
}
