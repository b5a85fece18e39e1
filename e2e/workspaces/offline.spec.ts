import { json, spaceWithPages } from '../content/seed.ts'
import { connectWorkspace, expect, homeTest } from '../fixtures/server.ts'
import { EditorPage } from '../pages/editorPage.ts'
import { SpacesPage } from '../pages/spacesPage.ts'
import { WorkspacesPage } from '../pages/workspaces.ts'

interface ChangeRequest {
  number: number
  subject: string
}

homeTest(
  'work offline on a connected workspace: the editor’s edits are kept here, listed, and sent once the server answers',
  async ({ page, token, api, remoteQuire: remote, copyCaughtUp }, testInfo) => {
    homeTest.setTimeout(120_000)
    // Arrange: a space with a page on the other server (through its own API), and a workspace connected to it.
    const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.repeatEachIndex}${testInfo.retry || ''}`
    const name = `Field docs ${suffix}`
    const spaceTitle = `Field guide ${suffix}`
    const written = `Written offline ${suffix}.`
    const host = new URL(remote.url).host
    const { spaceId, pages } = await spaceWithPages(remote.api, spaceTitle, ['Overview'])
    const id = await connectWorkspace(api, name, remote)
    const workspaces = new WorkspacesPage(page)
    const spaces = new SpacesPage(page)
    const editor = new EditorPage(page)
    await workspaces.open(token)
    await workspaces.waitUntilReady()

    try {
      // the space and its page are opened once, so the workspace's copy on this computer has them
      await workspaces.switchTo(name)
      await spaces.row(spaceTitle).getByTestId('tree-row-title').click()
      await expect(editor.row('Overview')).toHaveAttribute('aria-current', 'page')
      await expect(editor.markdown).toContainText('About Overview.')
      await copyCaughtUp()

      // Act: the server goes away; the app, opened again, works from the copy and says so
      await remote.stop()
      await page.reload()
      await workspaces.waitUntilReady()
      await expect(workspaces.banner).toContainText('Working offline')
      await expect(workspaces.banner).toContainText(`${host} cannot be reached: showing what this computer keeps of it`)
      await expect(workspaces.banner).toContainText('Edits to change requests are kept here and sent when it answers')
      await expect(editor.markdown).toContainText('About Overview.')
      await expect(workspaces.unsentPill).toHaveCount(0)

      // the editor's save lands in a draft change request of the copy, which waits to be sent
      await editor.typeMarkdown(`\n${written}`)
      await expect(page).toHaveURL(/\/change-requests\/\d+\/pages\//)
      await editor.expectSaved()
      const local = editor.where().changeRequest!
      await expect(workspaces.unsentPill).toHaveText(/^\d+ changes? not sent$/)
      const unsent = Number((await workspaces.unsentPill.textContent())!.split(' ')[0])
      expect(unsent).toBeGreaterThan(0)

      // Assert: the dialog lists each write: its space, its change request (a link), what it does
      await workspaces.openUnsent()
      await expect(workspaces.unsentItems).toHaveCount(unsent)
      const item = workspaces.unsentItem(`#${local} Edit “Overview”`)
      await expect(item.first()).toBeVisible()
      await expect(workspaces.unsentItems.getByTestId('unsent-item-space').first()).toHaveText(spaceTitle)
      await expect(workspaces.unsentItems.getByTestId('unsent-item-summary').last()).toContainText('Edited 1 page')
      await expect(workspaces.unsentItems.filter({ has: page.getByTestId('unsent-item-error') })).toHaveCount(0)
      await expect(workspaces.unsentDialog.getByTestId('unsent-connection')).toContainText(`${host} cannot be reached`)
      await workspaces.screenshot('offline-unsent-changes', testInfo)

      // "Send now" while it is still away says so, and keeps everything
      await workspaces.sendNow()
      await expect(workspaces.unsentOutcome).toHaveText(`Still out of reach: ${host} did not answer`)
      await expect(workspaces.unsentItems).toHaveCount(unsent)

      // the server is back: "Send now" sends everything, the pill and the banner go
      await remote.start()
      await workspaces.sendNow()
      // The workspace's own retry may reach the server first (on a busy machine the click comes later): then there
      // is nothing left for "Send now". Either way every change is sent, once (the server's draft is checked below).
      await expect(workspaces.unsentOutcome).toHaveText(
        new RegExp(`^(Sent ${unsent} change${unsent === 1 ? '' : 's'} to ${host.replace(/\./g, '\\.')}|Nothing was waiting to be sent)$`)
      )
      await expect(workspaces.unsentDialog.getByTestId('unsent-empty')).toBeVisible()
      await workspaces.closeUnsent()
      await expect(workspaces.unsentPill).toHaveCount(0)
      await expect(workspaces.banner).toHaveCount(0)

      // the server has a draft change request holding the text, and the editor's address names it by its number there
      const drafts = await json<{ items: ChangeRequest[] }>(remote.api.get(`/v1/spaces/${spaceId}/change-requests?status=draft`))
      expect(
        drafts.items.filter((cr) => cr.subject === 'Edit “Overview”'),
        'sent once'
      ).toHaveLength(1)
      const draft = drafts.items.find((cr) => cr.subject === 'Edit “Overview”')
      expect(draft, 'the change request made offline is on the server').toBeDefined()
      // (its server numbered it after the merged change request that seeded the space, unknown to the copy)
      expect(draft!.number).not.toBe(local)
      const onServer = await json<{ markdown: string }>(
        remote.api.get(`/v1/spaces/${spaceId}/change-requests/${draft!.number}/content/page/${pages[0]!.id}`)
      )
      expect(onServer.markdown).toContain(written)
      await expect(page).toHaveURL(new RegExp(`/change-requests/${draft!.number}/pages/${pages[0]!.id}`))
      await expect(editor.saveTarget).toContainText(`#${draft!.number}`)
      await expect(editor.markdown).toContainText(written)

      // once the app follows the server's number, the number it had on this computer means the server's own change
      // request of that number again (here the merged one that seeded the space)
      await page.goto(`/#/spaces/${spaceId}/change-requests/${local}`)
      await expect(page.getByTestId('cr-detail')).toHaveAttribute('data-number', String(local))
      await expect(page).toHaveURL(new RegExp(`/change-requests/${local}$`))

      await workspaces.switchTo('Local')
    } finally {
      // Leave the worker's home as the other tests expect it: "Local" active, no extra workspace.
      await api.post('/app/workspaces/local/activate')
      await api.delete(`/app/workspaces/${id}`)
    }
  }
)

homeTest(
  'offline, a change that needs the server says so and changes nothing',
  async ({ page, token, api, remoteQuire: remote, copyCaughtUp }, testInfo) => {
    homeTest.setTimeout(90_000)
    // Arrange: a connected workspace opened once (its copy has the server's spaces), then the server goes away.
    const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.repeatEachIndex}${testInfo.retry || ''}`
    const name = `Away docs ${suffix}`
    const seeded = `Kept space ${suffix}`
    const refused = `Made offline ${suffix}`
    const host = new URL(remote.url).host
    expect((await remote.api.post(`/v1/orgs/${remote.orgId}/spaces`, { data: { title: seeded } })).status()).toBe(201)
    const id = await connectWorkspace(api, name, remote)
    const workspaces = new WorkspacesPage(page)
    const spaces = new SpacesPage(page)
    const spaceTitles = async () =>
      ((await (await api.get(`/v1/orgs/${remote.orgId}/spaces`)).json()) as { items: { title: string }[] }).items.map((s) => s.title)
    await workspaces.open(token)
    await workspaces.waitUntilReady()

    try {
      await workspaces.switchTo(name)
      await expect(spaces.row(seeded)).toBeVisible()
      await copyCaughtUp()
      await remote.stop()
      await page.reload()
      await workspaces.waitUntilReady()
      await expect(workspaces.banner).toContainText('Working offline')
      await expect(spaces.row(seeded)).toBeVisible()

      // Act: a new space needs the server
      await page.getByTestId('new-space').click()
      await page.getByTestId('space-title-input').fill(refused)
      await page.getByTestId('space-dialog-submit').click()

      // Assert: the toast says why, in the server's words; nothing was made here, kept to send, or made there
      const toast = workspaces.errorToasts.filter({ hasText: `${host} is out of reach, and this change needs it` })
      await expect(toast).toBeVisible()
      await expect(toast).toContainText('Not available offline')
      await expect(toast).toContainText('Change requests and their pages can be edited meanwhile')
      await page.getByTestId('space-dialog').getByRole('button', { name: 'Cancel' }).click()
      await workspaces.expectDialogsClosed()
      await expect(spaces.row(refused)).toHaveCount(0)
      await expect(workspaces.unsentPill).toHaveCount(0)
      expect(await spaceTitles()).not.toContain(refused)

      await remote.start()
      expect(await workspaces.retryConnection()).toBe('online')
      await expect(workspaces.banner).toHaveCount(0)
      const onServer = (
        (await (await remote.api.get(`/v1/orgs/${remote.orgId}/spaces`)).json()) as { items: { title: string }[] }
      ).items.map((s) => s.title)
      expect(onServer).toContain(seeded)
      expect(onServer).not.toContain(refused)

      await workspaces.switchTo('Local')
    } finally {
      await api.post('/app/workspaces/local/activate')
      await api.delete(`/app/workspaces/${id}`)
    }
  }
)

homeTest(
  'sends what was kept offline by itself once the server answers again, and the banner and the pill follow',
  async ({ page, token, api, remoteQuire: remote, copyCaughtUp }, testInfo) => {
    homeTest.setTimeout(120_000)
    const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.repeatEachIndex}${testInfo.retry || ''}`
    const name = `Resume docs ${suffix}`
    const written = `Sent by itself ${suffix}.`
    const { spaceId, pages } = await spaceWithPages(remote.api, `Resume guide ${suffix}`, ['Overview'])
    const cr = await json<ChangeRequest>(
      remote.api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject: `Resume ${suffix}` } })
    )
    const id = await connectWorkspace(api, name, remote)
    const workspaces = new WorkspacesPage(page)
    const editor = new EditorPage(page)
    await workspaces.open(token)
    await workspaces.waitUntilReady()

    try {
      await workspaces.switchTo(name)
      await editor.open(token, `/spaces/${spaceId}/change-requests/${cr.number}/pages/${pages[0]!.id}`)
      await workspaces.waitUntilReady()
      await expect(editor.markdown).toContainText('About Overview.')
      await copyCaughtUp()
      await remote.stop()
      await page.reload()
      await workspaces.waitUntilReady()
      await expect(workspaces.banner).toContainText('Working offline')
      await editor.typeMarkdown(`\n${written}`)
      await editor.expectSaved()
      await expect(workspaces.unsentPill).toHaveText('1 change not sent')

      // Act: the server comes back; nothing is clicked
      await remote.start()

      // Assert: the banner and the pill go by themselves, and the server has the edit
      await expect(workspaces.banner).toHaveCount(0, { timeout: 20_000 })
      await expect(workspaces.unsentPill).toHaveCount(0, { timeout: 20_000 })
      const onServer = await json<{ markdown: string }>(
        remote.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content/page/${pages[0]!.id}`)
      )
      expect(onServer.markdown).toContain(written)

      await workspaces.switchTo('Local')
    } finally {
      await api.post('/app/workspaces/local/activate')
      await api.delete(`/app/workspaces/${id}`)
    }
  }
)
