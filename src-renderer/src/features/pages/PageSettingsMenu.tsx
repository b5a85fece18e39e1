import { useEffect, useMemo, useState } from 'react'
import {
  ActionIcon,
  Button,
  Divider,
  Drawer,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Tooltip,
  UnstyledButton
} from '@mantine/core'
import { IconFileText, IconSettings } from '@tabler/icons-react'
import { usePagesUi } from './pagesUiStore.ts'
import { LAYOUT_PARTS, type LayoutPart } from '../../../../src-shared/pageSettings.ts'
import { isSlug } from '../../../../src-shared/slug.ts'
import { ApiError } from '../../api/client.ts'
import type { ContentFile, ContentPage } from '../../api/types.ts'
import { EmojiPicker } from '../content/EmojiPicker.tsx'
import { emojiText } from '../common/emoji.ts'
import { readPageSettings, withPageSetting, type PageSetting } from './pageSettingsEdit.ts'
import classes from './PageSettingsMenu.module.css'

const PART_LABELS: Record<LayoutPart, { label: string; description: string }> = {
  title: { label: 'Title', description: 'The page title at the top' },
  description: { label: 'Description', description: 'The line under the title' },
  tableOfContents: { label: 'Table of contents', description: 'The list of pages beside the page' },
  outline: { label: 'Page outline', description: 'Its headings, on the right' },
  pagination: { label: 'Next and previous links', description: 'At the bottom of the page' }
}

/** The slug field's problem, in the words of the API's rule; null when it may be saved. */
export function slugProblem(slug: string): string | null {
  if (!slug) return 'A page needs a slug'
  return isSlug(slug) ? null : 'Use lower-case letters and digits (any script), words joined by single dashes: getting-started'
}

const isImage = (f: ContentFile) => f.contentType.startsWith('image/')

/**
 * A page's settings, in a drawer beside the editor. Its slug and emoji are the page's own fields, saved at once
 * (as their own change in the change request the edits go to); the rest lives in its front matter, the hosted
 * service's Git format: a control rewrites that block in the text, which saves like any other edit and one undo
 * takes back. The drawer stays open when the first edit moves the editor into a draft.
 */
export function PageSettingsMenu({
  page,
  markdown,
  files,
  disabled,
  onChange,
  onSaveFields
}: {
  page: Pick<ContentPage, 'id' | 'slug' | 'path' | 'emoji'>
  markdown: string
  /** The files of where the edits go (cover images). */
  files: ContentFile[] | undefined
  disabled: boolean
  onChange(next: string): void
  onSaveFields(fields: { slug?: string; emoji?: string | null }): Promise<void>
}) {
  const settings = useMemo(() => readPageSettings(markdown), [markdown])
  const opened = usePagesUi((s) => s.layoutOpenFor === page.id)
  const setOpenFor = usePagesUi((s) => s.setLayoutOpenFor)
  const locked = disabled || !settings.writable
  const set = (setting: PageSetting) => onChange(withPageSetting(markdown, setting))
  return (
    <>
      <Tooltip label="Page settings">
        <ActionIcon
          variant={opened ? 'light' : 'default'}
          size={28}
          aria-label="Page settings"
          aria-expanded={opened}
          onClick={() => setOpenFor(opened ? null : page.id)}
          data-testid="page-settings"
        >
          <IconSettings size={16} />
        </ActionIcon>
      </Tooltip>
      <Drawer
        opened={opened}
        onClose={() => setOpenFor(null)}
        position="right"
        size={380}
        title="Page settings"
        withOverlay={false}
        trapFocus={false}
        closeOnClickOutside={false}
        closeButtonProps={{ 'aria-label': 'Close page settings' }}
      >
        <Stack gap="md" data-testid="page-settings-panel">
          <SlugField page={page} disabled={disabled} onSave={(slug) => onSaveFields({ slug })} />
          <EmojiField value={emojiText(page.emoji)} disabled={disabled} onSave={(emoji) => onSaveFields({ emoji: emoji || null })} />
          <DescriptionField value={settings.description} disabled={locked} onSave={(description) => set({ description })} />
          <Divider />
          <CoverField
            cover={settings.cover}
            files={files}
            size={settings.layout.coverSize}
            visible={settings.layout.cover}
            disabled={locked}
            set={set}
          />
          <Divider />
          <Switch
            size="xs"
            label="Hidden"
            description="Left out of the published table of contents; its address still works"
            checked={settings.hidden}
            disabled={locked}
            onChange={(e) => set({ hidden: e.currentTarget.checked })}
            data-testid="setting-hidden"
          />
          <Text size="xs" fw={600} c="dimmed" tt="uppercase">
            Show on the published page
          </Text>
          {LAYOUT_PARTS.map((part) => (
            <Switch
              key={part}
              size="xs"
              label={PART_LABELS[part].label}
              description={PART_LABELS[part].description}
              checked={settings.layout[part]}
              disabled={locked}
              onChange={(e) => set({ part, visible: e.currentTarget.checked })}
              data-testid={`layout-${part}`}
            />
          ))}
          <Divider />
          <Switch
            size="xs"
            label="Hide from search engines"
            description="Asks search engines not to index this page"
            checked={settings.noIndex}
            disabled={locked}
            onChange={(e) => set({ noIndex: e.currentTarget.checked })}
            data-testid="layout-noIndex"
          />
          {!settings.writable && (
            <Text size="xs" c="red">
              The front matter is not a list of “key: value” lines; fix it in the text to change these here.
            </Text>
          )}
          {settings.writable && (
            <Text size="xs" c="dimmed">
              The slug and the emoji are saved at once; the rest is saved in the page’s front matter, as Git sync writes it.
            </Text>
          )}
        </Stack>
      </Drawer>
    </>
  )
}

/** The slug, checked as typed by the API's rule, with the path it gives the page; saved on Enter or Save. */
function SlugField({
  page,
  disabled,
  onSave
}: {
  page: Pick<ContentPage, 'slug' | 'path'>
  disabled: boolean
  onSave(slug: string): Promise<void>
}) {
  const [value, setValue] = useState(page.slug)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  // The page's slug changed elsewhere (a rename it follows, a save): show the new one.
  useEffect(() => setValue(page.slug), [page.slug])
  const problem = slugProblem(value)
  const parent = page.path.slice(0, page.path.length - page.slug.length)
  const changed = value !== page.slug
  const save = async () => {
    if (problem || !changed) return
    setSaving(true)
    setError(null)
    try {
      await onSave(value)
    } catch (e) {
      setError(e instanceof ApiError || e instanceof Error ? e.message.replace(/^changes\.0\.slug: /, '') : String(e))
    } finally {
      setSaving(false)
    }
  }
  return (
    <div>
      <div className={classes.row}>
        <TextInput
          className={classes.grow}
          size="xs"
          label="Slug"
          value={value}
          disabled={disabled}
          error={(changed && problem) || error}
          onChange={(e) => {
            setValue(e.currentTarget.value)
            setError(null)
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              void save()
            }
          }}
          data-testid="setting-slug"
        />
        <Button
          size="xs"
          variant="default"
          className={classes.save}
          disabled={disabled || !changed || !!problem}
          loading={saving}
          onClick={() => void save()}
          data-testid="setting-slug-save"
        >
          Save
        </Button>
      </div>
      <Text size="xs" c="dimmed" mt={4} data-testid="setting-path">
        Path: /{parent}
        <b>{changed && !problem ? value : page.slug}</b>
      </Text>
      <Text size="xs" c="dimmed" mt={2}>
        Made from the title, it follows the title until you change it here.
      </Text>
    </div>
  )
}

function EmojiField({ value, disabled, onSave }: { value: string; disabled: boolean; onSave(emoji: string): Promise<void> }) {
  return (
    <div>
      <Text size="xs" fw={500} mb={4}>
        Emoji
      </Text>
      {disabled ? (
        <span className={classes.emoji}>{value || <IconFileText size={18} stroke={1.6} />}</span>
      ) : (
        <EmojiPicker value={value} onChange={(emoji) => void onSave(emoji).catch(() => undefined)}>
          <UnstyledButton className={classes.emoji} aria-label="Page emoji" data-testid="setting-emoji">
            {value || <IconFileText size={18} stroke={1.6} />}
          </UnstyledButton>
        </EmojiPicker>
      )}
    </div>
  )
}

/** The description, written into the front matter when the field is left (not at every key). */
function DescriptionField({ value, disabled, onSave }: { value: string; disabled: boolean; onSave(text: string): void }) {
  const [text, setText] = useState(value)
  useEffect(() => setText(value), [value])
  return (
    <Textarea
      size="xs"
      label="Description"
      description="The line under the title, and what search results show"
      autosize
      minRows={2}
      maxRows={5}
      maxLength={1000}
      value={text}
      disabled={disabled}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={() => text.trim() !== value && onSave(text)}
      data-testid="setting-description"
    />
  )
}

function CoverField({
  cover,
  files,
  size,
  visible,
  disabled,
  set
}: {
  cover: string | undefined
  files: ContentFile[] | undefined
  size: 'hero' | 'full'
  visible: boolean
  disabled: boolean
  set(setting: PageSetting): void
}) {
  const images = (files ?? []).filter(isImage)
  const data = images.map((f) => ({ value: `/files/${f.id}`, label: f.name }))
  // A cover named another way (a Git path, a file name) stays choosable as written.
  if (cover && !data.some((d) => d.value === cover)) data.unshift({ value: cover, label: cover })
  return (
    <Stack gap={6}>
      <Select
        size="xs"
        label="Cover"
        description={images.length ? 'An image of this space' : 'Upload an image to this page to use it as its cover'}
        placeholder="No cover"
        data={data}
        value={cover ?? null}
        clearable
        disabled={disabled}
        onChange={(value) => set({ cover: value })}
        comboboxProps={{ withinPortal: true }}
        data-testid="setting-cover"
      />
      {cover && (
        <>
          <Switch
            size="xs"
            label="Show the cover"
            checked={visible}
            disabled={disabled}
            onChange={(e) => set({ part: 'cover', visible: e.currentTarget.checked })}
            data-testid="layout-cover"
          />
          <Select
            size="xs"
            label="Cover size"
            data={[
              { value: 'full', label: 'Full width' },
              { value: 'hero', label: 'Hero (as wide as the text)' }
            ]}
            value={size}
            allowDeselect={false}
            disabled={disabled}
            onChange={(value) => value && set({ coverSize: value as 'hero' | 'full' })}
            comboboxProps={{ withinPortal: true }}
            data-testid="setting-cover-size"
          />
        </>
      )}
    </Stack>
  )
}
