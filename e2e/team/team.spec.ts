import { test, expect } from '../fixtures/server.ts'
import { TeamPage } from '../pages/teamPage.ts'

test('invite a member by e-mail, change their role, create a team and add them', async ({ page, token }, testInfo) => {
  // A whole user flow of a dozen steps: give it room on a busy CI machine.
  test.setTimeout(90_000)
  // Arrange
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`.toLowerCase()
  const email = `writer.${suffix}@example.com`
  const name = `writer.${suffix}`
  const teamTitle = `Docs writers ${suffix}`
  const team = new TeamPage(page)
  await team.open(token)
  await team.waitUntilReady()
  await team.navigate('team')

  // Act + Assert: invite by e-mail
  await team.tab('invites')
  await team.inviteByEmail(email, 'Editor')
  await team.expectSuccess(`${email} was invited`)

  // the new member is listed with the role they were invited with; change it
  await team.tab('members')
  await team.searchMembers(suffix)
  await expect(team.memberRows).toHaveCount(1)
  await expect(team.member(email)).toBeVisible()
  await expect(team.member(email).getByTestId('member-role')).toHaveValue('Editor')
  await team.changeRole(email, 'Reviewer')
  await team.expectSuccess(`${name} is now Reviewer`)
  await expect(team.member(email).getByTestId('member-role')).toHaveValue('Reviewer')

  // create a team; its members drawer opens; add the new member
  await team.tab('teams')
  await team.createTeam(teamTitle)
  await team.expectSuccess(`Team “${teamTitle}” created`)
  await expect(team.teamDrawer).toBeVisible()
  await team.addToTeam(email)
  await expect(team.teamMember(name)).toBeVisible()
  await expect(team.team(teamTitle).getByTestId('team-member-count')).toHaveText('1')
  await team.screenshot('team-with-member', testInfo)
})

test('demoting the last admin is refused with the API reason', async ({ page, token }) => {
  const team = new TeamPage(page)
  await team.open(token)
  await team.waitUntilReady()
  await team.navigate('team')
  const me = team.memberRows.filter({ hasText: 'You' })

  await team.changeRole(await me.getByTestId('member-email').innerText(), 'Editor')
  await team.page.getByTestId('confirm-self-demotion').click()

  await expect(team.errorToasts.filter({ hasText: 'cannot demote the last admin' })).toBeVisible()
  await expect(me.getByTestId('member-role')).toHaveValue('Admin')
})

test('lowering your own role asks first: cancel keeps it, confirm lowers it', async ({ page, api, otherUser }, testInfo) => {
  // Arrange: a second admin (the owner stays admin for the worker's other tests), signed in as themself.
  const admin = otherUser(`Second admin ${testInfo.testId.slice(0, 6)}`)
  const orgId = ((await (await api.get('/v1/orgs')).json()) as { items: { id: string }[] }).items[0]!.id
  expect((await api.post(`/v1/orgs/${orgId}/invites`, { data: { emails: [admin.email], role: 'admin' } })).ok()).toBe(true)
  const team = new TeamPage(page)
  await team.open(admin.token, `/orgs/${orgId}/team/members`)
  await team.waitUntilReady()
  await team.searchMembers(admin.email)
  const me = team.member(admin.email)
  await expect(me.getByTestId('member-role')).toHaveValue('Admin')
  const confirm = page.getByRole('dialog', { name: 'Lower your own role to Editor?' })

  // Act + Assert: Cancel keeps the role and sends nothing.
  await team.changeRole(admin.email, 'Editor')
  await expect(confirm).toContainText('You cannot undo this yourself')
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await team.expectDialogsClosed()
  await expect(me.getByTestId('member-role')).toHaveValue('Admin')
  const members = (await (await api.get(`/v1/orgs/${orgId}/members?search=${encodeURIComponent(admin.email)}`)).json()) as {
    items: { role: string }[]
  }
  expect(members.items[0]!.role).toBe('admin')

  // Confirm lowers it.
  await team.changeRole(admin.email, 'Editor')
  await confirm.getByTestId('confirm-self-demotion').click()
  await team.expectSuccess('is now Editor')
  await expect(me).toContainText('Editor')
  const after = (await (await api.get(`/v1/orgs/${orgId}/members?search=${encodeURIComponent(admin.email)}`)).json()) as {
    items: { role: string }[]
  }
  expect(after.items[0]!.role).toBe('edit')
})

test("another member's role changes without a question", async ({ page, token, api, otherUser }, testInfo) => {
  const other = otherUser(`Colleague ${testInfo.testId.slice(0, 6)}`)
  const orgId = ((await (await api.get('/v1/orgs')).json()) as { items: { id: string }[] }).items[0]!.id
  expect((await api.post(`/v1/orgs/${orgId}/invites`, { data: { emails: [other.email], role: 'review' } })).ok()).toBe(true)
  const team = new TeamPage(page)
  await team.open(token, `/orgs/${orgId}/team/members`)
  await team.waitUntilReady()
  await team.searchMembers(other.email)

  await team.changeRole(other.email, 'Reader')

  await team.expectSuccess('is now Reader')
  await expect(page.getByTestId('confirm-self-demotion')).toHaveCount(0)
})
