import type { APIRequestContext, Page, TestInfo } from '@playwright/test'
import { json, spaceWithPages } from '../content/seed.ts'
import { connectWorkspace, expect, homeTest, type RemoteQuire } from '../fixtures/server.ts'
import { EditorPage } from '../pages/editorPage.ts'
import { WorkspacesPage } from '../pages/workspaces.ts'

interface ChangeRequest {
  number: number
}

const COLLEAGUE = 'About Overview, as a colleague put it.'
const MINE = 'About Overview, as written here.'

/**
 * A draft change request on the server, opened once in the app; a colleague changes a line there while the server
 * is out of reach for the app, and the same line is edited in the app. The server comes back: the workspace finds
 * it and sends by itself, and the write is held as a conflict. Returns what the test needs, the dialog open.
 */
async function conflictHeld(
  page: Page,
  api: APIRequestContext,
  remote: RemoteQuire,
  copyCaughtUp: () => Promise<void>,
  token: string,
  testInfo: TestInfo
) {
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.repeatEachIndex}${testInfo.retry || ''}`
  const name = `Conflict docs ${suffix}`
  const { spaceId, pages } = await spaceWithPages(remote.api, `Conflict guide ${suffix}`, ['Overview'])
  const pageId = pages[0]!.id
  const cr = await json<ChangeRequest>(remote.api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject: `Tidy ${suffix}` } }))
  const write = (markdown: string) =>
    json(
      remote.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content`, {
        data: { changes: [{ operation: 'update_page', page: pageId, document: { markdown } }] }
      })
    )
  await write('# Overview\n\nAbout Overview.\n\nMore to say.\n')
  const id = await connectWorkspace(api, name, remote)
  const workspaces = new WorkspacesPage(page)
  const editor = new EditorPage(page)
  await workspaces.open(token)
  await workspaces.waitUntilReady()
  await workspaces.switchTo(name)
  await editor.open(token, `/spaces/${spaceId}/change-requests/${cr.number}/pages/${pageId}`)
  await workspaces.waitUntilReady()
  await expect(editor.markdown).toContainText('More to say.')
  await copyCaughtUp()
  await write(`# Overview\n\n${COLLEAGUE}\n\nMore to say.\n`)
  await remote.stop()
  await page.reload()
  await workspaces.waitUntilReady()
  await expect(workspaces.banner).toContainText('Working offline')
  await editor.markdown.getByText('About Overview.').click()
  await page.keyboard.press('End')
  await page.keyboard.press('Shift+Home')
  await page.keyboard.type(MINE)
  await editor.expectSaved()
  await expect(workspaces.unsentPill).toHaveText('1 change not sent')

  // The server is back: nothing clicked, the workspace finds it, sends, and holds the clash for the user.
  await remote.start()
  await expect(workspaces.unsentPill).toHaveText('1 conflict to resolve', { timeout: 20_000 })
  await expect(workspaces.banner).toHaveCount(0)
  await workspaces.openUnsent()
  const item = workspaces.unsentItem(`#${cr.number} Tidy ${suffix}`)
  const conflict = item.getByTestId('unsent-conflict')
  await expect(conflict.getByTestId('unsent-conflict-message')).toContainText(
    '“Overview” was changed on the server in the same lines as here'
  )
  const clash = conflict.getByTestId('unsent-conflict-clash')
  await expect(clash).toContainText('About Overview.')
  await expect(clash).toContainText(MINE)
  await expect(clash).toContainText(COLLEAGUE)
  const onServer = async () =>
    (await json<{ markdown: string }>(remote.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content/page/${pageId}`))).markdown
  expect(await onServer()).toContain(COLLEAGUE)
  const cleanUp = async () => {
    await api.post('/app/workspaces/local/activate')
    await api.delete(`/app/workspaces/${id}`)
  }
  return { workspaces, editor, item, conflict, onServer, cleanUp }
}

homeTest(
  'a conflict resolved by keeping mine sends this computer’s version of the page',
  async ({ page, token, api, remoteQuire, copyCaughtUp }, testInfo) => {
    homeTest.setTimeout(120_000)
    const held = await conflictHeld(page, api, remoteQuire, copyCaughtUp, token, testInfo)
    try {
      await held.workspaces.screenshots('offline-conflict', testInfo)
      await expect(held.conflict.getByTestId('unsent-resolve')).toBeDisabled()
      await held.conflict.getByTestId('unsent-conflict-choice').getByText('Keep mine').click()
      await held.conflict.getByTestId('unsent-resolve').click()
      await expect(held.workspaces.unsentOutcome).toHaveText(/^Sent 1 change to /)
      await expect(held.workspaces.unsentDialog.getByTestId('unsent-empty')).toBeVisible()
      expect(await held.onServer()).toContain(MINE)
      expect(await held.onServer()).not.toContain(COLLEAGUE)
      await held.workspaces.closeUnsent()
      await expect(held.workspaces.unsentPill).toHaveCount(0)
    } finally {
      await held.cleanUp()
    }
  }
)

homeTest(
  'a conflict resolved by keeping theirs leaves the server’s version, and the editor shows it',
  async ({ page, token, api, remoteQuire, copyCaughtUp }, testInfo) => {
    homeTest.setTimeout(120_000)
    const held = await conflictHeld(page, api, remoteQuire, copyCaughtUp, token, testInfo)
    try {
      await held.conflict.getByTestId('unsent-conflict-choice').getByText('Keep theirs').click()
      await held.conflict.getByTestId('unsent-resolve').click()
      await expect(held.workspaces.unsentDialog.getByTestId('unsent-empty')).toBeVisible()
      expect(await held.onServer()).toContain(COLLEAGUE)
      expect(await held.onServer()).not.toContain(MINE)
      await held.workspaces.closeUnsent()
      await expect(held.workspaces.unsentPill).toHaveCount(0)
      await expect(held.editor.markdown).toContainText(COLLEAGUE)
    } finally {
      await held.cleanUp()
    }
  }
)

homeTest(
  'a conflict resolved by editing the merged text sends that text once no marker is left',
  async ({ page, token, api, remoteQuire, copyCaughtUp }, testInfo) => {
    homeTest.setTimeout(120_000)
    const held = await conflictHeld(page, api, remoteQuire, copyCaughtUp, token, testInfo)
    try {
      await held.conflict.getByTestId('unsent-conflict-choice').getByText('Edit merged text').click()
      const editor = held.conflict.getByTestId('unsent-conflict-editor')
      await expect(editor).toHaveValue(new RegExp(`<<<<<<< this computer\\n${MINE}\\n=======\\n${COLLEAGUE}\\n>>>>>>> the server`))
      await held.workspaces.screenshots('offline-conflict-edit', testInfo)
      // Markers left: not sent yet.
      await expect(held.conflict.getByTestId('unsent-resolve')).toBeDisabled()
      await expect(held.conflict.getByTestId('unsent-conflict-hint')).toContainText('Remove the <<<<<<< ======= >>>>>>> lines')
      const merged = '# Overview\n\nAbout Overview, as written here and as a colleague put it.\n\nMore to say.\n'
      await editor.fill(merged)
      await held.conflict.getByTestId('unsent-resolve').click()
      await expect(held.workspaces.unsentDialog.getByTestId('unsent-empty')).toBeVisible()
      expect(await held.onServer()).toBe(merged)
    } finally {
      await held.cleanUp()
    }
  }
)
