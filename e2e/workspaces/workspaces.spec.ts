import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, homeTest, test } from '../fixtures/server.ts'
import { SpacesPage } from '../pages/spacesPage.ts'
import { WorkspacesPage } from '../pages/workspaces.ts'

interface WorkspaceList {
  items: { id: string; name: string; active: boolean }[]
  active: string
  switchable: boolean
}

homeTest('create a workspace, switch to it, keep its spaces apart, rename it and delete it', async ({ page, token, api }, testInfo) => {
  // A whole user flow of a dozen steps: give it room on a busy CI machine.
  homeTest.setTimeout(90_000)
  // Arrange: names unique to this test and attempt (the worker's server is shared by the tests it runs).
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.repeatEachIndex}${testInfo.retry || ''}`
  const handbook = `Handbook ${suffix}`
  const renamed = `Product handbook ${suffix}`
  const guide = `Guide ${suffix}`
  const workspaces = new WorkspacesPage(page)
  const spaces = new SpacesPage(page)
  const list = async () => (await (await api.get('/app/workspaces')).json()) as WorkspaceList
  const spaceTitles = async () => {
    const orgId = ((await (await api.get('/v1/orgs')).json()) as { items: { id: string }[] }).items[0]!.id
    return ((await (await api.get(`/v1/orgs/${orgId}/spaces`)).json()) as { items: { title: string }[] }).items.map((s) => s.title)
  }
  await workspaces.open(token)
  await workspaces.waitUntilReady()
  await expect(workspaces.currentWorkspace).toHaveText('Local')

  // Act + Assert: a name that is taken is refused by the field
  await workspaces.submitNewWorkspace('local')
  await expect(page.getByText('A workspace named “Local” already exists')).toBeVisible()

  // create; the dialog offers to switch; switch now
  await workspaces.create(handbook)
  await workspaces.expectSuccess(`Workspace “${handbook}” created`)
  await workspaces.switchNow(handbook)
  const created = (await list()).items.find((w) => w.name === handbook)
  expect(created?.active, 'the API has the new workspace active').toBe(true)

  // its organization home starts empty; a space created there stays there
  await expect(page.getByTestId('content-empty')).toBeVisible()
  await spaces.createSpace(guide)
  await spaces.expectSuccess(`Space “${guide}” created`)
  expect(await spaceTitles()).toEqual([guide])

  // switch back: the space is not in "Local"
  await workspaces.switchTo('Local')
  await expect(spaces.pageTitle).toHaveText('Spaces')
  await expect(page.getByTestId('content-empty').or(spaces.tree)).toBeVisible()
  await expect(spaces.row(guide)).toHaveCount(0)
  expect(await spaceTitles()).not.toContain(guide)
  expect((await list()).active).toBe('local')

  // rename it; the active workspace cannot be deleted; delete it after the confirmation
  await workspaces.openManage()
  await expect(workspaces.row('Local').getByTestId('workspace-delete')).toBeDisabled()
  await workspaces.rename(handbook, renamed)
  await workspaces.expectSuccess(`Renamed to “${renamed}”`)
  expect((await list()).items.find((w) => w.id === created!.id)?.name).toBe(renamed)
  await workspaces.delete(renamed, /spaces and pages/)
  await workspaces.expectSuccess(`Workspace “${renamed}” deleted`)
  expect((await list()).items.map((w) => w.name)).toEqual(['Local'])
  await workspaces.closeManage()

  await workspaces.openMenu()
  await expect(workspaces.menuItems).toHaveCount(1)
  await workspaces.screenshot('workspaces-after-delete', testInfo)
})

test('a server with one workspace (--data) shows it and says how to keep several', async ({ page, token, api }, testInfo) => {
  const served = (await (await api.get('/app/workspaces')).json()) as WorkspaceList
  expect(served.switchable).toBe(false)
  const workspaces = new WorkspacesPage(page)
  await workspaces.open(token)
  await workspaces.waitUntilReady()

  await workspaces.openMenu()

  await expect(workspaces.currentWorkspace).toHaveText(served.items[0]!.name)
  await expect(workspaces.menuItems).toHaveCount(1)
  await expect(workspaces.singleWorkspaceNote).toContainText('--home')
  await expect(page.getByTestId('new-workspace')).toHaveCount(0)
  await workspaces.screenshot('single-workspace-menu', testInfo)
})

homeTest(
  'a window whose workspace another window switched away from writes nothing and follows',
  async ({ page, context, token, api }, testInfo) => {
    homeTest.setTimeout(90_000)
    // Arrange: a second workspace (through the API), and two windows on "Local".
    const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.repeatEachIndex}${testInfo.retry || ''}`
    const sandbox = `Sandbox ${suffix}`
    const stray = `Stray ${suffix}`
    const created = (await (await api.post('/app/workspaces', { data: { name: sandbox } })).json()) as { id: string }
    const first = new WorkspacesPage(page)
    const second = new WorkspacesPage(await context.newPage())
    const secondSpaces = new SpacesPage(second.page)
    for (const window of [first, second]) {
      await window.open(token)
      await window.waitUntilReady()
      await expect(window.currentWorkspace).toHaveText('Local')
    }
    const spaceTitles = async () => {
      const orgId = ((await (await api.get('/v1/orgs')).json()) as { items: { id: string }[] }).items[0]!.id
      return ((await (await api.get(`/v1/orgs/${orgId}/spaces`)).json()) as { items: { title: string }[] }).items.map((s) => s.title)
    }

    try {
      // Act: the second window starts a space in "Local"; meanwhile the first switches; then the second submits.
      await second.page.getByTestId('new-space').click()
      await second.page.getByTestId('space-title-input').fill(stray)
      await first.switchTo(sandbox)
      await expect(first.currentWorkspace).toHaveText(sandbox)
      await second.page.getByTestId('space-dialog-submit').click()

      // Assert: the second window says what happened and now shows the workspace that is open; nothing was written.
      await expect(second.page.getByTestId('toast-info')).toContainText('Another window switched to another workspace')
      await expect(second.currentWorkspace).toHaveText(sandbox)
      await expect(second.page.getByTestId('toast-error')).toHaveCount(0)
      await expect(secondSpaces.pageTitle).toHaveText('Spaces')
      await expect(second.page.getByTestId('content-empty').or(secondSpaces.tree)).toBeVisible()
      await expect(secondSpaces.row(stray)).toHaveCount(0)
      expect(await spaceTitles(), 'the workspace now open did not get the space meant for the other one').not.toContain(stray)
      await second.screenshot('workspace-switched-elsewhere', testInfo)
    } finally {
      // Leave the worker's home as the other tests expect it: "Local" active, no extra workspace.
      await api.post('/app/workspaces/local/activate')
      await api.delete(`/app/workspaces/${created.id}`)
    }
    expect(await spaceTitles()).not.toContain(stray)
  }
)

homeTest('back up a workspace, and open the file as a new workspace with the same spaces', async ({ page, token, api }, testInfo) => {
  homeTest.setTimeout(120_000)
  // Arrange: a workspace holding a space (through the API), and the app on "Local".
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.repeatEachIndex}${testInfo.retry || ''}`
  const handbook = `Handbook ${suffix}`
  const restored = `Restored ${suffix}`
  const guide = `Guide ${suffix}`
  const original = (await (await api.post('/app/workspaces', { data: { name: handbook } })).json()) as { id: string }
  await api.post(`/app/workspaces/${original.id}/activate`)
  const orgId = ((await (await api.get('/v1/orgs')).json()) as { items: { id: string }[] }).items[0]!.id
  expect((await api.post(`/v1/orgs/${orgId}/spaces`, { data: { title: guide } })).status()).toBe(201)
  await api.post('/app/workspaces/local/activate')
  const workspaces = new WorkspacesPage(page)
  const spaces = new SpacesPage(page)
  await workspaces.open(token)
  await workspaces.waitUntilReady()

  try {
    // Act: back it up from Manage workspaces
    await workspaces.openManage()
    const download = await workspaces.backUp(handbook)

    // Assert: a workspace file named after it and the day
    const filename = download.suggestedFilename()
    expect(filename).toMatch(/^handbook-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.quire\.db$/)
    await workspaces.expectSuccess(`Backed up “${handbook}” as ${filename}`)
    const file = testInfo.outputPath(filename)
    await download.saveAs(file)
    expect(readFileSync(file).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0')

    // A file that is not a workspace is refused, beside the file field
    const notes = testInfo.outputPath('notes.db')
    writeFileSync(notes, 'not a database')
    await workspaces.submitWorkspaceFile(notes, restored)
    await expect(workspaces.openFileDialog).toContainText('Is not a Quire workspace: it is not an SQLite database')
    await workspaces.screenshots('open-workspace-file-refused', testInfo)

    // Named from the file, the backup's name is the original's: taken, said by the name field
    await workspaces.openFileDialog.getByRole('button', { name: 'Cancel' }).click()
    await workspaces.expectDialogsClosed()
    await workspaces.submitWorkspaceFile(file)
    await expect(workspaces.fileNameInput).toHaveValue(handbook)
    await expect(workspaces.fileNameInput).toHaveAttribute('aria-invalid', 'true')
    await expect(workspaces.fileNameInput).toHaveAccessibleDescription(`A workspace named “${handbook}” already exists`)

    // Named anew, it opens as a new workspace; switched to, its space is there
    await workspaces.submitWorkspaceFile(file, restored)
    await expect(page.getByTestId('workspace-switch-now')).toBeVisible()
    await workspaces.expectSuccess(`Workspace “${restored}” opened from ${filename}`)
    await workspaces.screenshots('workspace-opened-from-file', testInfo)
    await workspaces.switchNow(restored)
    await expect(spaces.row(guide)).toBeVisible()
    const list = (await (await api.get('/app/workspaces')).json()) as WorkspaceList
    expect(list.items.map((w) => w.name)).toEqual(expect.arrayContaining([handbook, restored]))
  } finally {
    // Leave the worker's home as the other tests expect it: "Local" active, no extra workspace.
    await api.post('/app/workspaces/local/activate')
    const list = (await (await api.get('/app/workspaces')).json()) as WorkspaceList
    for (const w of list.items) if (w.id !== 'local') await api.delete(`/app/workspaces/${w.id}`)
  }
})

homeTest(
  'a workspace whose file was damaged is shown with a warning, says why and what to do, and can be removed',
  async ({ page, token, api, home }, testInfo) => {
    homeTest.setTimeout(120_000)
    // Arrange: a workspace whose database another program then overwrote.
    const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.repeatEachIndex}${testInfo.retry || ''}`
    const broken = `Broken ${suffix}`
    const created = (await (await api.post('/app/workspaces', { data: { name: broken } })).json()) as { id: string }
    const file = join(home, 'workspaces', created.id, 'quire.db')
    writeFileSync(file, 'overwritten by another program')
    const workspaces = new WorkspacesPage(page)
    await workspaces.open(token)
    await workspaces.waitUntilReady()

    try {
      // Act: switch to it
      await workspaces.openMenu()
      await workspaces.menuItem(broken).click()

      // Assert: refused, saying why; the app stays where it was, and lists the workspace with a warning
      await expect(workspaces.errorToasts).toContainText(`Workspace “${broken}” cannot be opened: ${file} is not a Quire workspace`)
      await expect(workspaces.currentWorkspace).toHaveText('Local')
      await workspaces.openMenu()
      await expect(workspaces.menuItem(broken).getByTestId('workspace-item-problem')).toHaveText('Cannot be opened')
      await expect(workspaces.menuItem(broken).locator('[data-icon="problem"]')).toBeVisible()
      await workspaces.screenshots('workspace-menu-broken', testInfo)

      // It leads to Manage workspaces, which says why, where the file is and what to do
      await workspaces.menuItem(broken).click()
      await expect(workspaces.manageDialog).toBeVisible()
      await expect(workspaces.row(broken).getByTestId('workspace-problem-badge')).toHaveText('Not a workspace')
      await expect(workspaces.problem(broken)).toContainText(
        `Cannot be opened: ${file} is not a Quire workspace: it is not an SQLite database`
      )
      await expect(workspaces.problem(broken)).toContainText('Restore it from a backup with “Open workspace file…”, or remove it.')
      await expect(workspaces.row(broken).getByTestId('workspace-backup')).toHaveCount(0)
      await expect(workspaces.row('Local').getByTestId('workspace-backup')).toBeVisible()
      await workspaces.screenshots('manage-workspaces-broken', testInfo)
      await workspaces.delete(broken, /cannot be opened/)
      await workspaces.expectSuccess(`Workspace “${broken}” deleted`)
      expect(((await (await api.get('/app/workspaces')).json()) as WorkspaceList).items.map((w) => w.name)).toEqual(['Local'])
    } finally {
      await api.delete(`/app/workspaces/${created.id}`)
    }
  }
)
