import { Group, Stack, Text } from '@mantine/core'
import { IconArrowRight } from '@tabler/icons-react'
import type { AttributeRow } from './changeAttributes.ts'

/** A page's changed settings, one row each: the setting, its value before (struck through) and after. */
export function AttributeRows({ rows, testId, labelWidth }: { rows: AttributeRow[]; testId: string; labelWidth?: number }) {
  if (!rows.length) return null
  return (
    <Stack gap={4} data-testid={testId}>
      {rows.map((row) => (
        <Group key={row.key} gap={8} wrap="nowrap">
          <Text size="sm" c="dimmed" miw={labelWidth} style={{ flex: 'none' }}>
            {row.label}
          </Text>
          <Text size="sm" td="line-through" c="dimmed" truncate>
            {row.before}
          </Text>
          <IconArrowRight size={14} style={{ flex: 'none' }} />
          <Text size="sm" fw={500} truncate>
            {row.after}
          </Text>
        </Group>
      ))}
    </Stack>
  )
}
