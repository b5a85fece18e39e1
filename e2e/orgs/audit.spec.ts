import { readFile } from 'node:fs/promises'
import { test, expect } from '../fixtures/server.ts'
import { json, orgIdOf } from '../content/seed.ts'
import { AuditPage } from '../pages/auditPage.ts'

test('writes show in the audit log: filtered by target, action and day, an event’s before and after, exported as CSV', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  // Arrange: a space created, renamed and moved into a new collection (other tests of the worker write too).
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const orgId = await orgIdOf(api)
  const space = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/spaces`, { data: { title: `Guides ${suffix}` } }))
  await json(api.patch(`/v1/spaces/${space.id}`, { data: { title: `Handbook ${suffix}` } }))
  const collection = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/collections`, { data: { title: `Archive ${suffix}` } }))
  await json(api.post(`/v1/spaces/${space.id}/move`, { data: { parent: collection.id } }))

  // Act: Settings → Audit log; the newest events lead the list.
  const audit = new AuditPage(page)
  await audit.openFromSettings(orgId, token)
  await expect(audit.rows.first()).toHaveAttribute('data-action', 'space.moved')
  await expect(audit.rows.first()).toContainText(`Handbook ${suffix}`)
  await audit.screenshots('audit-log', testInfo)

  // Filter by the space's id: its three events, newest first.
  await audit.targetFilter.fill(space.id)
  await audit.expectCount(3)
  await expect(audit.rows).toHaveCount(3)
  expect(await audit.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')))).toEqual([
    'space.moved',
    'space.updated',
    'space.created'
  ])
  await expect(page).toHaveURL(new RegExp(`target=${space.id}`))

  // The rename's drawer shows the title before and after.
  await audit.row('space.updated').click()
  await expect(audit.detail).toBeVisible()
  const changes = page.getByTestId('audit-changes')
  await expect(changes.getByRole('row', { name: `title Guides ${suffix} Handbook ${suffix}` })).toBeVisible()
  await expect(audit.detail).toContainText(space.id)
  await audit.screenshots('audit-event', testInfo)
  await page.keyboard.press('Escape')
  await audit.expectDialogsClosed()

  // Also by action: only the creation.
  await audit.choose(audit.actionFilter, 'Space created')
  await audit.expectCount(1)
  await expect(audit.rows).toHaveCount(1)
  await expect(audit.row('space.created')).toBeVisible()

  // Export CSV: what the filters select, every page.
  const download = page.waitForEvent('download')
  await audit.exportButton.click()
  const saved = await download
  expect(saved.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/)
  const lines = (await readFile((await saved.path())!, 'utf8')).trimEnd().split('\r\n')
  expect(lines[0]).toBe('occurredAt,action,actorType,actorId,actor,source,targetType,targetId,target')
  expect(lines).toHaveLength(2)
  expect(lines[1]).toContain(`,space.created,user,`)
  expect(lines[1]).toContain(`,space,${space.id},Guides ${suffix}`)
  await audit.expectSuccess('Exported 1 event')

  // A day range after today selects nothing.
  const tomorrow = new Date(Date.now() + 86_400_000)
  const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`
  await audit.fromDay.fill(day)
  await audit.expectCount(0)
  await expect(page.getByText('No events match')).toBeVisible()
  await expect(audit.exportButton).toBeDisabled()
})

test('the audit log tab is for organization admins only', async ({ page, api, otherUser }, testInfo) => {
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const orgId = await orgIdOf(api)
  const editor = otherUser(`Editor ${suffix}`)
  expect((await api.post(`/v1/orgs/${orgId}/invites`, { data: { emails: [editor.email], role: 'edit' } })).ok()).toBe(true)
  const audit = new AuditPage(page)
  await audit.open(editor.token, `/orgs/${orgId}/settings`)
  await expect(page.getByTestId('tab-sso')).toBeVisible()
  await expect(page.getByTestId('tab-audit')).toHaveCount(0)
})
