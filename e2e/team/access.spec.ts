import { test, expect } from '../fixtures/server.ts'
import { json, orgIdOf } from '../content/seed.ts'
import { AccessPage } from '../pages/accessPage.ts'
import { TeamPage } from '../pages/teamPage.ts'

test('grant a team a space from its page: a member of it gains the role, explained in the Share dialog; removing the team takes it back', async ({
  page,
  token,
  api,
  baseURL,
  otherUser
}, testInfo) => {
  test.setTimeout(90_000)
  // Arrange: a reader of the organization in a new team, and a space.
  const suffix = testInfo.testId.slice(0, 6)
  const writer = otherUser(`Writer ${suffix}`)
  const orgId = await orgIdOf(api)
  expect((await api.post(`/v1/orgs/${orgId}/invites`, { data: { emails: [writer.email], role: 'read' } })).ok()).toBe(true)
  const members = await json<{ items: { id: string }[] }>(api.get(`/v1/orgs/${orgId}/members?search=${encodeURIComponent(writer.email)}`))
  const teamTitle = `Writers ${suffix}`
  await json(api.put(`/v1/orgs/${orgId}/teams`, { data: { title: teamTitle, members: [members.items[0]!.id] } }))
  const spaceTitle = `Handbook ${suffix}`
  const space = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/spaces`, { data: { title: spaceTitle } }))
  const writerCanEdit = async () =>
    (
      (await (
        await page.request.get(`${baseURL}/v1/spaces/${space.id}`, { headers: { authorization: `Bearer ${writer.token}` } })
      ).json()) as { permissions: { edit: boolean } }
    ).permissions.edit
  expect(await writerCanEdit()).toBe(false)

  // Act: on the Teams tab, open the team's spaces and grant it the space as Editor.
  const team = new TeamPage(page)
  const access = new AccessPage(page)
  await team.open(token, `/orgs/${orgId}/team/teams`)
  await team.waitUntilReady()
  await team.team(teamTitle).getByTestId('team-spaces-open').click()
  await access.grantTeamSpace(spaceTitle, 'Editor')

  // Assert: the grant is listed, the team counts the space, and the member can edit.
  await access.expectSuccess(`${teamTitle} is Editor on the space`)
  await expect(access.teamSpace(spaceTitle).getByLabel(`Role of ${teamTitle} on ${spaceTitle}`, { exact: true })).toHaveValue('Editor')
  await page.keyboard.press('Escape')
  await expect(team.team(teamTitle)).toContainText('1')
  expect(await writerCanEdit()).toBe(true)

  // The Share dialog says who has access and why.
  await access.open(token, `/spaces/${space.id}`)
  await access.waitUntilReady()
  await access.openFromSpaceMenu()
  await expect(access.grant(teamTitle).getByLabel(`Role of ${teamTitle}`, { exact: true })).toHaveValue('Editor')
  await access.show('Everyone with access')
  const person = access.person(`Writer ${suffix}`)
  await expect(person.getByTestId('share-person-role')).toHaveText('Editor')
  await expect(person.getByTestId('share-person-sources')).toHaveText(`through team “${teamTitle}” · organization reader`)
  await person.getByRole('button', { name: `Why is Writer ${suffix} Editor?` }).click()
  await expect(person.getByTestId('share-explanation')).toHaveText(
    `Writer ${suffix} is Editor here because they are in the team “${teamTitle}”, which has Editor on this space. Also: their organization role is Reader.`
  )
  await access.screenshots('share-dialog-everyone', testInfo)
  await access.show('Shared with')
  await access.screenshots('share-dialog-shared-with', testInfo)

  // Act: remove the team's access here.
  await access
    .grant(teamTitle)
    .getByRole('button', { name: `Remove ${teamTitle}` })
    .click()

  // Assert: gone from the list, the member is back to their organization role.
  await expect(access.grant(teamTitle)).toHaveCount(0)
  await access.show('Everyone with access')
  await expect(person.getByTestId('share-person-role')).toHaveText('Reader')
  await expect(person.getByTestId('share-person-sources')).toHaveText('Inherited: organization reader')
  expect(await writerCanEdit()).toBe(false)
})

test('the last admin of a space cannot be removed: the dialog says why and keeps them', async ({ page, token, api }, testInfo) => {
  const orgId = await orgIdOf(api)
  const space = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/spaces`, { data: { title: `Solo ${testInfo.testId.slice(0, 6)}` } }))
  const me = await json<{ displayName: string }>(api.get('/v1/user'))
  const access = new AccessPage(page)
  await access.open(token, `/spaces/${space.id}`)
  await access.waitUntilReady()
  await access.openFromSpaceMenu()

  await access
    .grant(me.displayName)
    .getByRole('button', { name: `Remove ${me.displayName}` })
    .click()

  await expect(access.errorToasts.filter({ hasText: 'removing the last admin of this space is not allowed' })).toBeVisible()
  await expect(access.grant(me.displayName)).toBeVisible()
})

test('a space that inherits from its collection: the badge opens the Share dialog, which names the collection', async ({
  page,
  token,
  api,
  otherUser
}, testInfo) => {
  // Arrange: a collection shared with a guest, and a space in it.
  const suffix = testInfo.testId.slice(0, 6)
  const guest = otherUser(`Guest ${suffix}`)
  const orgId = await orgIdOf(api)
  expect((await api.post(`/v1/orgs/${orgId}/invites`, { data: { emails: [guest.email], role: null } })).ok()).toBe(true)
  const collection = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/collections`, { data: { title: `Guides ${suffix}` } }))
  expect((await api.post(`/v1/collections/${collection.id}/permissions`, { data: { role: 'comment', users: [guest.email] } })).ok()).toBe(
    true
  )
  const space = await json<{ id: string }>(
    api.post(`/v1/orgs/${orgId}/spaces`, { data: { title: `Inside ${suffix}`, parent: collection.id } })
  )
  const access = new AccessPage(page)

  // Act: on the space's Comments tab (the full header), click the visibility badge.
  await access.open(token, `/spaces/${space.id}/comments`)
  await access.waitUntilReady()
  await page.getByRole('button', { name: 'Inherits from collection' }).click()
  await expect(access.dialog).toBeVisible()
  await access.show('Everyone with access')

  // Assert: the guest's role comes from the collection.
  const person = access.person(`Guest ${suffix}`)
  await expect(person.getByTestId('share-person-role')).toHaveText('Commenter')
  await expect(person.getByTestId('share-person-sources')).toHaveText(`Inherited: from collection “Guides ${suffix}”`)
  await page.keyboard.press('Escape')
  await access.expectDialogsClosed()

  // The collection's own Share dialog lists the guest among those it is shared with.
  await access.open(token, `/collections/${collection.id}`)
  await access.waitUntilReady()
  await page.getByTestId('collection-share').click()
  await expect(access.grant(`Guest ${suffix}`).getByLabel(`Role of Guest ${suffix}`, { exact: true })).toHaveValue('Commenter')
})

test('share a site with a member as Creator: they may then change that site', async ({
  page,
  token,
  api,
  baseURL,
  otherUser
}, testInfo) => {
  // Arrange: a reader of the organization and a site.
  const suffix = testInfo.testId.slice(0, 6)
  const reader = otherUser(`Site reader ${suffix}`)
  const orgId = await orgIdOf(api)
  expect((await api.post(`/v1/orgs/${orgId}/invites`, { data: { emails: [reader.email], role: 'read' } })).ok()).toBe(true)
  const site = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/sites`, { data: { title: `Docs site ${suffix}` } }))
  const rename = () =>
    page.request.patch(`${baseURL}/v1/orgs/${orgId}/sites/${site.id}`, {
      data: { title: `Renamed ${suffix}` },
      headers: { authorization: `Bearer ${reader.token}` }
    })
  expect((await rename()).status()).toBe(403)

  // Act: the site's Share button, invite the reader as Creator.
  const access = new AccessPage(page)
  await access.open(token, `/orgs/${orgId}/sites/${site.id}`)
  await access.waitUntilReady()
  await page.getByTestId('site-share').click()
  await access.invitePerson(reader.email, 'Creator')

  // Assert: listed with the role, and the API lets them change the site.
  await access.expectSuccess('Shared as Creator')
  await expect(access.grant(`Site reader ${suffix}`).getByLabel(`Role of Site reader ${suffix}`, { exact: true })).toHaveValue('Creator')
  expect((await rename()).status()).toBe(200)
  await access.screenshots('share-dialog-site', testInfo)
})
