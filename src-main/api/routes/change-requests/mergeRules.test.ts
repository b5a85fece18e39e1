import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer, type TestUser } from '../../../testing/harness'

let t: TestServer
let spaceId: string
let author: TestUser
let reviewer: TestUser
let second: TestUser
beforeEach(async () => {
  t = await startTestServer()
  spaceId = await t.emptySpace()
  author = await t.user({ role: 'edit', name: 'Ann Author' })
  reviewer = await t.user({ role: 'review', name: 'Rita Reviewer' })
  second = await t.user({ role: 'review', name: 'Sam Second' })
})
afterEach(() => t.close())

const crPath = (cr: string, rest = '') => `/v1/spaces/${spaceId}/change-requests/${cr}${rest}`
async function openCr(subject = 'Edit', api = author.api) {
  const cr = (await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject })).body
  const edit = await api.post(crPath(cr.id, '/content'), {
    changes: [{ operation: 'insert_page', title: `Page ${cr.number}`, document: { markdown: 'text' } }]
  })
  expect(edit.status).toBe(200)
  return edit.body as { id: string; revision: string }
}
const review = (cr: string, status: string, who = reviewer) => who.api.post(crPath(cr, '/reviews'), { status })
const merge = (cr: string, who = t.owner, body?: unknown) => who.api.post(crPath(cr, '/merge'), body)
const rules = (...list: unknown[]) => t.owner.api.patch(`/v1/spaces/${spaceId}`, { mergeRules: { type: 'rules', rules: list } })

/** The merge is refused (403) naming the unmet rule, and nothing is merged. */
async function expectBlocked(cr: string, message: string, who = t.owner) {
  const res = await merge(cr, who)
  expect(res.status).toBe(403)
  expect(res.body.error.message).toBe(`Merge rules not met: ${message}`)
  expect((await t.owner.api.get(crPath(cr))).body.status).toBe('draft')
}
async function expectMerged(cr: string, who = t.owner) {
  const res = await merge(cr, who)
  expect(res.status).toBe(200)
  expect(res.body.result).toBe('merge')
}

describe('merge rules configuration', () => {
  it('answers inherit on spaces and none on organizations until set, and is set by an admin', async () => {
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.mergeRules).toEqual({ type: 'inherit' })
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}`)).body.mergeRules).toEqual({ type: 'none' })
    const orgRules = {
      type: 'rules',
      rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'allow_bypass', users: [t.owner.user.id] }]
    }
    const org = await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { mergeRules: orgRules })
    expect(org.status).toBe(200)
    expect(org.body.mergeRules).toEqual(orgRules)
    expect((await t.owner.api.get(`/v1/orgs/${t.orgId}`)).body.mergeRules).toEqual(orgRules)
    const space = await t.owner.api.patch(`/v1/spaces/${spaceId}`, { mergeRules: { type: 'none' } })
    expect(space.body.mergeRules).toEqual({ type: 'none' })
    expect((await t.owner.api.patch(`/v1/spaces/${spaceId}`, { mergeRules: { type: 'inherit' } })).body.mergeRules).toEqual({
      type: 'inherit'
    })
  })

  it('validates rules and needs the admin role', async () => {
    const outsider = await t.user({ role: 'none' })
    const cases: [unknown, string][] = [
      [
        { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [outsider.user.id] }] },
        `mergeRules.rules.0.users.0: ${outsider.user.id} is not a member of the organization`
      ],
      [
        { type: 'rules', rules: [{ rule: 'require_one_of_specific_reviewers', users: [] }] },
        'mergeRules.rules.0.users: name at least one reviewer'
      ]
    ]
    for (const [mergeRules, message] of cases) {
      const res = await t.owner.api.patch(`/v1/spaces/${spaceId}`, { mergeRules })
      expect(res.status).toBe(400)
      expect(res.body.error.message).toBe(message)
    }
    expect((await t.owner.api.patch(`/v1/spaces/${spaceId}`, { mergeRules: { type: 'sometimes' } })).status).toBe(400)
    expect((await t.owner.api.patch(`/v1/orgs/${t.orgId}`, { mergeRules: { type: 'inherit' } })).status).toBe(400)
    expect((await t.owner.api.patch(`/v1/spaces/${spaceId}`, { mergeRules: { type: 'rules', rules: [{ rule: 'custom' }] } })).status).toBe(
      400
    )
    expect((await reviewer.api.patch(`/v1/spaces/${spaceId}`, { mergeRules: { type: 'none' } })).status).toBe(403)
    expect((await reviewer.api.patch(`/v1/orgs/${t.orgId}`, { mergeRules: { type: 'none' } })).status).toBe(403)
    expect((await t.owner.api.get(`/v1/spaces/${spaceId}`)).body.mergeRules).toEqual({ type: 'inherit' })
  })
})

describe('merge rules on merge', () => {
  it('require_at_least_one_review', async () => {
    await rules({ rule: 'require_at_least_one_review' })
    const cr = await openCr()
    await expectBlocked(cr.id, 'At least one review is required')
    await review(cr.id, 'changes-requested')
    await expectMerged(cr.id)
  })

  it('require_at_least_one_approved_review, where outdated approvals do not count', async () => {
    await rules({ rule: 'require_at_least_one_approved_review' })
    const cr = await openCr()
    await review(cr.id, 'changes-requested')
    await expectBlocked(cr.id, 'At least one approving review is required')
    await review(cr.id, 'approved')
    await author.api.post(crPath(cr.id, '/content'), {
      changes: [{ operation: 'insert_page', title: 'Later', document: { markdown: 'x' } }]
    })
    await expectBlocked(cr.id, 'At least one approving review is required')
    await review(cr.id, 'approved')
    await expectMerged(cr.id)
  })

  it('require_all_reviews_approved', async () => {
    await rules({ rule: 'require_all_reviews_approved' })
    const cr = await openCr()
    await expectBlocked(cr.id, 'Every review must approve: there is no review yet')
    await author.api.post(crPath(cr.id, '/requested-reviewers'), { users: [reviewer.user.id, second.user.id] })
    await review(cr.id, 'approved')
    await expectBlocked(cr.id, 'Every review must approve: 1 requested review is still pending')
    await review(cr.id, 'changes-requested', second)
    await expectBlocked(cr.id, 'Every review must approve: 1 review requests changes')
    await review(cr.id, 'approved', second)
    await expectMerged(cr.id)
  })

  it('require_specific_reviewers and require_one_of_specific_reviewers', async () => {
    await rules({ rule: 'require_specific_reviewers', users: [reviewer.user.id, second.user.id] })
    const cr = await openCr()
    await review(cr.id, 'approved')
    await expectBlocked(cr.id, 'Approval required from Sam Second')
    await review(cr.id, 'approved', second)
    await expectMerged(cr.id)

    await rules({ rule: 'require_one_of_specific_reviewers', users: [reviewer.user.id, second.user.id] })
    const next = await openCr('Next')
    await expectBlocked(next.id, 'Approval required from one of Rita Reviewer, Sam Second')
    await review(next.id, 'approved', second)
    await expectMerged(next.id)
  })

  it('require_up_to_date_change_request', async () => {
    await rules({ rule: 'require_up_to_date_change_request' })
    const cr = await openCr()
    const other = await openCr('Other')
    await expectMerged(other.id)
    await expectBlocked(cr.id, 'The change request must be up to date with the main content: update it first')
    expect((await author.api.post(crPath(cr.id, '/update'))).body.result).toBe('update')
    await expectMerged(cr.id)
  })

  it('require_change_request_subject and require_author_to_merge', async () => {
    await rules({ rule: 'require_change_request_subject' }, { rule: 'require_author_to_merge' })
    const cr = await openCr('')
    await expectBlocked(cr.id, 'The change request needs a subject; Only the author of the change request may merge it')
    await author.api.patch(crPath(cr.id), { subject: 'Now named' })
    await expectBlocked(cr.id, 'Only the author of the change request may merge it')
    await expectMerged(cr.id, author)
  })

  it('inherits the organization rules unless the space has its own', async () => {
    await t.owner.api.patch(`/v1/orgs/${t.orgId}`, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] }
    })
    const cr = await openCr()
    await expectBlocked(cr.id, 'At least one approving review is required')
    await t.owner.api.patch(`/v1/spaces/${spaceId}`, { mergeRules: { type: 'none' } })
    await expectMerged(cr.id)
  })

  it('lets the users allow_bypass names merge past unmet rules, and records it', async () => {
    await rules({ rule: 'require_at_least_one_approved_review' }, { rule: 'allow_bypass', users: [t.owner.user.id] })
    const cr = await openCr()
    const status = await author.api.get(crPath(cr.id, '/merge-rules'))
    expect(status.body).toEqual({
      source: 'space',
      rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'allow_bypass', users: [t.owner.user.id] }],
      unmet: [{ rule: 'require_at_least_one_approved_review', message: 'At least one approving review is required' }],
      canBypass: false
    })
    expect((await t.owner.api.get(crPath(cr.id, '/merge-rules'))).body.canBypass).toBe(true)
    const refused = await merge(cr.id, author, { bypassMergeRules: true })
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toBe('bypassMergeRules: you are not allowed to bypass the merge rules (allow_bypass)')
    await expectBlocked(cr.id, 'At least one approving review is required')
    const bypassed = await merge(cr.id, t.owner, { bypassMergeRules: true })
    expect(bypassed.status).toBe(200)
    const row = t.server.api.services.db
      .prepare('SELECT merge_bypassed_by, merge_bypassed_rules FROM change_requests WHERE id = ?')
      .get(cr.id)
    expect(row).toEqual({
      merge_bypassed_by: t.owner.user.id,
      merge_bypassed_rules: JSON.stringify(['At least one approving review is required'])
    })
  })

  it('merges without rules as before, and a bypass flag with nothing to bypass is not recorded', async () => {
    const cr = await openCr()
    expect((await author.api.get(crPath(cr.id, '/merge-rules'))).body).toEqual({
      source: 'organization',
      rules: [],
      unmet: [],
      canBypass: false
    })
    expect((await merge(cr.id, t.owner, { bypassMergeRules: true })).status).toBe(200)
    const row = t.server.api.services.db.prepare('SELECT merge_bypassed_by FROM change_requests WHERE id = ?').get(cr.id)
    expect(row).toEqual({ merge_bypassed_by: null })
  })
})
