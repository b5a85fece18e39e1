import { connectWorkspace, expect, homeTest } from '../fixtures/server.ts'
import { SpacesPage } from '../pages/spacesPage.ts'
import { WorkspacesPage } from '../pages/workspaces.ts'

interface WorkspaceList {
  items: { id: string; name: string; active: boolean; remote?: { url: string; connection: { status: string } } }[]
  active: string
}

homeTest(
  'connect a workspace to another server: the token is checked, its spaces show, new ones land there, and a lost server says so',
  async ({ page, token, api, remoteQuire: remote }, testInfo) => {
    homeTest.setTimeout(90_000)
    // Arrange: names unique to this test and attempt, and a space on the other server made through its own API.
    const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.repeatEachIndex}${testInfo.retry || ''}`
    const name = `Team docs ${suffix}`
    const seeded = `Remote handbook ${suffix}`
    const made = `Made in the app ${suffix}`
    const host = new URL(remote.url).host
    const account = `${remote.owner.displayName} (${remote.owner.email})`
    const workspaces = new WorkspacesPage(page)
    const spaces = new SpacesPage(page)
    const list = async () => (await (await api.get('/app/workspaces')).json()) as WorkspaceList
    const remoteSpaceTitles = async () =>
      ((await (await remote.api.get(`/v1/orgs/${remote.orgId}/spaces`)).json()) as { items: { title: string }[] }).items.map((s) => s.title)
    expect((await remote.api.post(`/v1/orgs/${remote.orgId}/spaces`, { data: { title: seeded } })).status()).toBe(201)
    await workspaces.open(token)
    await workspaces.waitUntilReady()
    await expect(workspaces.currentWorkspace).toHaveText('Local')

    try {
      // Act + Assert: a token the server refuses is explained under the token field, and nothing is created
      await workspaces.submitConnection(name, remote.url, 'not-a-token-of-that-server')
      await workspaces.expectFieldError(workspaces.tokenInput, /refused the token/)
      expect((await list()).items.map((w) => w.name)).not.toContain(name)

      // the right token connects, and the dialog names the account
      await workspaces.tokenInput.fill(remote.token)
      await page.getByTestId('workspace-create-submit').click()
      await expect(workspaces.createdAccount).toHaveText(`Connected to ${host} as ${account}`)
      await workspaces.expectSuccess(`Workspace “${name}” connected`)
      expect((await list()).items.find((w) => w.name === name)?.remote?.url).toBe(remote.url)

      // "Switch now" shows the other server's organization and its spaces
      await workspaces.switchNow(name)
      await expect(workspaces.currentWorkspaceKind).toHaveText(`Connected · ${host}`)
      await expect(spaces.row(seeded)).toBeVisible()

      // a space made in the app is made on that server
      await spaces.createSpace(made)
      await spaces.expectSuccess(`Space “${made}” created`)
      expect(await remoteSpaceTitles()).toContain(made)

      // Manage workspaces shows where it is connected, as whom, and that it answers
      await workspaces.openManage()
      await expect(workspaces.row(name).getByTestId('workspace-row-remote')).toHaveText(`${host} · ${account}`)
      await expect(workspaces.connectionStatus(name)).toHaveText('Online')
      await workspaces.closeManage()
      await expect(workspaces.banner).toHaveCount(0)

      // the server goes away: the app works offline from the copy on this computer, a screen the copy does not keep
      // says so (Sites), and the banner offers to try again
      await remote.stop()
      await workspaces.navigate('sites')
      await expect(page.getByTestId('error')).toContainText('Not available offline')
      await expect(page.getByTestId('error')).toContainText(host)
      await expect(workspaces.banner).toContainText('Working offline')
      await expect(workspaces.banner).toContainText(`${host} cannot be reached`)
      expect(await workspaces.retryConnection()).toBe('unreachable')
      await expect(workspaces.banner).toContainText('Working offline')
      await workspaces.screenshot('connected-workspace-unreachable', testInfo)

      // back again: "Try again" reloads the screen and the banner goes
      await remote.start()
      expect(await workspaces.retryConnection()).toBe('online')
      await expect(workspaces.banner).toHaveCount(0)
      await expect(workspaces.pageTitle).toHaveText('Sites')
      await expect(page.getByTestId('error')).toHaveCount(0)

      // back to Local; removing the connection removes nothing on the server
      await workspaces.switchTo('Local')
      await expect(workspaces.currentWorkspaceKind).toHaveText('Workspace')
      await workspaces.openManage()
      await workspaces.delete(name, /nothing on the server is deleted/)
      await workspaces.closeManage()
      expect(await remoteSpaceTitles()).toEqual(expect.arrayContaining([seeded, made]))
    } finally {
      // Leave the worker's home as the other tests expect it: "Local" active, no extra workspace.
      await api.post('/app/workspaces/local/activate')
      for (const w of (await list()).items) if (w.name === name) await api.delete(`/app/workspaces/${w.id}`)
    }
  }
)

homeTest(
  'a connected workspace whose token the server refuses says so, and takes a new token of the same account only',
  async ({ page, token, api, remoteQuire: remote }, testInfo) => {
    homeTest.setTimeout(90_000)
    // Arrange: a workspace connected through the API, opened in the app; then the server revokes its token.
    const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.repeatEachIndex}${testInfo.retry || ''}`
    const name = `Partner docs ${suffix}`
    const host = new URL(remote.url).host
    const id = await connectWorkspace(api, name, remote)
    const workspaces = new WorkspacesPage(page)
    await workspaces.open(token)
    await workspaces.waitUntilReady()

    try {
      await workspaces.switchTo(name)
      remote.revokeOwnerTokens()

      // Act + Assert: the next screen says the server refused the token; the banner offers a new one
      await workspaces.navigate('trash')
      await expect(page.getByTestId('error')).toContainText("The server refused this workspace's token")
      await expect(workspaces.banner).toContainText('Token refused')
      await expect(workspaces.banner).toContainText(`${host} refused this workspace's token`)
      await expect(workspaces.switcher.locator('[data-icon="cloud-off"]')).toBeVisible()
      await workspaces.screenshot('connected-workspace-token-refused', testInfo)

      // another account's token is refused by the field; nothing changes
      await workspaces.banner.getByTestId('connection-change-token').click()
      const dialog = page.getByTestId('change-token-dialog')
      await dialog.getByTestId('workspace-token-input').fill(remote.otherUserToken('Bob'))
      await dialog.getByTestId('workspace-token-save').click()
      await workspaces.expectFieldError(dialog.getByTestId('workspace-token-input'), /The token is Bob’s; this workspace is .*’s view of/)

      // the same account's new token: saved, the banner goes and the screen loads
      await dialog.getByTestId('workspace-token-input').fill(remote.addOwnerToken())
      await dialog.getByTestId('workspace-token-save').click()
      await workspaces.expectSuccess(`New token saved: connected to ${host} as ${remote.owner.displayName}`)
      await workspaces.expectDialogsClosed()
      await expect(workspaces.banner).toHaveCount(0)
      await expect(page.getByTestId('error')).toHaveCount(0)
      await expect(workspaces.pageTitle).toHaveText('Trash')
      await expect(workspaces.switcher.locator('[data-icon="cloud"]')).toBeVisible()

      // Manage workspaces: "Check connection" asks the server again
      await workspaces.openManage()
      await workspaces.checkConnection(name)
      await workspaces.expectSuccess(`${host} answers: connected as ${remote.owner.displayName}`)
      await expect(workspaces.connectionStatus(name)).toHaveText('Online')
      await workspaces.closeManage()

      await workspaces.switchTo('Local')
    } finally {
      // Leave the worker's home as the other tests expect it: "Local" active, no extra workspace.
      await api.post('/app/workspaces/local/activate')
      await api.delete(`/app/workspaces/${id}`)
    }
  }
)
