import { test, expect } from '../fixtures/server.ts'
import { json, orgIdOf } from '../content/seed.ts'
import { IntegrationsPage } from '../pages/integrationsPage.ts'

const svg = (body: string, w: number, h: number) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`).toString('base64')
const ICON = svg(
  '<rect width="64" height="64" rx="14" fill="#5b5bd6"/><path d="M18 34l10 10 18-22" stroke="#fff" stroke-width="7" fill="none"/>',
  64,
  64
)
const PREVIEW = svg(
  '<rect width="480" height="240" fill="#eef0ff"/><rect x="24" y="24" width="432" height="36" rx="6" fill="#5b5bd6"/>' +
    '<rect x="24" y="80" width="300" height="16" rx="4" fill="#b8bdf0"/><rect x="24" y="108" width="380" height="16" rx="4" fill="#b8bdf0"/>',
  480,
  240
)

test('install an integration on a space with a configuration, change it, uninstall it', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`.toLowerCase()
  const name = `notify-${suffix}`
  const title = `Notify ${suffix}`
  const spaceTitle = `Handbook ${suffix}`
  const orgId = await orgIdOf(api)
  const space = await json<{ id: string }>(api.post(`/v1/orgs/${orgId}/spaces`, { data: { title: spaceTitle } }))
  const publish = (integration: string, body: Record<string, unknown>) =>
    json(
      api.post(`/v1/integrations/${integration}`, {
        data: { script: 'export default {}', organization: orgId, visibility: 'public', ...body }
      })
    )
  await publish(name, {
    title,
    description: 'Posts a message when pages change',
    summary: 'Keeps your team in the loop: each merged change request is announced in the channel of the space.',
    icon: ICON,
    previewImages: [PREVIEW],
    categories: ['collaboration'],
    scopes: ['space:content:read', 'space:metadata:read'],
    externalLinks: [{ url: 'https://example.com/notify', label: 'Documentation' }],
    target: 'space',
    configurations: {
      space: {
        properties: {
          channel: { type: 'string', title: 'Channel', description: 'Where messages go, like #docs' },
          digest: { type: 'string', title: 'Digest', enum: ['daily', 'weekly'] },
          batch: { type: 'number', title: 'Batch size' },
          mentions: { type: 'boolean', title: 'Mention authors' }
        },
        required: ['channel']
      }
    }
  })
  await publish(`stats-${suffix}`, { title: `Stats ${suffix}`, description: 'Page views and reader trends', categories: ['analytics'] })

  const screen = new IntegrationsPage(page)
  await screen.open(token)
  await screen.waitUntilReady()
  await screen.navigate('integrations')
  await expect(screen.pageTitle).toHaveText('Integrations')
  await expect(screen.card(title)).toBeVisible()
  await screen.screenshots('integrations-registry', testInfo)

  // search and filter by category
  await screen.search(suffix)
  await expect(screen.cards).toHaveCount(2)
  await screen.filterCategory('Analytics')
  await expect(screen.cards).toHaveCount(1)
  await expect(screen.card(`Stats ${suffix}`)).toBeVisible()
  await screen.filterCategory('Collaboration')
  await expect(screen.cards).toHaveCount(1)
  await screen.card(title).click()

  // its page: what it asks for, where it installs, links
  await expect(screen.pageTitle).toContainText(title)
  await expect(page.getByTestId('integration-scopes')).toContainText('Read the content of spaces')
  await expect(page.getByTestId('integration-places')).toHaveText('The organization, A space')
  await expect(page.getByTestId('integration-link')).toHaveAttribute('href', 'https://example.com/notify')
  await expect(page.getByTestId('not-installed')).toBeVisible()
  await expect(page.getByTestId('integration-previews').locator('img')).toHaveJSProperty('complete', true)
  await screen.screenshots('integration-page', testInfo)

  // install on a space: the form comes from the space schema; required and the API's refusals land on their fields
  await page.getByTestId('install-integration').click()
  const install = screen.installDialog
  await install.getByTestId('install-place').getByText('Space', { exact: true }).click()
  await screen.choose(install.getByRole('combobox', { name: 'Space' }), spaceTitle)
  await install.getByTestId('confirm-install').click()
  await screen.expectFieldError(install, 'channel', 'Required')
  await screen.field(install, 'Channel').fill('#docs')
  await screen.field(install, 'Batch size').fill('many')
  await screen.choose(install.getByRole('combobox', { name: 'Digest' }), 'weekly')
  await install.getByTestId('confirm-install').click()
  await screen.expectFieldError(install, 'batch', 'Must be number')
  // the refused install left nothing behind: the organization installation it made first is taken back
  await expect(page.getByTestId('not-installed')).toBeVisible()
  await screen.screenshots('integration-install-dialog', testInfo)
  await screen.field(install, 'Batch size').fill('5')
  await install.getByTestId('confirm-install').click()
  await screen.expectSuccess(`${title} installed on “${spaceTitle}”`)
  await screen.expectDialogsClosed()

  // listed as installed: the organization and the space
  await expect(screen.orgPlace.getByTestId('installed-place-status')).toHaveText('Active')
  await expect(screen.place(spaceTitle).getByTestId('installed-place-status')).toHaveText('Active')
  const installationId = (
    await json<{ items: { installation: { id: string; integration: string } }[] }>(api.get(`/v1/orgs/${orgId}/installations`))
  ).items.find((i) => i.installation.integration === name)!.installation.id
  const spaceInstallation = `/v1/integrations/${name}/installations/${installationId}/spaces/${space.id}`
  expect((await json<{ configuration: unknown }>(api.get(spaceInstallation))).configuration).toEqual({
    channel: '#docs',
    digest: 'weekly',
    batch: 5,
    mentions: false
  })

  // change its configuration
  await screen.place(spaceTitle).getByTestId('configure-place').click()
  const configure = screen.configureDialog
  await expect(screen.field(configure, 'Channel')).toHaveValue('#docs')
  await screen.field(configure, 'Channel').fill('#handbook')
  await configure.getByLabel('Mention authors').check()
  await configure.getByTestId('save-configuration').click()
  await screen.expectSuccess(`${title} configured on “${spaceTitle}”`)
  await screen.expectDialogsClosed()
  expect((await json<{ configuration: unknown }>(api.get(spaceInstallation))).configuration).toEqual({
    channel: '#handbook',
    digest: 'weekly',
    batch: 5,
    mentions: true
  })
  await screen.screenshots('integration-installed', testInfo)

  // the registry shows it installed
  await page.getByTestId('back-to-integrations').click()
  await expect(page.getByTestId('installed-integrations').getByText(title, { exact: true })).toBeVisible()
  await screen.card(title).click()

  // uninstall from the organization: the confirmation says the space goes too
  await screen.orgPlace.getByTestId('uninstall-place').click()
  await expect(page.getByTestId('uninstall-what-goes')).toHaveText(
    'It is removed from the organization, and from the 1 space it is installed on, with its configuration.'
  )
  await page.getByTestId('confirm-uninstall').click()
  await screen.expectSuccess(`${title} uninstalled`)
  await expect(page.getByTestId('not-installed')).toBeVisible()
  expect((await api.get(spaceInstallation)).status()).toBe(404)
})
