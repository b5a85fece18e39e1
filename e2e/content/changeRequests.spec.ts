import type { APIRequestContext, APIResponse } from '@playwright/test'
import { test, expect } from '../fixtures/server.ts'
import { ChangeRequestsPage } from '../pages/changeRequestsPage.ts'

// Arrange helpers: spaces, pages and change requests straight through the API (the flows under test are the
// review, merge and update screens, not how content gets written).
interface Cr {
  id: string
  number: number
  status: string
  outdated: boolean
}

async function json<T>(res: Promise<APIResponse>): Promise<T> {
  const answer = await res
  expect(answer.ok(), `${answer.url()} answered ${answer.status()}: ${await answer.text()}`).toBe(true)
  return (await answer.json()) as T
}

async function createSpace(api: APIRequestContext, title: string): Promise<string> {
  const orgId = (await json<{ items: { id: string }[] }>(api.get('/v1/orgs'))).items[0]!.id
  return (await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/spaces`, { data: { title, empty: true } }))).id
}

const crPath = (spaceId: string, cr: string | number, rest = '') => `/v1/spaces/${spaceId}/change-requests/${cr}${rest}`
const openCr = (api: APIRequestContext, spaceId: string, subject: string) =>
  json<Cr>(api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject } }))
const write = (api: APIRequestContext, spaceId: string, cr: Cr, changes: unknown[]) =>
  json<Cr>(api.post(crPath(spaceId, cr.id, '/content'), { data: { changes } }))
const getCr = (api: APIRequestContext, spaceId: string, ref: string | number) =>
  json<Cr & { subject: string }>(api.get(crPath(spaceId, ref)))
async function merge(api: APIRequestContext, spaceId: string, cr: Cr): Promise<void> {
  expect((await json<{ result: string }>(api.post(crPath(spaceId, cr.id, '/merge')))).result).toBe('merge')
}

/** Main content with these pages (written through a merged change request); their ids by title. */
async function seed(
  api: APIRequestContext,
  spaceId: string,
  pages: { title: string; markdown: string }[]
): Promise<Record<string, string>> {
  const cr = await openCr(api, spaceId, 'Seed')
  await write(
    api,
    spaceId,
    cr,
    pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } }))
  )
  await merge(api, spaceId, cr)
  const { pages: tree } = await json<{ pages: { id: string; title: string }[] }>(api.get(`/v1/spaces/${spaceId}/content/pages`))
  return Object.fromEntries(tree.map((p) => [p.title, p.id]))
}

const markdownOf = async (api: APIRequestContext, path: string) => (await json<{ markdown: string }>(api.get(path))).markdown
const LINES = 'line one\nline two\nline three\nline four\nline five\n'

test('review a change request’s diff and merge it into main', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  // Arrange: a page on main, and a draft change request that edits it and adds another.
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const subject = `Rewrite setup ${suffix}`
  const spaceId = await createSpace(api, `Handbook ${suffix}`)
  const { Setup: setupId } = await seed(api, spaceId, [{ title: 'Setup', markdown: '# Setup\n\nInstall the old way.\n\nThen run it.\n' }])
  const newSetup = '# Setup\n\nInstall with the new installer.\n\nThen run it.\n'
  const cr = await openCr(api, spaceId, subject)
  await write(api, spaceId, cr, [
    { operation: 'update_page', page: setupId, document: { markdown: newSetup } },
    { operation: 'insert_page', title: 'Troubleshooting', document: { markdown: '# Troubleshooting\n\nRestart the service.\n' } }
  ])
  const crs = new ChangeRequestsPage(page)

  // Act: find it on the space's Change requests tab, which opens on the user's drafts and the open ones. A new
  // change request is a draft, not yet open.
  await crs.openTab(token, spaceId)
  await expect(page.getByTestId('cr-status-filter').getByRole('radio', { name: 'Active' })).toBeChecked()
  await expect(crs.row(subject).getByTestId('cr-status')).toHaveText('Draft')
  await crs.filter('Open')
  await expect(page.getByTestId('cr-empty')).toContainText('No open change requests')
  await crs.filter('Draft')
  await expect(crs.row(subject).getByTestId('cr-status')).toHaveText('Draft')
  await page.getByTestId('cr-scope-filter').getByText('Mine', { exact: true }).click()
  await expect(crs.row(subject)).toBeVisible()
  await crs.filter('Active')
  await expect(crs.rows).toHaveCount(1)
  await crs.openChangeRequest(subject)

  // Assert: the changes, grouped, and the side-by-side diff of the edited page.
  await expect(page.getByTestId('cr-subject-title')).toHaveText(subject)
  await expect(crs.groupCount('added')).toHaveText('1')
  await expect(crs.groupCount('edited')).toHaveText('1')
  await crs.selectChange('Setup', 'page_edited')
  await expect(crs.changedLines('before').filter({ hasText: 'Install the old way.' })).toHaveCount(1)
  await expect(crs.changedLines('after').filter({ hasText: 'Install with the new installer.' })).toHaveCount(1)
  await expect(crs.changedLines('after').filter({ hasText: 'Then run it.' })).toHaveCount(0)
  await expect(crs.changeView.getByTestId('open-in-editor')).toHaveAttribute(
    'href',
    new RegExp(`/spaces/${spaceId}/change-requests/${cr.number}/pages/${setupId}$`)
  )
  await crs.selectChange('Troubleshooting', 'page_created')
  await expect(page.getByTestId('added-document')).toContainText('Restart the service.')
  await crs.selectChange('Setup', 'page_edited')

  // Act: merge.
  await crs.merge()
  await crs.expectSuccess(`Change request #${cr.number} merged into main`)
  await expect(crs.status).toHaveText('Merged')
  await expect(page.getByTestId('cr-merged-banner')).toBeVisible()
  await expect(page.getByTestId('cr-merge')).toHaveCount(0)

  // Assert through the API: main has the new text and the added page.
  expect(await markdownOf(api, `/v1/spaces/${spaceId}/content/page/${setupId}`)).toBe(newSetup)
  const { pages } = await json<{ pages: { title: string }[] }>(api.get(`/v1/spaces/${spaceId}/content/pages`))
  expect(pages.map((p) => p.title).sort()).toEqual(['Setup', 'Troubleshooting'])
  expect((await getCr(api, spaceId, cr.id)).status).toBe('merged')
  await crs.screenshot('change-request-merged', testInfo)
})

test('a merge waits when the change request changed after the screen showed it', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  // Arrange: a change request adding a page, open on its screen.
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const spaceId = await createSpace(api, `Reviewed ${suffix}`)
  await seed(api, spaceId, [{ title: 'Home', markdown: '# Home\n' }])
  const cr = await openCr(api, spaceId, `Add a guide ${suffix}`)
  await write(api, spaceId, cr, [{ operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n' } }])
  const crs = new ChangeRequestsPage(page)
  await crs.open(token, `/spaces/${spaceId}/change-requests/${cr.number}`)
  await expect(crs.changeRow('Guide', 'page_created')).toBeVisible()

  // Someone adds another page to it while the reviewer looks: merging what was not reviewed is refused.
  await write(api, spaceId, cr, [{ operation: 'insert_page', title: 'Unreviewed', document: { markdown: '# Unreviewed\n' } }])
  await crs.merge()
  await expect(page.getByTestId('toast-error')).toContainText('review it again before merging')
  expect((await getCr(api, spaceId, cr.id)).status).toBe('draft')

  // The screen has reloaded it: the new page shows, and merging now goes through.
  await expect(crs.changeRow('Unreviewed', 'page_created')).toBeVisible()
  await crs.merge()
  await crs.expectSuccess(`Change request #${cr.number} merged into main`)
  expect((await getCr(api, spaceId, cr.id)).status).toBe('merged')
})

test('a merge that conflicts with main shows both sides and merges nothing', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  // Arrange: two change requests edit the same line; the other one is merged first.
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const spaceId = await createSpace(api, `Notes ${suffix}`)
  const { Notes: notesId } = await seed(api, spaceId, [{ title: 'Notes', markdown: LINES }])
  const ours = LINES.replace('line two', 'line two, as the change request says')
  const theirs = LINES.replace('line two', 'line two, as main says')
  const cr = await openCr(api, spaceId, `Reword line two ${suffix}`)
  await write(api, spaceId, cr, [{ operation: 'update_page', page: notesId, document: { markdown: ours } }])
  const other = await openCr(api, spaceId, 'Main edit')
  await write(api, spaceId, other, [{ operation: 'update_page', page: notesId, document: { markdown: theirs } }])
  await merge(api, spaceId, other)
  const crs = new ChangeRequestsPage(page)

  // Act: open it by its address (the API's urls.app) and merge.
  await crs.open(token, `/spaces/${spaceId}/change-requests/${cr.number}`)
  await expect(crs.detail).toBeVisible()
  await expect(crs.changeRow('Notes', 'page_edited').getByTestId('change-conflict')).toBeVisible()
  await expect(crs.outdatedBanner).toContainText('1 page conflicts with main')
  await crs.merge()

  // Assert: the conflict banner, and main's text beside the change request's.
  await expect(crs.conflictBanner).toContainText('Merge stopped: 1 page conflicts with main')
  await expect(crs.conflictBanner).toContainText('Nothing was merged')
  await expect(page.getByTestId('conflict-view')).toBeVisible()
  await expect(page.getByTestId('conflict-advice')).toContainText('In Resolve conflicts, keep main’s lines, yours or both')
  await expect(crs.changedLines('before', 'conflict-diff').filter({ hasText: 'line two, as main says' })).toHaveCount(1)
  await expect(crs.changedLines('after', 'conflict-diff').filter({ hasText: 'line two, as the change request says' })).toHaveCount(1)
  await expect(crs.status).toHaveText('Draft')

  // The other view still shows what the change request itself changed.
  await page.getByTestId('change-view-toggle').getByText('Changes', { exact: true }).click()
  await expect(crs.changedLines('before').filter({ hasText: /^line two$/ })).toHaveCount(1)
  await page.getByTestId('change-view-toggle').getByText('Conflict with main', { exact: true }).click()
  await expect(page.getByTestId('conflict-view')).toBeVisible()

  // Assert through the API: nothing merged.
  expect(await markdownOf(api, `/v1/spaces/${spaceId}/content/page/${notesId}`)).toBe(theirs)
  expect(await markdownOf(api, crPath(spaceId, cr.id, `/content/page/${notesId}`))).toBe(ours)
  expect((await getCr(api, spaceId, cr.id)).status).toBe('draft')
  await page.getByTestId('conflict-diff').scrollIntoViewIfNeeded()
  await crs.screenshot('change-request-conflict', testInfo)
})

test('an outdated change request catches up with Update from main', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  // Arrange: a change request edits one page while another change request to a different page is merged.
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const subject = `Edit the intro ${suffix}`
  const spaceId = await createSpace(api, `Guide ${suffix}`)
  const ids = await seed(api, spaceId, [
    { title: 'Intro', markdown: LINES },
    { title: 'Reference', markdown: '# Reference\n\nOld reference.\n' }
  ])
  const cr = await openCr(api, spaceId, subject)
  await write(api, spaceId, cr, [
    { operation: 'update_page', page: ids.Intro, document: { markdown: LINES.replace('line one', 'line one, reworded') } }
  ])
  const other = await openCr(api, spaceId, 'Reference update')
  const newReference = '# Reference\n\nNew reference.\n'
  await write(api, spaceId, other, [{ operation: 'update_page', page: ids.Reference, document: { markdown: newReference } }])
  await merge(api, spaceId, other)
  const crs = new ChangeRequestsPage(page)

  // Act: the list marks it outdated; open it and update from main.
  await crs.openTab(token, spaceId)
  await crs.filter('Draft')
  await expect(crs.row(subject).getByTestId('cr-outdated')).toBeVisible()
  await crs.screenshot('change-request-list', testInfo)
  await crs.openChangeRequest(subject)
  await expect(crs.outdatedBanner).toBeVisible()
  await expect(crs.detail.getByTestId('cr-outdated')).toBeVisible()
  await crs.outdatedBanner.getByTestId('cr-outdated-update').click()

  // Assert: the banner and badge are gone, and the change request still shows only its own edit.
  await crs.expectSuccess(`Change request #${cr.number} is up to date with main`)
  await expect(crs.outdatedBanner).toHaveCount(0)
  await expect(crs.detail.getByTestId('cr-outdated')).toHaveCount(0)
  await expect(page.getByTestId('cr-update')).toBeDisabled()
  await expect(crs.changeRows).toHaveCount(1)
  await expect(crs.changeRow('Intro', 'page_edited')).toBeVisible()

  // Assert through the API: no longer outdated, and main's edit is in the change request's content.
  expect((await getCr(api, spaceId, cr.id)).outdated).toBe(false)
  expect(await markdownOf(api, crPath(spaceId, cr.id, `/content/page/${ids.Reference}`))).toBe(newReference)
  await crs.screenshot('change-request-updated', testInfo)
})

test('start a change request, rename it in place and move it along its statuses', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const subject = `Tidy the FAQ ${suffix}`
  const renamed = `Tidy and extend the FAQ ${suffix}`
  const spaceId = await createSpace(api, `FAQ ${suffix}`)
  const crs = new ChangeRequestsPage(page)
  await crs.openSpace(token, spaceId)
  await crs.clickTab()

  // Act: the dialog creates it and opens it.
  await page.getByTestId('new-cr').click()
  await page.getByTestId('cr-subject-input').fill(subject)
  await page.getByTestId('cr-dialog-submit').click()
  await crs.expectDialogsClosed()
  await crs.expectSuccess('Change request #1 started')
  await expect(page.getByTestId('cr-subject-title')).toHaveText(subject)
  await expect(crs.status).toHaveText('Draft')
  await expect(page.getByTestId('changes-empty')).toBeVisible()

  // The subject edits in place: Esc cancels, a refused subject is explained by the field, Enter saves.
  await page.getByTestId('cr-subject-edit-button').click()
  await page.getByTestId('cr-subject-edit').fill('Not this')
  await page.getByTestId('cr-subject-edit').press('Escape')
  await expect(page.getByTestId('cr-subject-title')).toHaveText(subject)
  await page.getByTestId('cr-subject-edit-button').click()
  await page.getByTestId('cr-subject-edit').fill('x'.repeat(101))
  await page.getByTestId('cr-subject-edit').press('Enter')
  await expect(page.getByText('Must be at most 100 characters')).toBeVisible()
  await page.getByTestId('cr-subject-edit').fill(renamed)
  await page.getByTestId('cr-subject-edit').press('Enter')
  await crs.expectSuccess('Subject saved')
  await expect(page.getByTestId('cr-subject-title')).toHaveText(renamed)

  // Status moves: ready for review, archive (no merge while archived), reopen.
  await page.getByTestId('cr-move-ready').click()
  await expect(crs.status).toHaveText('Open')
  await page.getByTestId('cr-move-archive').click()
  await expect(crs.status).toHaveText('Archived')
  await expect(page.getByTestId('cr-archived-banner')).toBeVisible()
  await expect(page.getByTestId('cr-merge')).toHaveCount(0)
  await page.getByTestId('cr-move-reopen').click()
  await expect(crs.status).toHaveText('Open')
  await expect(page.getByTestId('cr-move-draft')).toBeVisible()

  // Assert through the API, then in the list (Active, the default filter, shows the open ones).
  expect(await getCr(api, spaceId, 1)).toMatchObject({ status: 'open', subject: renamed })
  await page.getByTestId('back-to-list').click()
  await expect(crs.row(renamed).getByTestId('cr-status')).toHaveText('Open')
  await crs.screenshot('change-request-list-open', testInfo)
})

test('one page moved among its siblings is listed once as moved', async ({ page, token, api }, testInfo) => {
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const subject = `Reorder ${suffix}`
  const spaceId = await createSpace(api, `Ordered ${suffix}`)
  const ids = await seed(
    api,
    spaceId,
    ['Alpha', 'Beta', 'Gamma', 'Delta'].map((title) => ({ title, markdown: `# ${title}\n` }))
  )
  const cr = await openCr(api, spaceId, subject)
  // Gamma to the top: Alpha, Beta and Delta shift but keep their order.
  await write(api, spaceId, cr, [{ operation: 'update_page', page: ids.Gamma, at: 0 }])
  const crs = new ChangeRequestsPage(page)

  await crs.openTab(token, spaceId)
  await crs.openChangeRequest(subject)

  await expect(crs.changeRows).toHaveCount(1)
  await expect(crs.changeRow('Gamma', 'page_moved')).toBeVisible()
  await expect(crs.groupCount('moved')).toHaveText('1')
})
