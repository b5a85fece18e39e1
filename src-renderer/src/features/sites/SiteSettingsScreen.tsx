import { type ReactNode } from 'react'
import { Button, Divider, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import type { Site } from '../../api/types.ts'
import { applyFormError, notifySuccess } from '../../app/notify.ts'
import { useScreenReady } from '../common/screen.ts'
import { siteQuery, siteStructureQuery, useUpdateSite, type SiteUpdate } from './queries.ts'
import { useCanManageSites } from './SiteScreen.tsx'
import { proxyInput, sectionsOf } from './siteTree.ts'
import classes from './Sites.module.css'
import { useFormFollow } from '../common/useFormReset.ts'

function valuesOf(site: Site, defaultSection: string | null) {
  return { basename: site.basename ?? '', hostname: site.hostname ?? '', proxy: proxyInput(site.proxy), defaultSiteSection: defaultSection }
}

/** Where the site lives (hostname, base path, proxy) and which section readers land on. Only changes are sent. */
export function SiteSettingsScreen({ orgId, siteId }: { orgId: string; siteId: string }) {
  const { data: site } = useSuspenseQuery(siteQuery(orgId, siteId))
  const structure = useQuery(siteStructureQuery(orgId, siteId)).data
  const sections = structure ? sectionsOf(structure) : []
  const defaultSection = sections.find((s) => s.default)?.id ?? null
  const canManage = useCanManageSites(orgId)
  const update = useUpdateSite(orgId, siteId, { inline: true })
  const form = useForm({ initialValues: valuesOf(site, defaultSection) })
  useScreenReady()
  useFormFollow(form, valuesOf(site, defaultSection))

  const submit = form.onSubmit((v) => {
    const before = valuesOf(site, defaultSection)
    const body: SiteUpdate = {}
    const text = (value: string) => value.trim() || null
    if (v.basename.trim() !== before.basename) body.basename = text(v.basename)
    if (v.hostname.trim() !== before.hostname) body.hostname = text(v.hostname)
    if (v.proxy.trim() !== before.proxy) body.proxy = text(v.proxy)
    if (v.defaultSiteSection && v.defaultSiteSection !== before.defaultSiteSection) body.defaultSiteSection = v.defaultSiteSection
    if (Object.keys(body).length === 0) return
    update.mutate(body, {
      onSuccess: (saved) => {
        const next = valuesOf(saved, body.defaultSiteSection ?? defaultSection)
        form.setValues(next)
        form.resetDirty(next)
        notifySuccess('Site settings saved')
      },
      onError: (e) => applyFormError(form, e)
    })
  })

  return (
    <form onSubmit={submit}>
      <Paper p="lg" maw={720}>
        <Stack gap="lg">
          <Section title="Address" description="Where readers reach the published site.">
            <TextInput
              label="Hostname"
              description="A custom domain for the site, e.g. docs.example.com. Empty: none."
              placeholder="docs.example.com"
              classNames={{ input: classes.mono }}
              disabled={!canManage}
              {...form.getInputProps('hostname')}
              data-testid="settings-hostname"
            />
            <TextInput
              label="Base path"
              description="A path the site is served under, e.g. docs. Empty: the root."
              placeholder="docs"
              classNames={{ input: classes.mono }}
              disabled={!canManage}
              {...form.getInputProps('basename')}
              data-testid="settings-basename"
            />
            <TextInput
              label="Proxy"
              description="Serve the site under your own host and path prefix: a host and at least one path segment, e.g. example.com/docs. Empty: no proxy."
              placeholder="example.com/docs"
              classNames={{ input: classes.mono }}
              disabled={!canManage}
              {...form.getInputProps('proxy')}
              data-testid="settings-proxy"
            />
            {site.proxy && (
              <Text size="xs" c="dimmed">
                Proxied from <span className={classes.mono}>{site.proxy.origin}</span> to{' '}
                <span className={classes.mono}>{site.proxy.target}</span>
              </Text>
            )}
          </Section>
          <Divider />
          <Section title="Landing section" description="The section readers see first when they open the site.">
            {sections.length ? (
              <Select
                label="Default section"
                data={sections.map((s) => ({ value: s.id, label: s.title }))}
                disabled={!canManage}
                comboboxProps={{ withinPortal: true }}
                {...form.getInputProps('defaultSiteSection')}
                w={320}
                data-testid="settings-default-section"
              />
            ) : (
              <Text size="sm" c="dimmed">
                This site has no sections: readers land on its default space (the starred one in Structure).
              </Text>
            )}
          </Section>
          {canManage && (
            <Group justify="flex-end" gap="sm">
              <Button variant="default" disabled={!form.isDirty()} onClick={() => form.reset()}>
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
  )
}

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
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
