import type { Api } from '../app'
import orgRoutes from './orgs/orgs'

/** Every route module of the /v1 API, one per resource area. */
export const routeModules: ((app: Api) => void)[] = [orgRoutes]
