import { test, expect } from '../fixtures/server.ts'
import { EditorPage } from '../pages/editorPage.ts'
import { SpaceSettingsPage } from '../pages/spaceSettingsPage.ts'
import { SpacesPage } from '../pages/spacesPage.ts'
import { json, orgIdOf, spaceWithPages } from './seed.ts'

type Space = { id: string; organization: string; editMode?: string; visibility: string; defaultLevel: string | null }

test('lock a space and see an edit refused with the reason, then unlock it where the edit was refused', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, pages } = await spaceWithPages(api, `Locked ${suffix}`, ['Overview'])
  const settings = new SpaceSettingsPage(page)
  await settings.openFor(token, spaceId)

  // The switch shows the space as the API answers it: checked once the lock is saved.
  await settings.lockSwitch.click()
  await settings.expectSuccess('Space locked')
  await expect(settings.lockSwitch).toBeChecked()
  await expect.poll(async () => (await json<Space>(api.get(`/v1/spaces/${spaceId}`))).editMode).toBe('locked')
  // Audience: visibility and general access, saved together.
  await settings.choose(page.getByTestId('visibility-select'), 'Unlisted — Anyone with the address, not indexed')
  await settings.choose(page.getByTestId('default-level-select'), 'Commenter')
  await page.getByTestId('audience-save').click()
  await settings.expectSuccess('Settings saved')
  expect(await json<Space>(api.get(`/v1/spaces/${spaceId}`))).toMatchObject({ visibility: 'unlisted', defaultLevel: 'comment' })
  await settings.screenshots('space-settings', testInfo)

  // The editor says why the page cannot change, and offers the admin Unlock there.
  const editor = new EditorPage(page)
  await editor.open(token, `/spaces/${spaceId}/pages/${pages[0]!.id}`)
  await editor.waitUntilReady()
  await expect(editor.readOnlyBanner).toContainText('This space is locked')
  await editor.screenshots('space-locked-editor', testInfo)
  // A change request's actions give the API's reason too.
  const cr = await api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject: 'Refused' } })
  expect(cr.status()).toBe(403)
  expect(((await cr.json()) as { error: { message: string } }).error.message).toContain('The space is locked')

  await editor.readOnlyBanner.getByTestId('unlock-space').click()
  await editor.expectSuccess('Space unlocked')
  await expect(editor.readOnlyBanner).toHaveCount(0)
  await expect.poll(async () => (await json<Space>(api.get(`/v1/spaces/${spaceId}`))).editMode).toBe('live')
})

test('a locked space’s change request shows the reason its actions are gone, and unlocks', async ({ page, token, api }, testInfo) => {
  test.setTimeout(60_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await spaceWithPages(api, `Locked CR ${suffix}`, ['Overview'])
  await json<{ number: number }>(api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject: 'Waiting' } }))
  await json(api.patch(`/v1/spaces/${spaceId}`, { data: { editMode: 'locked' } }))
  const settings = new SpaceSettingsPage(page)
  const notice = page.getByTestId('locked-notice')
  await settings.open(token, `/spaces/${spaceId}/change-requests`)
  await settings.waitUntilReady()
  await expect(notice).toContainText('No change request can be opened, edited or merged until then.')
  await expect(page.getByTestId('new-cr')).toHaveCount(0)
  await page.getByText('Waiting').click()
  await expect(notice).toContainText('The space is locked: an admin must unlock it before its content can change')
  await expect(page.getByTestId('cr-merge')).toHaveAttribute('aria-disabled', 'true')
  await notice.getByTestId('unlock-space').click()
  await settings.expectSuccess('Space unlocked')
  await expect(notice).toHaveCount(0)
  await expect(page.getByTestId('cr-merge')).not.toHaveAttribute('aria-disabled', 'true')
})

test('set a custom field value of each type and find them kept after a reload; a value the API refuses is explained by its field', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`.toLowerCase()
  const orgId = await orgIdOf(api)
  const field = (name: string, type: string, title: string, options?: string[]) =>
    json(
      api.post(`/v1/orgs/${orgId}/custom-fields`, {
        data: { name: `${name}-${suffix}`, type, title: `${title} ${suffix}`, ...(options ? { options } : {}) }
      })
    )
  await field('owner', 'text', 'Owner')
  await field('budget', 'number', 'Budget')
  await field('public', 'boolean', 'Public')
  await field('tier', 'select', 'Tier', ['gold', 'silver'])
  await field('areas', 'multi-select', 'Areas', ['api', 'ui', 'docs'])
  const { spaceId } = await spaceWithPages(api, `Fields ${suffix}`, ['Overview'])

  const settings = new SpaceSettingsPage(page)
  await settings.openFor(token, spaceId)
  const fields = settings.customFields
  // A number the API would refuse is said under its field before anything is sent.
  await fields.getByRole('textbox', { name: `Budget ${suffix}` }).fill('twelve')
  await page.getByTestId('custom-fields-save').click()
  await expect(fields.getByText('Must be a number')).toBeVisible()
  expect(await json<unknown[]>(api.get(`/v1/spaces/${spaceId}/custom-fields`))).toEqual([])

  await fields.getByRole('textbox', { name: `Owner ${suffix}` }).fill('Ana')
  await fields.getByRole('textbox', { name: `Budget ${suffix}` }).fill('12.5')
  await fields
    .getByRole('radiogroup', { name: `Public ${suffix}` })
    .getByRole('radio', { name: 'Yes' })
    .check()
  await settings.choose(fields.getByRole('combobox', { name: `Tier ${suffix}` }), 'silver')
  const areas = fields.getByRole('group', { name: `Areas ${suffix}` })
  await areas.getByRole('checkbox', { name: 'api' }).check()
  await areas.getByRole('checkbox', { name: 'docs' }).check()
  await settings.saveCustomFields()

  const stored = await json<{ customField: { name: string }; value: unknown }[]>(api.get(`/v1/spaces/${spaceId}/custom-fields`))
  expect(Object.fromEntries(stored.map((v) => [v.customField.name.replace(`-${suffix}`, ''), v.value]))).toEqual({
    owner: 'Ana',
    budget: 12.5,
    public: true,
    tier: 'silver',
    areas: ['api', 'docs']
  })

  await page.reload()
  await settings.waitUntilReady()
  await expect(fields.getByRole('textbox', { name: `Owner ${suffix}` })).toHaveValue('Ana')
  await expect(fields.getByRole('textbox', { name: `Budget ${suffix}` })).toHaveValue('12.5')
  await expect(fields.getByRole('radiogroup', { name: `Public ${suffix}` }).getByRole('radio', { name: 'Yes' })).toBeChecked()
  await expect(fields.getByRole('combobox', { name: `Tier ${suffix}` })).toHaveValue('silver')
  await expect(areas.getByRole('checkbox', { name: 'api' })).toBeChecked()
  await expect(areas.getByRole('checkbox', { name: 'ui' })).not.toBeChecked()
  await expect(areas.getByRole('checkbox', { name: 'docs' })).toBeChecked()

  // An option removed meanwhile (by another admin): the API's 400 lands under the field.
  await json(api.patch(`/v1/orgs/${orgId}/custom-fields/tier-${suffix}`, { data: { options: ['gold', 'silver', 'bronze'] } }))
  await page.reload()
  await settings.waitUntilReady()
  await settings.choose(fields.getByRole('combobox', { name: `Tier ${suffix}` }), 'bronze')
  await json(api.patch(`/v1/orgs/${orgId}/custom-fields/tier-${suffix}`, { data: { options: ['gold', 'silver'] } }))
  await page.getByTestId('custom-fields-save').click()
  await expect(fields.getByText('Must be one of: gold, silver')).toBeVisible()
  await settings.screenshots('space-settings-custom-fields', testInfo)
})

test('transfer a space to a second organization, seeing what moves first, and find it there', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const target = await json<{ id: string; title: string }>(api.post('/v1/orgs', { data: { title: `Second org ${suffix}` } }))
  const title = `Travelling ${suffix}`
  const { spaceId } = await spaceWithPages(api, title, ['Overview'])
  const settings = new SpaceSettingsPage(page)
  await settings.openFor(token, spaceId)

  await settings.transferTo(target.title)
  const consequences = page.getByTestId('transfer-consequences')
  await expect(consequences).toContainText('with its pages, files, change requests, comments and history')
  await expect(consequences).toContainText('The custom field values of the space')
  await expect(consequences).toContainText('the site links are not removed')
  await settings.screenshots('space-transfer-dialog', testInfo)
  await page.getByTestId('confirm-transfer').click()
  await settings.expectSuccess(`“${title}” is now in ${target.title}`)
  await settings.expectDialogsClosed()
  // The app opens the space again, now in its new organization.
  await expect(page).toHaveURL(new RegExp(`#/spaces/${spaceId}(/|$)`))
  await expect(settings.currentOrg).toContainText(target.title)
  expect((await json<Space>(api.get(`/v1/spaces/${spaceId}`))).organization).toBe(target.id)

  // The space is in the tree of its new organization.
  const spaces = new SpacesPage(page)
  await spaces.navigate('spaces')
  await spaces.waitUntilReady()
  await expect(await spaces.reveal(title)).toBeVisible()
})

test('a collection’s general access, and its transfer with its spaces from the collection screen', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const orgId = await orgIdOf(api)
  const target = await json<{ id: string; title: string }>(api.post('/v1/orgs', { data: { title: `Receiving org ${suffix}` } }))
  const collection = await json<{ id: string; title: string }>(
    api.post(`/v1/orgs/${orgId}/collections`, { data: { title: `Shelf ${suffix}` } })
  )
  const inside = await json<{ id: string }>(
    api.post(`/v1/orgs/${orgId}/spaces`, { data: { title: `Book ${suffix}`, parent: collection.id } })
  )
  const settings = new SpaceSettingsPage(page)
  await settings.open(token, `/collections/${collection.id}`)
  await settings.waitUntilReady()

  await page.getByTestId('collection-settings').click()
  await settings.choose(page.getByTestId('collection-default-level'), 'Reader')
  await page.getByTestId('collection-settings-save').click()
  await settings.expectSuccess('Collection settings saved')
  expect((await json<{ defaultLevel: string | null }>(api.get(`/v1/collections/${collection.id}`))).defaultLevel).toBe('read')
  await settings.expectDialogsClosed()

  await page.getByTestId('collection-transfer').click()
  await expect(settings.transferDialog).toBeVisible()
  await expect(page.getByTestId('transfer-consequences')).toContainText('the collections nested in it and every space in them')
  await settings.choose(page.getByTestId('transfer-target'), target.title)
  await page.getByTestId('confirm-transfer').click()
  await settings.expectSuccess(`“${collection.title}” is now in ${target.title}`)
  await expect(settings.currentOrg).toContainText(target.title)
  expect((await json<{ organization: string }>(api.get(`/v1/collections/${collection.id}`))).organization).toBe(target.id)
  expect((await json<{ organization: string }>(api.get(`/v1/spaces/${inside.id}`))).organization).toBe(target.id)
  await expect(page.getByTestId('collection-items')).toContainText(`Book ${suffix}`)
})
