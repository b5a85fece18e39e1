import { useState, type ReactNode } from 'react'
import { Button, ColorInput, Divider, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconCheck } from '@tabler/icons-react'
import { useSuspenseQuery } from '@tanstack/react-query'
import { fieldError } from '../../api/client.ts'
import { notifyError, notifySuccess } from '../../app/notify.ts'
import { formatRelative } from '../common/format.ts'
import { useScreenReady } from '../common/screen.ts'
import {
  COLOR_KEYS,
  COLOR_LABELS,
  CORNERS,
  HEX_COLOR,
  ICON_STYLES,
  LINK_STYLES,
  SEARCH_STYLES,
  SIDEBAR_BACKGROUNDS,
  SIDEBAR_LISTS,
  THEMES,
  changedFields,
  customizationPatch,
  customizationValues,
  formPathOf,
  type CustomizationValues
} from './customization.ts'
import { customizationQuery, useSaveCustomization } from './queries.ts'
import { useCanManageSites } from './SiteScreen.tsx'
import classes from './Sites.module.css'
import { SitePreviewFrame } from './SitePreviewFrame.tsx'
import previewClasses from './SitePreview.module.css'
import { useFormFollow } from '../common/useFormReset.ts'

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: capitalize(v) }))

/** How the published site looks, beside the draft preview (which loads again after each save). */
export function CustomizationScreen({ orgId, siteId }: { orgId: string; siteId: string }) {
  const canManage = useCanManageSites(orgId)
  return (
    <div className={previewClasses.customizeLayout}>
      <CustomizationForm orgId={orgId} siteId={siteId} />
      {canManage && <SitePreviewFrame orgId={orgId} siteId={siteId} />}
    </div>
  )
}

/** Title, theme, colours (light and dark), shapes and language. */
function CustomizationForm({ orgId, siteId }: { orgId: string; siteId: string }) {
  const { data: customization } = useSuspenseQuery(customizationQuery(orgId, siteId))
  const canManage = useCanManageSites(orgId)
  const save = useSaveCustomization(orgId, siteId)
  const [lastSaved, setLastSaved] = useState<{ fields: string[]; at: string } | null>(null)
  const form = useForm<CustomizationValues>({
    initialValues: customizationValues(customization),
    validate: {
      title: (v) => (v.trim() ? null : 'The site needs a title'),
      font: (v) => (/^[A-Za-z0-9 _-]+$/.test(v.trim()) ? null : 'Letters, digits, spaces, _ and - only'),
      colors: Object.fromEntries(
        COLOR_KEYS.map((key) => [
          key,
          {
            light: (v: string) => colorError(v, key === 'tint'),
            dark: (v: string) => colorError(v, key === 'tint')
          }
        ])
      ) as Record<string, { light: (v: string) => string | null; dark: (v: string) => string | null }>
    }
  })
  useScreenReady()
  // Changed elsewhere (another window): show it unless the user is mid-edit.
  useFormFollow(form, customizationValues(customization))

  const submit = form.onSubmit((values) => {
    const before = customizationValues(customization)
    const body = customizationPatch(before, values)
    // Only an emptied tint changed: the API cannot remove a tint, so there is nothing to send.
    if (Object.keys(body).length === 0) return form.reset()
    const fields = changedFields(before, values)
    save.mutate(body, {
      onSuccess: (saved) => {
        form.setValues(customizationValues(saved))
        form.resetDirty(customizationValues(saved))
        setLastSaved({ fields, at: new Date().toISOString() })
        notifySuccess(`Customization saved: ${fields.join(', ')}`)
      },
      onError: (e) => {
        const blamed = fieldError(e)
        const path = blamed && formPathOf(blamed.path)
        if (blamed && path) form.setFieldError(path, capitalize(blamed.rule))
        else notifyError(e)
      }
    })
  })

  const dirty = form.isDirty()
  const pending = dirty ? changedFields(customizationValues(customization), form.values) : []
  return (
    <form onSubmit={submit}>
      <Paper p="lg" maw={820}>
        <Stack gap="lg">
          <Section title="Site" description="What readers see in the header and the browser tab.">
            <div className={classes.fieldGrid}>
              <TextInput label="Title" disabled={!canManage} {...form.getInputProps('title')} data-testid="custom-title" />
              <TextInput
                label="Language"
                description="e.g. en, fr, pt-br"
                disabled={!canManage}
                {...form.getInputProps('locale')}
                data-testid="custom-locale"
              />
            </div>
          </Section>
          <Divider />
          <Section title="Theme" description="The overall style, shapes and typography.">
            <div className={classes.fieldGrid}>
              <Select
                label="Theme"
                data={options(THEMES)}
                disabled={!canManage}
                {...form.getInputProps('theme')}
                data-testid="custom-theme"
              />
              <TextInput label="Font" disabled={!canManage} {...form.getInputProps('font')} data-testid="custom-font" />
              <Select label="Links" data={options(LINK_STYLES)} disabled={!canManage} {...form.getInputProps('links')} />
              <Select label="Icons" data={options(ICON_STYLES)} disabled={!canManage} {...form.getInputProps('icons')} />
              <Select
                label="Sidebar background"
                data={options(SIDEBAR_BACKGROUNDS)}
                disabled={!canManage}
                {...form.getInputProps('sidebarBackground')}
              />
              <Select label="Sidebar list" data={options(SIDEBAR_LISTS)} disabled={!canManage} {...form.getInputProps('sidebarList')} />
            </div>
            <Group gap="xl">
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Corners
                </Text>
                <SegmentedControl
                  data={options(CORNERS)}
                  disabled={!canManage}
                  {...form.getInputProps('corners')}
                  data-testid="custom-corners"
                />
              </Stack>
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Search
                </Text>
                <SegmentedControl data={options(SEARCH_STYLES)} disabled={!canManage} {...form.getInputProps('search')} />
              </Stack>
            </Group>
          </Section>
          <Divider />
          <Section
            title="Colours"
            description="Each colour has a value for the light and the dark appearance. The tint colours the background lightly; it is optional."
          >
            <div className={classes.colorGrid}>
              <span />
              <Text size="xs" fw={600} c="dimmed" tt="uppercase">
                Light
              </Text>
              <Text size="xs" fw={600} c="dimmed" tt="uppercase">
                Dark
              </Text>
              {COLOR_KEYS.map((key) => (
                <ColorRow key={key} label={COLOR_LABELS[key]}>
                  {(['light', 'dark'] as const).map((scheme) => (
                    <ColorInput
                      key={scheme}
                      format="hex"
                      aria-label={`${COLOR_LABELS[key]} (${scheme})`}
                      placeholder={key === 'tint' ? 'None' : '#000000'}
                      disabled={!canManage}
                      withEyeDropper={false}
                      popoverProps={{ withinPortal: true }}
                      {...form.getInputProps(`colors.${key}.${scheme}`)}
                      data-testid={`color-${key}-${scheme}`}
                    />
                  ))}
                </ColorRow>
              ))}
            </div>
          </Section>
          {canManage && (
            <Group justify="space-between" gap="sm">
              <Text size="sm" c="dimmed" data-testid="customization-status">
                {dirty ? (
                  `Unsaved: ${pending.join(', ') || 'no change'}`
                ) : lastSaved ? (
                  <>
                    <IconCheck size={14} style={{ verticalAlign: -2 }} /> Saved {formatRelative(lastSaved.at)}:{' '}
                    {lastSaved.fields.join(', ')}
                  </>
                ) : (
                  'All changes saved'
                )}
              </Text>
              <Group gap="sm">
                <Button variant="default" disabled={!dirty} onClick={() => form.reset()}>
                  Discard
                </Button>
                <Button type="submit" disabled={!dirty} loading={save.isPending} data-testid="customization-save">
                  Save changes
                </Button>
              </Group>
            </Group>
          )}
        </Stack>
      </Paper>
    </form>
  )
}

function colorError(value: string, optional: boolean): string | null {
  if (!value) return optional ? null : 'Pick a colour'
  return HEX_COLOR.test(value) ? null : 'A hex colour, like #346ddb'
}

function ColorRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <span className={classes.colorLabel}>{label}</span>
      {children}
    </>
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
