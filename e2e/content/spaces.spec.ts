import { test, expect } from '../fixtures/server.ts'
import { SpacesPage } from '../pages/spacesPage.ts'
import { TrashPage } from '../pages/trashPage.ts'
import { json, orgIdOf } from './seed.ts'

test('create a space, rename it, drag it into a collection, delete it and restore it from the trash', async ({
  page,
  token,
  api
}, testInfo) => {
  // A whole user flow of a dozen steps: give it room on a busy CI machine.
  test.setTimeout(90_000)
  // Arrange: names unique to this test and attempt (the worker's server is shared by the tests it runs).
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const collection = `Guides ${suffix}`
  const draft = `Draft ${suffix}`
  const space = `Handbook ${suffix}`
  const spaces = new SpacesPage(page)
  const trash = new TrashPage(page)
  await spaces.open(token)
  await spaces.waitUntilReady()

  // Act + Assert: create
  await spaces.createCollection(collection)
  await spaces.createSpace(draft)
  await spaces.expectSuccess(`Space “${draft}” created`)

  // rename
  await spaces.rename(draft, space)
  await expect(spaces.row(draft)).toHaveCount(0)

  // move into the collection by drag and drop
  await spaces.dragInto(space, collection)
  await spaces.expectSuccess(`Moved “${space}” into “${collection}”`)
  await expect(spaces.row(space)).toHaveAttribute('aria-level', '2')
  const orgId = ((await (await api.get('/v1/orgs')).json()) as { items: { id: string }[] }).items[0]!.id
  const listed = async <T>(path: string) => ((await (await api.get(path)).json()) as { items: T[] }).items
  const moved = (await listed<{ title: string; parent?: string }>(`/v1/orgs/${orgId}/spaces`)).find((s) => s.title === space)
  const into = (await listed<{ id: string; title: string }>(`/v1/orgs/${orgId}/collections`)).find((c) => c.title === collection)
  expect(moved?.parent, 'the API has the new parent').toBe(into?.id)

  // delete, then restore from the trash
  await spaces.delete(space)
  await spaces.navigate('trash')
  await expect(trash.row(space)).toBeVisible()
  await expect(trash.row(space)).toContainText('7 days left')
  await trash.restore(space)
  await trash.expectSuccess(`“${space}” restored`)

  await spaces.navigate('spaces')
  await expect(spaces.row(space)).toBeVisible()
  await expect(spaces.row(space)).toHaveAttribute('aria-level', '2')
  await spaces.screenshot('spaces-after-restore', testInfo)
})

test('a title the API refuses is explained beside the field', async ({ page, token }) => {
  const spaces = new SpacesPage(page)
  await spaces.open(token)
  await spaces.waitUntilReady()

  await page.getByTestId('new-space').click()
  await page.getByTestId('space-title-input').fill('A title far longer than the fifty characters a space may have')
  await page.getByTestId('space-dialog-submit').click()

  // The 400 names `title`, so its message sits under the Title field and the dialog stays open.
  await expect(page.getByTestId('space-dialog').getByText('Must be at most 50 characters')).toBeVisible()
  await expect(page.getByTestId('space-title-input')).toHaveAttribute('aria-invalid', 'true')
})

test('a collection’s page lists the collections in it, with links, and its spaces', async ({ page, token, api }, testInfo) => {
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const orgId = await orgIdOf(api)
  const outer = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/collections`, { data: { title: `Products ${suffix}` } }))
  const inner = await json<{ id: string }>(
    api.post(`/v1/orgs/${orgId}/collections`, { data: { title: `Mobile ${suffix}`, parent: outer.id } })
  )
  await json(api.post(`/v1/orgs/${orgId}/spaces`, { data: { title: `Overview ${suffix}`, parent: outer.id, empty: true } }))
  const spaces = new SpacesPage(page)

  await spaces.open(token, `/collections/${outer.id}`)
  await spaces.waitUntilReady()
  const items = page.getByTestId('collection-items')
  await expect(items.getByRole('link', { name: new RegExp(`Mobile ${suffix}`) })).toBeVisible()
  await expect(items.getByText(`Overview ${suffix}`)).toBeVisible()
  await spaces.screenshot('collection-with-subcollection', testInfo)

  // The sub-collection opens its own page, under its parent in the breadcrumbs.
  await items.getByRole('link', { name: new RegExp(`Mobile ${suffix}`) }).click()
  await expect(page).toHaveURL(new RegExp(`#/collections/${inner.id}$`))
  await expect(page.getByRole('link', { name: `Products ${suffix}` })).toBeVisible()
  await expect(page.getByText('No spaces in this collection')).toBeVisible()
})
