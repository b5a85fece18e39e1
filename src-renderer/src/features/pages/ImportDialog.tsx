import { useState } from 'react'
import { Button, Group, Modal, Radio, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { ImportSource } from '../../api/types.ts'
import { applyFormError, notifyInfo, notifySuccess } from '../../app/notify.ts'
import { isCancelled } from '../common/jobProgress.ts'
import { JobProgress } from '../common/JobProgress.tsx'
import { cancelJob, newJobId } from '../common/jobs.ts'
import { DialogActions } from '../common/DialogActions.tsx'
import { plural } from '../common/format.ts'
import { importContent } from './queries.ts'
import { useFormReset } from '../common/useFormReset.ts'

const SOURCES: { value: ImportSource; label: string; description: string; placeholder: string }[] = [
  {
    value: 'website',
    label: 'Website',
    description:
      'The page at the address and the pages of the same site it links to, each a page here; links between them point here, and images are copied in.',
    placeholder: 'https://docs.example.com/guide/'
  },
  {
    value: 'markdown',
    label: 'Markdown',
    description: 'One Markdown file; its first heading names the page, and its web images are copied in.',
    placeholder: 'https://example.com/README.md'
  },
  {
    value: 'html',
    label: 'HTML',
    description: 'One web page, converted to Markdown, its images copied in.',
    placeholder: 'https://example.com/page.html'
  },
  {
    value: 'docx',
    label: 'Word',
    description: 'One Word document (.docx), converted to Markdown.',
    placeholder: 'https://example.com/handbook.docx'
  }
]

type Into = 'change-request' | 'space'

/** An http(s) address, as the API requires; its answer still lands by the field if it cannot fetch it. */
export function validateImportUrl(url: string): string | null {
  const text = url.trim()
  if (!text) return 'Enter the address to import from'
  try {
    const { protocol } = new URL(text)
    return protocol === 'http:' || protocol === 'https:' ? null : 'Must be an http or https address'
  } catch {
    return 'Must be an http or https address'
  }
}

/**
 * Imports pages from a URL into the space: by default into a new change request (opened afterwards, to review
 * and merge), or straight into the space's content. An address the server cannot fetch is explained by the
 * field, and nothing is created.
 */
export function ImportDialog({ spaceId, opened, onClose }: { spaceId: string; opened: boolean; onClose(): void }) {
  const client = useQueryClient()
  const navigate = useNavigate()
  const form = useForm<{ url: string; source: ImportSource; into: Into }>({
    initialValues: { url: '', source: 'website', into: 'change-request' },
    validate: { url: validateImportUrl }
  })
  useFormReset(form, opened ? {} : null, opened)
  // The running import's job: its progress shows in place of the form's fields, and Cancel stops it.
  const [job, setJob] = useState<string | undefined>()
  const run = useMutation({
    mutationFn: (values: { url: string; source: ImportSource; into: Into; job: string }) =>
      importContent(spaceId, { url: values.url.trim(), source: values.source }, values.into, values.job),
    meta: { inlineErrors: true },
    onSettled: () => void client.invalidateQueries({ queryKey: ['spaces', spaceId] })
  })
  const source = SOURCES.find((s) => s.value === form.values.source)!
  const close = () => {
    // Closing while it runs cancels it: nothing is imported.
    if (run.isPending && job) void cancelJob(job)
    onClose()
  }

  return (
    <Modal opened={opened} onClose={close} title="Import pages" size="lg" data-testid="import-dialog">
      <form
        onSubmit={form.onSubmit((values) => {
          const id = newJobId()
          setJob(id)
          run.mutate(
            { ...values, job: id },
            {
              onSuccess: ({ result, changeRequest }) => {
                const found = result.totalResources > result.importedResources ? ` (${result.totalResources} found)` : ''
                notifySuccess(
                  `Imported ${plural(result.importedResources, 'page')}${found}${changeRequest ? ` into change request #${changeRequest.number}` : ''}`
                )
                onClose()
                if (changeRequest)
                  void navigate({
                    to: '/spaces/$spaceId/change-requests/$number',
                    params: { spaceId, number: String(changeRequest.number) }
                  })
                else void navigate({ to: '/spaces/$spaceId', params: { spaceId } })
              },
              onError: (e) => {
                if (isCancelled(e)) notifyInfo('Import cancelled: nothing was imported')
                else applyFormError(form, e)
              }
            }
          )
        })}
      >
        <Stack>
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              Source
            </Text>
            <SegmentedControl
              data={SOURCES.map(({ value, label }) => ({ value, label }))}
              {...form.getInputProps('source')}
              data-testid="import-source"
            />
            <Text size="xs" c="dimmed">
              {source.description}
            </Text>
          </Stack>
          <TextInput
            label="Address"
            placeholder={source.placeholder}
            data-autofocus
            {...form.getInputProps('url')}
            data-testid="import-url"
          />
          <Radio.Group label="Into" {...form.getInputProps('into')}>
            <Stack gap="xs" mt={6}>
              <Radio
                value="change-request"
                label="A new change request"
                description="Review the imported pages, then merge them."
                data-testid="import-into-cr"
              />
              <Radio
                value="space"
                label="The space's content"
                description="The pages go live at once, without review."
                data-testid="import-into-space"
              />
            </Stack>
          </Radio.Group>
          {run.isPending && job ? (
            <>
              <JobProgress id={job} label="Import progress" />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => void cancelJob(job)} data-testid="import-cancel">
                  Cancel import
                </Button>
              </Group>
            </>
          ) : (
            <DialogActions onCancel={close} submit="Import" submitTestId="import-submit" />
          )}
        </Stack>
      </form>
    </Modal>
  )
}
