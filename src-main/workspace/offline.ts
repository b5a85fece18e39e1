import FindMyWay from 'find-my-way'

// How a route behaves in a connected workspace while its server is out of reach, declared by the route itself
// (`config: { offline }` in its options): `copy`, a read the local copy answers; `{ queue }`, a write the copy
// applies and the outbox keeps as that command, to send later (src-main/sync/journal.ts, replay.ts). A route
// that declares nothing needs the server (503 offline). The sync code finds a request's route, and so its
// declaration and parameters, in the API's `routeTable`: no other list of paths exists.

/** Writes the outbox can keep and send later. */
export const OUTBOX_COMMANDS = ['create-change-request', 'update-change-request', 'content'] as const
export type OutboxCommand = (typeof OUTBOX_COMMANDS)[number]

export type OfflineBehaviour = 'copy' | { queue: OutboxCommand }

declare module 'fastify' {
  interface FastifyContextConfig {
    offline?: OfflineBehaviour
  }
}

export interface RouteMatch {
  method: string
  /** The route as declared (`/v1/spaces/:spaceId/change-requests/:changeRequestId`). */
  pattern: string
  /** The path's parameters, decoded. */
  params: Record<string, string>
  offline?: OfflineBehaviour
}

interface Declared {
  pattern: string
  offline?: OfflineBehaviour
}

/**
 * Every route of an API, with its offline behaviour, matched as Fastify's own router (find-my-way) does. The router
 * is built on the first `find` (only a connected workspace asks): building it as routes are added cost every start
 * a second router's worth of work (find-my-way compiles a matcher for each node) before the first answer.
 */
export class RouteTable {
  private router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1> | undefined
  private readonly declared: (Declared & { method: string })[] = []

  add(method: string | string[], pattern: string, offline?: OfflineBehaviour): void {
    for (const m of Array.isArray(method) ? method : [method]) this.declared.push({ method: m, pattern, ...(offline ? { offline } : {}) })
    this.router = undefined
  }

  private built(): FindMyWay.Instance<FindMyWay.HTTPVersion.V1> {
    if (this.router) return this.router
    const router = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: 8192 })
    for (const { method, ...store } of this.declared) router.on(method as FindMyWay.HTTPMethod, store.pattern, () => undefined, store)
    return (this.router = router)
  }

  /** The route a request reaches (a path without its query), or undefined when none does. */
  find(method: string, path: string): RouteMatch | undefined {
    const found = this.built().find(method.toUpperCase() as FindMyWay.HTTPMethod, path)
    if (!found) return undefined
    const store = found.store as Declared
    return {
      method: method.toUpperCase(),
      pattern: store.pattern,
      params: { ...(found.params as Record<string, string>) },
      ...(store.offline ? { offline: store.offline } : {})
    }
  }

  /** Every route, as declared. */
  routes(): readonly (Declared & { method: string })[] {
    return this.declared
  }
}
