import { Avatar, Group, Menu, Text, UnstyledButton, useMantineColorScheme } from '@mantine/core'
import { IconCheck, IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react'
import type { User } from '../../api/types.ts'
import { initials } from '../common/format.ts'
import classes from './AppShell.module.css'

const SCHEMES = [
  { value: 'light', label: 'Light', icon: IconSun },
  { value: 'dark', label: 'Dark', icon: IconMoon },
  { value: 'auto', label: 'Match system', icon: IconDeviceDesktop }
] as const

/** The signed-in user (GET /v1/user) and the appearance preference. */
export function UserMenu({ user }: { user: User | undefined }) {
  const { colorScheme, setColorScheme } = useMantineColorScheme()
  return (
    <Menu width={240}>
      <Menu.Target>
        <UnstyledButton className={classes.userButton} aria-label="Account">
          <Group gap={8} wrap="nowrap">
            <Avatar size={28} radius="xl" color="indigo" src={user?.photoURL}>
              {user ? initials(user.displayName) : null}
            </Avatar>
            <Text size="sm" fw={500} data-testid="current-user" maw={160} truncate>
              {user?.displayName}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)">
            {user?.displayName}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {user?.email ?? 'No e-mail address'}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Label>Appearance</Menu.Label>
        {SCHEMES.map(({ value, label, icon: Icon }) => (
          <Menu.Item
            key={value}
            leftSection={<Icon size={16} stroke={1.6} />}
            rightSection={colorScheme === value ? <IconCheck size={14} /> : null}
            onClick={() => setColorScheme(value)}
          >
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  )
}
