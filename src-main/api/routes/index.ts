import type { Api } from '../app'
import orgRoutes from './orgs/orgs'
import spaceRoutes from './spaces/spaces'
import spaceMoveRoutes from './spaces/spaceMoves'
import spacePermissionRoutes from './spaces/permissions'

/** Every route module of the /v1 API, one per resource area. */
export const routeModules: ((app: Api) => void)[] = [orgRoutes, spaceRoutes, spaceMoveRoutes, spacePermissionRoutes]
