import { useEffect, useEffectEvent } from 'react'
import { Button, Group, Modal, Stack } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { notifyInfo } from '../../app/notify.ts'
import { JobProgress } from '../common/JobProgress.tsx'
import { cancelJob, jobQuery } from '../common/jobs.ts'

/**
 * While a PDF named with `job` is drawn for its download: how far it is, and Cancel (the download then fails
 * and nothing is saved). Closes itself when the job ends.
 */
export function PdfExportProgress({ job, onDone }: { job: string | undefined; onDone(): void }) {
  const { data } = useQuery({ ...jobQuery(job ?? ''), enabled: !!job })
  // Once per end of the job (its state moves on), told to the latest `onDone`.
  const ended = useEffectEvent((state: string) => {
    if (state === 'cancelled') notifyInfo('PDF export cancelled')
    onDone()
  })
  const state = data?.state
  useEffect(() => {
    if (state && state !== 'running') ended(state)
  }, [state])
  const cancel = () => {
    if (job) void cancelJob(job)
    // A download that never reached the server has no job to end: nothing to wait for.
    if (!data) onDone()
  }
  return (
    <Modal opened={!!job} onClose={cancel} title="Exporting PDF" data-testid="pdf-progress">
      {job && (
        <Stack>
          <JobProgress id={job} label="PDF progress" />
          <Group justify="flex-end">
            <Button variant="default" onClick={cancel} data-testid="pdf-cancel">
              Cancel export
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  )
}
