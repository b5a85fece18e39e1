// A connected workspace's backend: its server while the server answers, and a local copy of what the account
// sees there (a workspace database with the server's ids, kept up to date by the mirror) while it does not.
// Offline, the copy answers the reads it keeps and takes edits to change requests, which go to the outbox in the
// same transaction (journal.ts) and are sent in order when the server answers again (replay.ts). A change request
// with writes the server does not have yet is answered by the copy even online, so nobody sees it without them.
import {
  REMOTE_STATUS_HEADER,
  UNSENT_HEADER,
  type OutboxList,
  type OutboxResolution,
  type OutboxSummary,
  type OutboxSyncResult,
  type RemoteConnection
} from '../../src-shared/workspaces'
import { badRequest, conflict, notFound } from '../base/errors'
import type { WorkspaceBackend, ServerSync } from '../backend/backend'
import type { LocalBackend } from '../backend/localBackend'
import type { RemoteBackend } from '../backend/remoteBackend'
import { journalWrite } from './journal'
import { createMirror, type Mirror } from './mirror'
import type { RouteMatch } from '../workspace/offline'
import {
  filesNeedServer,
  heldWriteProblem,
  isReviewRoute,
  needsServer,
  notKeptOffline,
  reusableNeedsServer,
  reviewsNeedServer,
  reviewsNotCopied,
  serverOnlyChange
} from './offlineRoutes'
import { mirrorRows } from './mirrorRows'
import { repository } from '../storage/repositories/memo'
import { describeEntry, numberKey, outbox, type Attempt, type Conflict, type Rebase } from './outbox'
import { PullQueue } from './pullQueue'
import { replayOutbox, rewriteIds, rewritePath, type ReplayOutcome } from './replay'

/**
 * A server out of reach is asked again after 1 s, then twice as long each time up to 10 s, each wait drawn
 * between 75 % and 125 % of that (so clients cut off together do not all come back in the same instant): a
 * server back after a long absence is found within 12.5 s.
 */
export const PROBE_FIRST_MS = 1000
export const PROBE_MAX_MS = 10_000
/** After an error of the server's own, sending is tried again after this long, doubling (or when it says, Retry-After). */
const RESEND_FIRST_MS = 2000
const RESEND_MAX_MS = 60_000

/** A wait of about `ms` (±25 %). */
const jittered = (ms: number) => Math.round(ms * (0.75 + Math.random() * 0.5))
const ORIGIN = 'http://quire.localhost'

export interface ConnectedBackendOptions {
  remote: RemoteBackend
  /** The local copy: a workspace database owned by the account (openLocalBackend with `account`). */
  copy: LocalBackend
  now?: () => Date
  /** A fixed wait between probes of a server out of reach, instead of the backoff (tests). */
  retryMs?: number
  /** Told when the outbox changed (a write kept, sent or refused) or the backend went off or on line. */
  onChange?: () => void
  warn?: (message: string) => void
}

export class ConnectedBackend implements WorkspaceBackend, ServerSync {
  /** Its link with the server and its outbox: what hosts use to tell a connected workspace from a local one. */
  readonly connected: ServerSync = this
  private offline = false
  private retryTimer: NodeJS.Timeout | undefined
  private replaying: Promise<ReplayOutcome> | undefined
  private replaySoon: NodeJS.Immediate | undefined
  private closed = false
  private readonly pulls: PullQueue
  private host: string
  private remote: RemoteBackend
  private readonly mirror: Mirror

  constructor(private readonly options: ConnectedBackendOptions) {
    const { copy } = options
    this.remote = options.remote
    this.host = new URL(this.remote.url).host
    copy.services.journal = journalWrite
    // The server records the audit events of what the outbox sends it; the copy records none.
    copy.services.audit = false
    this.pulls = new PullQueue((message) => options.warn?.(message))
    this.mirror = createMirror(copy.services.db, (path) => this.remote.request(new Request(`${ORIGIN}${path}`)), {
      now: options.now,
      // The copy's API caches list counts until its own next write: the mirror's count as writes.
      committed: () => void copy.services.writes++,
      // A change request with writes the server does not have yet stays as the copy has it.
      keeps: (id) => outbox(copy.services.db).hasPending(id)
    })
  }

  get url(): string {
    return this.remote.url
  }

  get connection(): RemoteConnection {
    return this.remote.connection
  }

  /** The local copy's database (tests, the host's outbox operations). */
  get copy(): LocalBackend {
    return this.options.copy
  }

  /** Brings the copy up to date with what the account sees, and sends what the outbox holds, in the background. */
  start(): void {
    this.schedulePull('account', () => this.mirror.pullAccount().then(() => undefined))
    this.schedulePull('organizations', () => this.mirror.pullOrganizations())
    if (this.unsent()) this.scheduleReplay()
  }

  /**
   * Reaches the server through another connection from now on (a new token or address of the same account): the
   * copy and the outbox stay as they are (opening them a second time would send the outbox twice), and the server
   * is asked at once.
   */
  async reconnect(remote: RemoteBackend): Promise<void> {
    this.remote = remote
    this.host = new URL(remote.url).host
    await this.check()
  }

  /** Asks the server now (who the token is); back online, the outbox is sent. */
  async check(): Promise<RemoteConnection> {
    const connection = await this.remote.check()
    if (connection.status === 'unreachable') this.wentOffline()
    // Reachable again but refusing the token: it says so itself from now on (the copy would hide that).
    else if (connection.status === 'refused') this.cameBack()
    else {
      this.cameOnline()
      // Also when it was not out of reach (a refused token was replaced): what waited for the token goes now.
      if (this.unsent()) this.scheduleReplay()
    }
    return connection
  }

  fetch(request: Request): Promise<Response> {
    return this.request(request)
  }

  async request(request: Request): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) return this.remote.request(request)
    const method = request.method.toUpperCase()
    const read = method === 'GET' || method === 'HEAD'
    const body = read ? undefined : await request.text()
    const again = () => new Request(url, { method, headers: request.headers, body })
    // The route the request reaches, as the copy's API declares it (its parameters, what it does offline).
    const route = this.route(method, url.pathname)
    if (this.offline) return this.fromCopy(again(), route, method, body)
    if (this.held(route)) {
      // The server does not have all of this change request yet: the copy answers what it keeps of it and takes the
      // edits the outbox can send after the others; what would need the server's version of it waits (409), and
      // other reads (its files, say) are the server's.
      const serverOnly = read ? undefined : serverOnlyChange(body)
      if (route?.offline && !serverOnly) return this.fromCopy(again(), route, method, body)
      if (!read) return this.error(409, heldWriteProblem(route!, serverOnly === 'files', this.host))
    }
    const forwarded = this.forServer(again(), url, route, body)
    const answer = await this.remote.request(forwarded)
    const status = answer.headers.get(REMOTE_STATUS_HEADER)
    // Out of reach: the copy answers. A write whose answer timed out may have been applied there: it is not kept.
    if (status === 'unreachable' && (answer.status === 502 || read)) {
      this.wentOffline()
      return this.fromCopy(again(), route, method, body)
    }
    if (status === 'online') {
      this.cameOnline()
      // What the server was asked (the copy's ids replaced): the copy follows that, not the copy's own numbering.
      if (answer.ok) this.follow(method, new URL(forwarded.url).pathname, answer)
    }
    return this.decorate(answer)
  }

  /** How many writes wait, and how many of them the server refused. */
  outboxSummary(): OutboxSummary {
    const box = outbox(this.options.copy.services.db)
    return { unsent: box.count(), failed: box.failedCount(), conflicts: box.conflictCount() }
  }

  /** The outbox, as the user sees it. */
  outboxList(): OutboxList {
    const box = outbox(this.options.copy.services.db)
    const entries = box.list()
    const crs = box.changeRequestsNamed(entries.map((e) => e.change_request_id))
    return { items: entries.map((entry) => describeEntry(entry, crs.get(entry.change_request_id))) }
  }

  /** Sends the outbox now (asking the server first, when it was out of reach); what it did and the list afterwards. */
  async sync(): Promise<OutboxSyncResult> {
    if (this.offline) await this.check()
    const outcome = await this.replay()
    return { ...outcome, ...this.outboxList() }
  }

  /** A refused write is sent again (after the user fixed what the server refused). */
  async retry(seq: number): Promise<OutboxSyncResult> {
    const box = outbox(this.options.copy.services.db)
    if (!box.get(seq)) throw notFound('Unsent change')
    box.clearFailure(seq)
    return this.sync()
  }

  /**
   * Gives up one write. Later writes stay: each is merged onto the server's version when sent, so the given-up
   * edit does not come back through them. Once a change request has nothing left to send, the copy goes back to
   * the server's version of it; one made offline and never sent is removed.
   */
  async discard(seq: number): Promise<OutboxList> {
    const db = this.options.copy.services.db
    const box = outbox(db)
    const entry = box.get(seq)
    if (!entry) throw notFound('Unsent change')
    if (this.replaying) throw conflict('Changes are being sent to the server: try again in a moment')
    // Sent, with its answer lost: it may be on the server already; the next send finds out.
    const outstanding = box.list().some((e) => e.attempt && (e.seq === seq || (JSON.parse(e.attempt) as Attempt).covers?.includes(seq)))
    if (outstanding)
      throw conflict(`This change may already be on ${this.host} (its answer was lost): send the changes first, then discard what is left`)
    const localOnly = box.isLocalOnly(entry.change_request_id)
    db.transaction(() => {
      // Giving up opening a change request gives up what was written to it: the server will never have it.
      if (entry.kind === 'create-change-request')
        for (const other of box.list()) if (other.change_request_id === entry.change_request_id) box.remove(other.seq)
      box.remove(entry.seq)
      if (!box.hasPending(entry.change_request_id)) box.forgetLocal(entry.change_request_id, localOnly)
    }).immediate()
    this.changed()
    if (!localOnly && !box.hasPending(entry.change_request_id)) this.pullChangeRequest(entry.space_id, entry.change_request_id)
    return this.outboxList()
  }

  /**
   * The user's choice for every page of a held conflict: keep mine (the write's version of the page), keep theirs
   * (the write leaves that page alone) or a merged text. The write is then sent on top of the server's version
   * the conflict showed (If-Match): if the server moved on again, it is merged once more, and may conflict again.
   */
  async resolve(seq: number, resolution: OutboxResolution): Promise<OutboxSyncResult> {
    const db = this.options.copy.services.db
    const box = outbox(db)
    const entry = box.get(seq)
    if (!entry) throw notFound('Unsent change')
    if (!entry.conflict) throw conflict('This change has no conflict to resolve')
    if (this.replaying) throw conflict('Changes are being sent to the server: try again in a moment')
    const held = JSON.parse(entry.conflict) as Conflict
    const choices = new Map(resolution.pages.map((c) => [c.page, c]))
    for (const page of held.pages) {
      const choice = choices.get(page.page)
      if (!choice)
        throw badRequest(
          `pages: “${page.title}” needs a choice: keep mine, keep theirs${page.kind === 'text' ? ' or the merged text' : ''}`
        )
      if ('markdown' in choice && page.kind !== 'text')
        throw badRequest(`pages: “${page.title}” was changed otherwise than in its text: keep mine or keep theirs`)
    }
    for (const page of choices.keys())
      if (!held.pages.some((p) => p.page === page)) throw badRequest(`pages: ${page} is not a page of this conflict`)
    const body = JSON.parse(entry.body ?? '{"changes":[]}') as { changes: { page?: string; document?: { markdown: string } }[] }
    const changes = body.changes.flatMap((change) => {
      const choice = change.page ? choices.get(change.page) : undefined
      if (!choice) return [change]
      if ('markdown' in choice) return [{ ...change, document: { markdown: choice.markdown } }]
      return choice.keep === 'mine' ? [change] : []
    })
    const previous = entry.rebase ? (JSON.parse(entry.rebase) as Rebase) : undefined
    const rebase: Rebase = {
      revision: held.revision,
      pages: { ...previous?.pages, ...Object.fromEntries(held.pages.map((p) => [p.page, p.theirs])) }
    }
    db.transaction(() => {
      if (changes.length) box.resolve(seq, JSON.stringify({ ...body, changes }), rebase)
      else {
        // Theirs everywhere: nothing of this write is left to send.
        box.remove(seq)
        if (!box.hasPending(entry.change_request_id)) box.forgetLocal(entry.change_request_id, false)
      }
    }).immediate()
    this.changed()
    if (!box.hasPending(entry.change_request_id))
      this.pullChangeRequest(entry.space_id, box.remoteId(entry.change_request_id) ?? entry.change_request_id)
    return this.sync()
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.retryTimer)
    clearTimeout(this.resendTimer)
    if (this.replaySoon) clearImmediate(this.replaySoon)
    await this.replaying?.catch(() => undefined)
    await this.pulls.stop()
    await this.options.copy.close()
  }

  /** Waits for pulls and sends in progress (tests). */
  async idle(): Promise<void> {
    for (;;) {
      await this.replaying?.catch(() => undefined)
      await this.pulls.idle()
      if (!this.replaying && !this.replaySoon && this.pulls.isIdle()) return
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  // --- routing ---------------------------------------------------------------------------------------------

  /** The route of the copy's API a request reaches: what it declares about offline use, and its parameters. */
  private route(method: string, pathname: string): RouteMatch | undefined {
    return this.options.copy.api.routeTable.find(method === 'HEAD' ? 'GET' : method, pathname)
  }

  /** True for a request about a change request the server does not have all of yet. */
  private held(route: RouteMatch | undefined): boolean {
    const { spaceId, changeRequestId } = route?.params ?? {}
    if (!spaceId || !changeRequestId) return false
    const id = this.copyChangeRequestId(spaceId, changeRequestId)
    return !!id && outbox(this.options.copy.services.db).hasPending(id)
  }

  private copyChangeRequestId(spaceId: string, ref: string): string | undefined {
    return outbox(this.options.copy.services.db).changeRequestId(spaceId, ref)
  }

  /**
   * The request with the server's ids where the app still uses the copy's (a change request made offline and sent
   * since, its pages): in the path and, for a write, in the body. A number the copy gave a change request is
   * rewritten only while the copy has no change request of that number of its own (the server's).
   */
  private forServer(request: Request, url: URL, route: RouteMatch | undefined, body: string | undefined): Request {
    const ids = this.ids()
    if (!ids.size) return request
    const space = route?.params.spaceId
    const crRef = route?.params.changeRequestId
    let path = url.pathname + url.search
    // The app asks for a change request made offline by its server number: it has followed the renumbering, and
    // the copy's old number may go back to meaning the server's change request of that number.
    if (space && crRef && /^\d+$/.test(crRef)) this.forgetOldNumbers(space, crRef)
    if (space) {
      const keepNumber = crRef && /^\d+$/.test(crRef) && (!ids.has(numberKey(space, crRef)) || this.copyChangeRequestId(space, crRef))
      const map = keepNumber ? new Map([...ids].filter(([k]) => !k.startsWith('number:'))) : ids
      path = rewritePath(path, space, map)
    }
    return new Request(new URL(path, ORIGIN), { method: request.method, headers: request.headers, body: body && rewriteIds(body, ids) })
  }

  private forgetOldNumbers(spaceId: string, number: string): void {
    const prefix = numberKey(spaceId, '')
    const old = [...this.ids()].filter(([key, value]) => key.startsWith(prefix) && value === number).map(([key]) => key)
    if (!old.length) return
    const box = outbox(this.options.copy.services.db)
    for (const key of old) box.unmapId(key)
    this.idCache = undefined
  }

  /** The copy's ids the server knows by others (only a replay adds to them: read again after each). */
  private idCache: Map<string, string> | undefined
  private ids(): Map<string, string> {
    return (this.idCache ??= outbox(this.options.copy.services.db).idMap())
  }

  /** What the copy answers: the reads it keeps, the writes the outbox can send later; refusals that say so. */
  private async fromCopy(request: Request, route: RouteMatch | undefined, method: string, body: string | undefined): Promise<Response> {
    if (this.offline) this.retrySoon()
    if (method === 'GET' || method === 'HEAD') {
      if (this.offline && route?.offline !== 'copy') return this.error(503, notKeptOffline(this.host))
      // A change request's reviews come with it when the app opens it (its content): one only listed has none here.
      if (this.offline && isReviewRoute(route) && !this.reviewsCopied(route!.params)) return this.error(404, reviewsNotCopied(this.host))
      const answer = await this.options.copy.request(request)
      if (answer.status === 404 && this.offline) {
        const message = (await answer.json().catch(() => undefined)) as { error?: { message?: string } } | undefined
        return this.error(
          404,
          `${message?.error?.message ?? 'Not found'} on this computer: it was not copied before ${this.host} went out of reach`
        )
      }
      return this.decorate(answer)
    }
    if (typeof route?.offline !== 'object')
      return this.error(503, isReviewRoute(route) ? reviewsNeedServer(this.host) : needsServer(this.host))
    const serverOnly = serverOnlyChange(body)
    if (serverOnly) return this.error(503, serverOnly === 'files' ? filesNeedServer(this.host) : reusableNeedsServer(this.host))
    const answer = await this.options.copy.request(request)
    if (answer.ok) {
      this.changed()
      if (!this.offline) this.scheduleReplay()
    }
    return this.decorate(answer)
  }

  /** Whether the copy has the reviews of a change request: pulled with it when the app opened it, or made here. */
  private reviewsCopied({ spaceId, changeRequestId }: Record<string, string>): boolean {
    const db = this.options.copy.services.db
    return (
      !!spaceId &&
      !!changeRequestId &&
      repository(db, mirrorRows).reviewsCopied(spaceId, changeRequestId, (id) => outbox(db).hasPending(id))
    )
  }

  /** Keeps the copy following what the app looks at and changes on the server. */
  private follow(method: string, pathname: string, answer: Response): void {
    const write = method !== 'GET' && method !== 'HEAD'
    const mirror = this.mirror
    const { spaceId, changeRequestId: ref, organizationId, collectionId } = this.route(method, pathname)?.params ?? {}
    if (spaceId && ref) {
      this.schedulePull(`cr:${spaceId}:${ref}`, () => mirror.pullChangeRequest(spaceId, ref), write, { spaceId, ref })
      // A merge moves the space's content too.
      if (write) this.schedulePull(`space:${spaceId}`, () => mirror.pullSpace(spaceId), true)
    } else if (spaceId) {
      this.schedulePull(`space:${spaceId}`, () => mirror.pullSpace(spaceId), write)
    }
    if (write && !ref && (organizationId || collectionId || (spaceId && answer.status !== 200))) {
      this.schedulePull('organizations', () => mirror.pullOrganizations(), true)
    }
  }

  private schedulePull(key: string, task: () => Promise<void>, force = false, cr?: { spaceId: string; ref: string }): void {
    if (this.closed) return
    this.pulls.schedule(
      key,
      async () => {
        // Offline, or a change request the server does not have all of: the copy keeps what it has.
        if (this.offline) return
        if (cr) {
          const id = this.copyChangeRequestId(cr.spaceId, cr.ref)
          if (id && outbox(this.options.copy.services.db).hasPending(id)) return
        }
        try {
          await task()
        } catch (error) {
          // The server went out of reach meanwhile: the copy answers from now on, and nothing is wrong with it.
          if (this.remote.connection.status === 'unreachable') return this.wentOffline()
          throw error
        }
      },
      force
    )
  }

  // --- on and off line ---------------------------------------------------------------------------------------

  private wentOffline(): void {
    if (this.offline || this.closed) return
    this.offline = true
    this.probes = 0
    this.scheduleProbe()
    this.changed()
  }

  /** Probes of the server since it went out of reach (the next wait doubles with each). */
  private probes = 0
  private scheduleProbe(): void {
    if (this.closed) return
    clearTimeout(this.retryTimer)
    const wait = this.options.retryMs ?? jittered(Math.min(PROBE_MAX_MS, PROBE_FIRST_MS * 2 ** this.probes))
    this.probes++
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined
      void this.check()
        .catch(() => undefined)
        .finally(() => {
          if (this.offline && !this.retryTimer) this.scheduleProbe()
        })
    }, wait)
    this.retryTimer.unref()
  }

  /** The server answered (online) after it was out of reach: what waited is sent, and the copy catches up. */
  private cameOnline(): void {
    if (!this.offline) return
    this.cameBack()
    this.scheduleReplay()
    this.schedulePull('organizations', () => this.mirror.pullOrganizations(), true)
  }

  /** The server answers again (it may refuse the token): requests go to it, not to the copy. */
  private cameBack(): void {
    if (!this.offline) return
    this.offline = false
    clearTimeout(this.retryTimer)
    this.retryTimer = undefined
    this.changed()
  }

  /** Offline, a request may find the server back: asked in the background, at most once per retry period. */
  private lastRetry = 0
  private retrySoon(): void {
    const now = Date.now()
    if (now - this.lastRetry < (this.options.retryMs ?? PROBE_FIRST_MS)) return
    this.lastRetry = now
    void this.check().catch(() => undefined)
  }

  // --- sending -----------------------------------------------------------------------------------------------

  private scheduleReplay(): void {
    if (this.replaySoon || this.closed) return
    this.replaySoon = setImmediate(() => {
      this.replaySoon = undefined
      void this.replay().catch((error: unknown) =>
        this.options.warn?.(`Sending unsent changes failed: ${error instanceof Error ? error.message : error}`)
      )
    })
  }

  private replay(): Promise<ReplayOutcome> {
    if (!this.replaying) {
      this.replaying = this.replayAll().finally(() => {
        this.replaying = undefined
        this.changed()
      })
    }
    return this.replaying
  }

  private async replayAll(): Promise<ReplayOutcome> {
    const total: ReplayOutcome = { sent: 0, failed: 0, conflicts: 0, renumbered: [] }
    if (this.offline) {
      total.stopped = 'unreachable'
      return total
    }
    // Writes made while it ran (to a change request still held) are sent by another round.
    for (let round = 0; round < 5; round++) {
      const outcome = await replayOutbox({
        db: this.options.copy.services.db,
        send: (request) => this.remote.request(request),
        now: () => (this.options.now?.() ?? new Date()).toISOString(),
        settled: (settled) => this.settled(settled)
      })
      this.idCache = undefined
      total.sent += outcome.sent
      total.failed += outcome.failed
      total.conflicts += outcome.conflicts
      total.renumbered.push(...outcome.renumbered)
      if (outcome.stopped) {
        total.stopped = outcome.stopped
        if (outcome.message) total.message = outcome.message
        if (outcome.stopped === 'unreachable') this.wentOffline()
        if (outcome.stopped === 'server-error') this.resendLater(outcome.retryAfterMs)
        break
      }
      if (!outcome.sent) break
    }
    if (!total.stopped) this.resends = 0
    return total
  }

  /** The server answered with an error of its own: sending goes on later by itself. */
  private resends = 0
  private resendTimer: NodeJS.Timeout | undefined
  private resendLater(retryAfterMs?: number): void {
    if (this.closed) return
    clearTimeout(this.resendTimer)
    const wait = retryAfterMs ?? jittered(Math.min(RESEND_MAX_MS, RESEND_FIRST_MS * 2 ** this.resends))
    this.resends++
    this.resendTimer = setTimeout(() => {
      this.resendTimer = undefined
      this.scheduleReplay()
    }, wait)
    this.resendTimer.unref()
  }

  /** A change request the server now has all of: the copy takes the server's version of it. */
  private async settled({
    spaceId,
    changeRequestId,
    remoteId
  }: {
    spaceId: string
    changeRequestId: string
    remoteId: string
  }): Promise<void> {
    const db = this.options.copy.services.db
    const localOnly = remoteId !== changeRequestId
    db.transaction(() => outbox(db).forgetLocal(changeRequestId, localOnly)).immediate()
    this.pullChangeRequest(spaceId, remoteId)
  }

  /** The server's version of a change request into the copy, then the copy's own revisions of it that nothing needs. */
  private pullChangeRequest(spaceId: string, id: string): void {
    const db = this.options.copy.services.db
    this.schedulePull(
      `cr:${spaceId}:${id}`,
      async () => {
        await this.mirror.pullChangeRequest(spaceId, id)
        db.transaction(() => outbox(db).pruneRevisions(id)).immediate()
      },
      true,
      { spaceId, ref: id }
    )
  }

  // --- answers -----------------------------------------------------------------------------------------------

  private unsent(): number {
    return outbox(this.options.copy.services.db).count()
  }

  private changed(): void {
    this.options.onChange?.()
  }

  /** Every answer says how the connection is and how many writes wait. */
  private decorate(answer: Response): Response {
    const headers = new Headers(answer.headers)
    headers.set(REMOTE_STATUS_HEADER, this.offline ? 'unreachable' : (answer.headers.get(REMOTE_STATUS_HEADER) ?? this.connection.status))
    const unsent = this.unsent()
    if (unsent) headers.set(UNSENT_HEADER, String(unsent))
    const empty = answer.status === 204 || answer.status === 205 || answer.status === 304
    return new Response(empty ? null : answer.body, { status: answer.status, headers })
  }

  private error(status: number, message: string): Response {
    return this.decorate(
      new Response(JSON.stringify({ error: { code: status, message } }), {
        status,
        headers: { 'content-type': 'application/json; charset=utf-8' }
      })
    )
  }
}
