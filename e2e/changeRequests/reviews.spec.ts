import type { APIRequestContext } from '@playwright/test'
import { test, expect } from '../fixtures/server.ts'
import { ChangeRequestsPage } from '../pages/changeRequestsPage.ts'
import { SpaceSettingsPage } from '../pages/spaceSettingsPage.ts'
import { json, orgIdOf, spaceWithPages } from '../content/seed.ts'

const crPath = (spaceId: string, cr: string | number, rest = '') => `/v1/spaces/${spaceId}/change-requests/${cr}${rest}`

/** A space with one page and a change request (by the owner) editing it; a member with the review role. */
async function arrange(
  api: APIRequestContext,
  otherUser: (name: string) => { token: string; email: string },
  suffix: string,
  rules: (reviewerId: string, ownerId: string) => unknown[]
) {
  const orgId = await orgIdOf(api)
  const reviewer = otherUser(`Rita ${suffix}`)
  expect((await api.post(`/v1/orgs/${orgId}/invites`, { data: { emails: [reviewer.email], role: 'review' } })).ok()).toBe(true)
  const reviewerId = (
    await json<{ items: { id: string }[] }>(api.get(`/v1/orgs/${orgId}/members?search=${encodeURIComponent(reviewer.email)}`))
  ).items[0]!.id
  const ownerId = (await json<{ id: string }>(api.get('/v1/user'))).id
  const { spaceId, pages } = await spaceWithPages(api, `Reviews ${suffix}`, ['Guide'])
  await json(api.patch(`/v1/spaces/${spaceId}`, { data: { mergeRules: { type: 'rules', rules: rules(reviewerId, ownerId) } } }))
  const cr = await json<{ id: string; number: number }>(
    api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject: `Reword ${suffix}` } })
  )
  await json(
    api.post(crPath(spaceId, cr.id, '/content'), {
      data: { changes: [{ operation: 'update_page', page: pages[0]!.id, document: { markdown: '# Guide\n\nReworded.\n' } }] }
    })
  )
  return { spaceId, cr, reviewer, reviewerId }
}

test('a reviewer asked for a review approves, and the merge the rule held back goes through', async ({
  page,
  token,
  api,
  otherUser
}, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, cr, reviewer } = await arrange(api, otherUser, suffix, () => [{ rule: 'require_at_least_one_approved_review' }])
  const crs = new ChangeRequestsPage(page)

  // The author asks Rita; the merge is held back with the reason.
  await crs.open(token, `/spaces/${spaceId}/change-requests/${cr.number}`)
  await expect(crs.detail).toBeVisible()
  await crs.askReviewer(`Rita ${suffix}`)
  await expect(crs.mergeBlockers).toContainText('At least one approving review is required')
  await expect(crs.mergeButton).toHaveAttribute('aria-disabled', 'true')
  await expect(crs.reviewPanel.getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-disabled', 'true')

  // Rita approves (with a comment) and merges.
  await crs.open(reviewer.token, `/spaces/${spaceId}/change-requests/${cr.number}`)
  await expect(crs.reviewPanel.getByTestId('requested-reviewer')).toHaveText(`Rita ${suffix}`)
  await crs.approve('Reads well')
  await expect(crs.reviewPanel.getByTestId('approvals')).toContainText(`Rita ${suffix}`)
  await expect(crs.reviewPanel.getByTestId('requested-reviewers')).toContainText('Nobody yet')
  await expect(crs.reviewPanel.getByTestId('review-comment')).toHaveCount(1)
  await expect(crs.reviewPanel.getByTestId('review-comment')).toContainText(`Rita ${suffix}`)
  await expect(crs.reviewPanel.getByTestId('review-comment-body')).toHaveText('Reads well')
  await expect(crs.mergeBlockers).toHaveCount(0)
  await expect(crs.reviewPanel.getByTestId('merge-rules-met')).toBeVisible()
  await crs.reviewPanel.scrollIntoViewIfNeeded()
  await crs.screenshots('review-panel-approved', testInfo)
  await crs.merge()
  await crs.expectSuccess(`Change request #${cr.number} merged into main`)

  const merged = await json<{ status: string }>(api.get(crPath(spaceId, cr.id)))
  expect(merged.status).toBe('merged')
  const reviews = await json<{ items: { status: string; reviewer: { displayName: string }; comment?: { body: { markdown?: string } } }[] }>(
    api.get(crPath(spaceId, cr.id, '/reviews'))
  )
  expect(reviews.items.map((r) => [r.status, r.reviewer.displayName, r.comment?.body.markdown])).toEqual([
    ['approved', `Rita ${suffix}`, 'Reads well']
  ])
})

test('a merge blocked by a rule says why; the admin the rules let bypass merges anyway', async ({
  page,
  token,
  api,
  otherUser
}, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, cr } = await arrange(api, otherUser, suffix, (reviewerId) => [
    { rule: 'require_specific_reviewers', users: [reviewerId] }
  ])
  const crs = new ChangeRequestsPage(page)

  await crs.open(token, `/spaces/${spaceId}/change-requests/${cr.number}`)
  await expect(crs.mergeBlockers).toContainText(`Approval required from Rita ${suffix}`)
  await expect(crs.mergeButton).toHaveAttribute('aria-disabled', 'true')
  await crs.mergeButton.hover()
  await expect(page.getByRole('tooltip')).toHaveText(`Blocked by the merge rules: Approval required from Rita ${suffix}`)
  await page.mouse.move(0, 0)
  await crs.reviewPanel.scrollIntoViewIfNeeded()
  await crs.screenshots('review-panel-blocked', testInfo)
  expect((await json<{ status: string }>(api.get(crPath(spaceId, cr.id)))).status).toBe('draft')

  // The rules now let the owner bypass them: "Merge anyway".
  const ownerId = (await json<{ id: string }>(api.get('/v1/user'))).id
  const rules = await json<{ mergeRules: { rules: unknown[] } }>(api.get(`/v1/spaces/${spaceId}`))
  await json(
    api.patch(`/v1/spaces/${spaceId}`, {
      data: { mergeRules: { type: 'rules', rules: [...rules.mergeRules.rules, { rule: 'allow_bypass', users: [ownerId] }] } }
    })
  )
  await page.reload()
  await expect(crs.mergeButton).toHaveText('Merge anyway')
  await expect(crs.mergeBlockers).toContainText('You may merge anyway')
  await crs.merge()
  await crs.expectSuccess(`Change request #${cr.number} merged into main`)
  expect((await json<{ status: string }>(api.get(crPath(spaceId, cr.id)))).status).toBe('merged')
})

test("an admin sets a space's merge rules in its settings, over the organization's", async ({ page, token, api }, testInfo) => {
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Rules ${suffix}`, ['Guide'])
  const settings = new SpaceSettingsPage(page)
  await settings.openFor(token, spaceId)
  await expect(settings.mergeRules.getByRole('radio', { name: 'The organization’s rules' })).toBeChecked()
  await settings.mergeRules.getByRole('radio', { name: 'These rules' }).check()
  await settings.mergeRules.getByRole('checkbox', { name: 'At least one approving review' }).check()
  await settings.mergeRules.getByRole('checkbox', { name: 'Up to date with main' }).check()
  await settings.mergeRules.getByTestId('merge-rules-save').click()
  await settings.expectSuccess('Merge rules saved')
  const space = await json<{ mergeRules: unknown }>(api.get(`/v1/spaces/${spaceId}`))
  expect(space.mergeRules).toEqual({
    type: 'rules',
    rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'require_up_to_date_change_request' }]
  })
  await page.reload()
  await expect(settings.mergeRules.getByRole('checkbox', { name: 'Up to date with main' })).toBeChecked()
})
