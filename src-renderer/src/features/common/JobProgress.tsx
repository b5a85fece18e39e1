import { Progress, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { jobPercent, jobText } from './jobProgress.ts'
import { jobQuery } from './jobs.ts'

/** Where a running job is: a bar (striped while its total is unknown) and one line of words. */
export function JobProgress({ id, label }: { id: string; label: string }) {
  const { data: job } = useQuery(jobQuery(id))
  const percent = jobPercent(job)
  return (
    <Stack gap={6} data-testid="job-progress">
      <Progress value={percent ?? 100} striped={percent === undefined} animated aria-label={label} />
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="job-progress-text">
        {jobText(job)}
      </Text>
    </Stack>
  )
}
