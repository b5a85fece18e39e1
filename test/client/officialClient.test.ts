// The official client of the published API (`GitBookAPI` from `@gitbook/api`) drives a real Quire: a headless server
// in a child process (`quire serve`, as `npm run serve` starts it) on a fresh data folder, a second user made with
// the CLI as a script author would, and the whole review workflow through the client's own methods. Every answer the
// client receives is also held to the published document (src-main/testing/contract.ts), as the HTTP tests' are.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { GitBookAPI, GitBookAPIError, type ChangeRequestRequestedReviewer, type MergeRulesSpaceConfiguration } from '@gitbook/api'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { checkAnswer, recordExercised } from '../../src-main/testing/contract'

/** The owner's token: `--token` makes it valid on the new data folder (at least 32 characters). */
const OWNER_TOKEN = 'quire-client-owner-token-0123456789abcdef'

// Real processes (tsx compiles on start): slow on a loaded machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 })

const root = resolve(import.meta.dirname, '../..')
const children: ChildProcess[] = []
let data: string
let origin: string

/** Runs `quire …` (the CLI entry, as `npm run quire --` does) to its end; fails the test on a non-zero exit. */
function quire(args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli/main.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  children.push(child)
  let out = ''
  child.stdout.on('data', (c) => (out += c))
  child.stderr.on('data', (c) => (out += c))
  return new Promise((resolvePromise, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolvePromise(out.trim()) : reject(new Error(`quire ${args[0]} exited with ${code}:\n${out}`))
    )
  )
}

/** Starts `quire serve` on port 0 and resolves with its origin once the ready line is printed. */
function serve(): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src-main/cli/main.ts', 'serve', '--port', '0', '--data', data, '--token', OWNER_TOKEN],
    {
      cwd: root,
      env: { ...process.env, QUIRE_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  children.push(child)
  let out = ''
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; output:\n${out}`)), 120_000)
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const match = /Quire API listening on (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolvePromise(match[1]!)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)))
  })
}

/**
 * The client as a script would make it. Its `endpoint` is the server's origin: the client adds `/v1` itself. The
 * service binding is the client's own hook for the fetch it makes: it passes every request on unchanged and checks
 * each JSON answer against the published document, so an answer the client would mis-read fails here.
 */
function client(authToken: string): GitBookAPI {
  return new GitBookAPI({
    authToken,
    endpoint: origin,
    serviceBinding: {
      fetch: async (input, init) => {
        const request = new Request(input, init)
        const response = await fetch(request)
        const { pathname } = new URL(request.url)
        if (response.ok) recordExercised(request.method, pathname)
        if (response.headers.get('content-type')?.startsWith('application/json')) {
          checkAnswer(request.method, pathname, response.status, await response.clone().json())
        }
        return response
      }
    }
  })
}

/** The user a review was asked of (a request names a user or a team). */
const userOf = (r: ChangeRequestRequestedReviewer) => (r.kind === 'user' ? r.user.id : `team ${r.team.id}`)

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'quire-client-'))
  origin = await serve()
})

afterAll(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
  }
  rmSync(data, { recursive: true, force: true })
})

describe('the official client drives a real server', () => {
  it('lists organizations, creates a space, writes pages in a change request, has it reviewed and merged, reads it all back', async () => {
    const owner = client(OWNER_TOKEN)

    // A reviewer: a user and a token made with the CLI on the server's data folder (the server keeps running).
    await quire(['user', 'add', '--data', data, '--email', 'rita@example.com', '--name', 'Rita Reviewer', '--role', 'review'])
    const reviewer = client(await quire(['token', 'create', '--data', data, '--email', 'rita@example.com']))
    const { data: me } = await owner.user.getAuthenticatedUser()
    const { data: rita } = await reviewer.user.getAuthenticatedUser()
    expect(rita).toMatchObject({ object: 'user', displayName: 'Rita Reviewer', email: 'rita@example.com' })

    // Organizations: the one the server made on its first start, with both users as members.
    const { data: orgs } = await owner.orgs.listOrganizationsForAuthenticatedUser()
    expect(orgs.items).toHaveLength(1)
    const org = orgs.items[0]!
    expect(org).toMatchObject({ object: 'organization', title: 'My organization' })
    const { data: members } = await owner.orgs.listMembersInOrganizationById(org.id)
    expect(Object.fromEntries(members.items.map((m) => [m.user.id, m.role]))).toEqual({ [me.id]: 'admin', [rita.id]: 'review' })

    // A space whose merges need an approval.
    const created = await owner.orgs.createSpace(org.id, { title: 'Handbook' })
    expect(created.status).toBe(201)
    const space = created.data
    expect(space).toMatchObject({ object: 'space', title: 'Handbook', organization: org.id })
    const rules: MergeRulesSpaceConfiguration = { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] }
    const { data: ruled } = await owner.spaces.updateSpaceById(space.id, { mergeRules: rules })
    expect(ruled.mergeRules).toEqual(rules)

    // A change request, and pages written with the content batch (its `compat=false` answer names what it made).
    const { data: cr } = await owner.spaces.createChangeRequest(space.id, { subject: 'Getting started' })
    expect(cr).toMatchObject({ object: 'change-request', number: 1, status: 'draft', createdBy: { id: me.id } })
    const guideText = '# Guide\n\nStart here, then read [Install](install.md).\n'
    const installText = 'Run `quire serve`.\n\n- one\n- two\n'
    const { data: batch } = await owner.spaces.updateChangeRequestContent(
      space.id,
      cr.id,
      {
        changes: [
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: guideText } },
          { operation: 'insert_page', into: 'guide', title: 'Install', document: { markdown: installText } }
        ]
      },
      { compat: false }
    )
    if (!('changeRequest' in batch)) throw new Error('compat=false answers the change request with the pages it affected')
    expect(batch.changes.map((c) => [c.object, 'ref' in c ? c.ref : undefined])).toEqual([
      ['created_page', 'guide'],
      ['created_page', undefined]
    ])
    const [guideId, installId] = batch.changes.map((c) => (typeof c.page === 'string' ? c.page : c.page.id))
    // The default answer is the change request itself.
    const { data: edited } = await owner.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [{ operation: 'update_page', page: installId!, title: 'Install Quire' }]
    })
    expect(edited).toMatchObject({ object: 'change-request', id: cr.id })
    const head = (edited as { revision: string }).revision
    const { data: draftPage } = await owner.spaces.getPageInChangeRequestById(space.id, cr.id, installId!)
    expect(draftPage).toMatchObject({ title: 'Install Quire', markdown: installText })

    // Review: asked of Rita, who approves; the author may not approve their own, and nothing merges before.
    const { data: asked } = await owner.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [rita.id] })
    expect(asked.users?.map(userOf)).toEqual([rita.id])
    const { data: requested } = await owner.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)
    expect(requested.items.map(userOf)).toEqual([rita.id])
    const early = await owner.spaces.mergeChangeRequest(space.id, cr.id).catch((e: unknown) => e)
    expect(early).toBeInstanceOf(GitBookAPIError)
    expect(early).toMatchObject({ code: 403, errorMessage: expect.stringMatching(/^Merge rules not met/) })
    const selfApproval = await owner.spaces
      .submitChangeRequestReview(space.id, cr.id, { status: 'approved' as never })
      .catch((e: unknown) => e)
    expect(selfApproval).toMatchObject({ code: 403, errorMessage: 'status: the author of a change request cannot approve it' })
    const review = await reviewer.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' as never })
    expect(review.status).toBe(201)
    expect(review.data).toMatchObject({ status: 'approved', revision: head, reviewer: { id: rita.id }, outdated: false })
    const { data: reviews } = await owner.spaces.getReviewsByChangeRequestId(space.id, cr.id)
    expect(reviews.items.map((r) => [r.id, r.reviewer.id, r.status])).toEqual([[review.data.id, rita.id, 'approved']])

    // Merge, then the pages are the space's.
    const { data: merged } = await owner.spaces.mergeChangeRequest(space.id, cr.id)
    expect(merged.result).toBe('merge')
    expect((await owner.spaces.getChangeRequestById(space.id, cr.id)).data).toMatchObject({
      status: 'merged',
      revisionMerged: merged.revision
    })
    const { data: installPage } = await owner.spaces.getPageByPath(space.id, 'guide/install-quire')
    expect(installPage).toMatchObject({ id: installId, title: 'Install Quire', markdown: installText })
    const { data: guideModel } = await owner.spaces.getPageById(space.id, guideId!, { format: 'document' as never })
    expect(guideModel).toMatchObject({ id: guideId, title: 'Guide' })
    const document = (guideModel as { document?: { nodes: { type: string }[] } }).document
    expect(document?.nodes.map((n) => n.type)).toEqual(['heading-1', 'paragraph'])
    const { data: current } = await owner.spaces.getCurrentRevision(space.id)
    expect(current.id).toBe(merged.revision)

    // History (Quire's addition, which the client has no method for: its own low-level request): the merge is the
    // newest revision and names the change request; the client's revision read answers it with the pages.
    const { data: history } = await owner.request<{
      items: { id: string; type: string; changeRequest?: { id: string; number: number } }[]
    }>({
      path: `/spaces/${space.id}/revisions`,
      method: 'GET',
      secure: true,
      format: 'json'
    })
    expect(history.items[0]).toMatchObject({ id: merged.revision, type: 'merge', changeRequest: { id: cr.id, number: cr.number } })
    const { data: revision } = await owner.spaces.getRevisionById(space.id, merged.revision)
    expect(revision.pages.map((p) => p.title)).toContain('Guide')

    // The audit log has the review by Rita and the merge by the owner.
    const { data: events } = await owner.orgs.listOrganizationAuditEvents(org.id)
    const byAction = new Map(events.items.map((e) => [e.action, e]))
    expect(byAction.get('change_request_review.created')).toMatchObject({
      actor: { type: 'user', id: rita.id, label: 'Rita Reviewer' },
      target: { id: review.data.id }
    })
    expect(byAction.get('change_request.merged')).toMatchObject({
      actor: { type: 'user', id: me.id },
      target: { type: 'change_request', id: cr.id }
    })
    expect(events.items[0]!.action).toBe('change_request.merged')
    expect(byAction.get('change_request.reviewers_requested')).toMatchObject({ actor: { id: me.id } })
  })

  it('surfaces Quire’s error envelope as the client’s GitBookAPIError', async () => {
    const owner = client(OWNER_TOKEN)
    const missing = await owner.spaces.getSpaceById('no-such-space').catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(GitBookAPIError)
    expect(missing).toMatchObject({ code: 404, errorMessage: expect.stringMatching(/Space/) })
    const refused = await client('not-a-valid-token-at-all')
      .orgs.listOrganizationsForAuthenticatedUser()
      .catch((e: unknown) => e)
    expect(refused).toMatchObject({ code: 401 })
  })
})
