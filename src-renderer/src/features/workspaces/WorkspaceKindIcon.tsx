import { IconAlertTriangle, IconCloud, IconCloudOff, IconDatabase } from '@tabler/icons-react'
import type { Workspace } from '../../api/types.ts'
import { isCutOff } from './remote.ts'

/**
 * A database for a workspace on this computer, a cloud for a connected one (crossed out while cut off), a warning
 * for one that cannot be opened.
 */
export function WorkspaceKindIcon({ workspace, size = 16 }: { workspace: Workspace | undefined; size?: number }) {
  if (workspace?.problem)
    return <IconAlertTriangle size={size} stroke={1.6} data-icon="problem" color="var(--mantine-color-orange-light-color)" aria-hidden />
  const kind = !workspace?.remote ? 'database' : isCutOff(workspace) ? 'cloud-off' : 'cloud'
  const Icon = kind === 'database' ? IconDatabase : kind === 'cloud' ? IconCloud : IconCloudOff
  return <Icon size={size} stroke={1.6} data-icon={kind} aria-hidden />
}
