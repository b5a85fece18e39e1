import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, expect } from '../fixtures/server.ts'
import { EditorPage } from '../pages/editorPage.ts'
import { GitPage } from '../pages/gitPage.ts'
import { json, spaceWithPages } from './seed.ts'

/** Runs git (the binary the machine has) and answers its output, trimmed. */
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Spec Author', '-c', 'user.email=spec@example.com', '-c', 'init.defaultBranch=main', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  }).trim()

test('the Git tab connects a space to a repository, exports to it, and offers import first or force when the branch moved', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(120_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const dir = mkdtempSync(join(tmpdir(), 'quire-git-spec-'))
  try {
    // Arrange: a space with two pages and an empty bare repository on this computer.
    const { spaceId } = await spaceWithPages(api, `Git ${suffix}`, ['Overview', 'Install'])
    const bare = join(dir, 'docs.git')
    git('init', '--bare', '-b', 'main', bare)
    const gitPage = new GitPage(page)
    await new EditorPage(page).openSpace(token, spaceId)
    await gitPage.tab.click()
    await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}/git$`))

    // Act: connect the space to the repository.
    await gitPage.url.fill(bare)
    await gitPage.branch.fill('main')
    await gitPage.connect.click()

    // Assert: the connection is shown, nothing synced yet.
    await expect(gitPage.connection).toBeVisible()
    await expect(page.getByTestId('git-connection-url')).toHaveText(bare)
    await expect(page.getByTestId('git-connection-branch')).toHaveText('main')
    await expect(page.getByTestId('git-never-synced')).toBeVisible()
    await gitPage.waitUntilReady()
    await gitPage.screenshots('git-connected', testInfo)

    // Export: the commit the screen shows is the branch's head in the repository.
    await gitPage.exportButton.click()
    await expect(gitPage.finished('succeeded')).toBeVisible({ timeout: 30_000 })
    const head = git('--git-dir', bare, 'log', '-1', '--format=%H', 'main')
    await expect(gitPage.commit).toHaveText(head.slice(0, 7))
    expect(git('--git-dir', bare, 'log', '-1', '--format=%s', 'main')).toBe('Update from Quire')
    expect(git('--git-dir', bare, 'ls-tree', '--name-only', 'main').split('\n')).toEqual(
      expect.arrayContaining(['README.md', 'SUMMARY.md'])
    )
    await gitPage.screenshots('git-exported', testInfo)

    // Someone commits to the branch outside the app.
    const work = join(dir, 'work')
    git('clone', bare, work)
    const installFile = git('-C', work, 'ls-files', '*install*.md')
    writeFileSync(join(work, installFile), `${readFileSync(join(work, installFile), 'utf8')}\nRun it twice.\n`)
    git('-C', work, 'commit', '-am', 'Edit install outside')
    git('-C', work, 'push', 'origin', 'main')
    const outside = git('--git-dir', bare, 'log', '-1', '--format=%H', 'main')

    // Exporting now stops: the screen says the branch moved and offers both ways out.
    await gitPage.exportButton.click()
    await expect(gitPage.nonFastForward).toBeVisible({ timeout: 30_000 })
    await expect(gitPage.nonFastForward).toContainText('has commits this space has not imported')
    await expect(gitPage.importFirst).toBeEnabled()
    await expect(gitPage.forceExport).toBeEnabled()
    expect(git('--git-dir', bare, 'log', '-1', '--format=%H', 'main')).toBe(outside)
    await gitPage.screenshots('git-non-fast-forward', testInfo)

    // Import first: the outside edit reaches the page; the space is in step with that commit.
    await gitPage.importFirst.click()
    await expect(gitPage.finished('succeeded')).toBeVisible({ timeout: 30_000 })
    await expect(gitPage.commit).toHaveText(outside.slice(0, 7))
    // (an import matches pages by their Git path, which an export does not give them: look the page up by title)
    const tree = await json<{ pages: { id: string; title: string }[] }>(api.get(`/v1/spaces/${spaceId}/content/pages`))
    const install = tree.pages.find((p) => p.title === 'Install')!
    const imported = await json<{ markdown: string }>(api.get(`/v1/spaces/${spaceId}/content/page/${install.id}`))
    expect(imported.markdown).toContain('Run it twice.')

    // Another outside commit, then a forced export after the confirmation says what it overwrites.
    writeFileSync(join(work, installFile), '# Install\n\nReplaced outside.\n')
    git('-C', work, 'commit', '-am', 'Replace install outside')
    git('-C', work, 'push', 'origin', 'main')
    const moved = git('--git-dir', bare, 'log', '-1', '--format=%H', 'main')
    await gitPage.exportButton.click()
    await expect(gitPage.nonFastForward).toBeVisible({ timeout: 30_000 })
    await gitPage.forceExport.click()
    await expect(gitPage.forceDialog).toContainText('is overwritten')
    await expect(gitPage.forceDialog).toContainText('stay in the branch’s history')
    await gitPage.confirmForce.click()
    await expect(gitPage.finished('succeeded')).toBeVisible({ timeout: 30_000 })
    const forced = git('--git-dir', bare, 'log', '-1', '--format=%H %P', 'main').split(' ')
    expect(forced[1]).toBe(moved) // committed on top of the moved branch: its history stays
    await expect(gitPage.commit).toHaveText(forced[0]!.slice(0, 7))
    expect(git('--git-dir', bare, 'show', `main:${installFile}`)).toContain('Run it twice.')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
