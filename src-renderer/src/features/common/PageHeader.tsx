import type { ReactNode } from 'react'
import { Group, Stack, Text, Title } from '@mantine/core'
import classes from './PageHeader.module.css'

/** The top of every screen: title, one line saying what it is for, and the screen's main actions. */
export function PageHeader({
  title,
  description,
  actions,
  icon
}: {
  title: ReactNode
  description?: ReactNode
  actions?: ReactNode
  icon?: ReactNode
}) {
  return (
    <Group className={classes.header} justify="space-between" align="flex-start" wrap="nowrap">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {icon}
        <Stack gap={2}>
          <Title order={2} className={classes.title} data-testid="page-title">
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
      </Group>
      {actions && (
        <Group gap="xs" wrap="nowrap">
          {actions}
        </Group>
      )}
    </Group>
  )
}
