import { IconPuzzle } from '@tabler/icons-react'
import type { Integration } from '../../api/types.ts'
import classes from './Integrations.module.css'

/** The integration's icon, or a neutral one when it has none. */
export function IntegrationIcon({ integration, large = false }: { integration: Integration; large?: boolean }) {
  const className = large ? classes.iconLarge : classes.icon
  return integration.urls.icon ? (
    <img className={className} src={integration.urls.icon} alt="" />
  ) : (
    <span className={className} aria-hidden>
      <IconPuzzle size={large ? 28 : 22} stroke={1.5} />
    </span>
  )
}
