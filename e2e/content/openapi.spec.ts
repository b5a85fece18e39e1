import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test, expect } from '../fixtures/server.ts'
import { OpenAPIPage } from '../pages/openapiPage.ts'
import { json, orgIdOf } from './seed.ts'

// Documents on loopback, as an API's own server would publish them. `/split/pet.yaml` answers only once the
// test releases it, so the processing can be seen while it reads the $ref files.
const BROKEN = 'openapi: 3.0.3\ninfo:\n  title: Broken\n  version: 1.0.0\npaths:\n  /a: [unclosed\n  /b: {}\n'
const PETSTORE = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.2.0
paths:
  /pets:
    get:
      summary: List pets
      responses:
        '200':
          description: The pets
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: 'pet.yaml#/Pet'
`
const PET = 'Pet:\n  type: object\n  properties:\n    name:\n      type: string\n'

let docs: Server
let docsUrl: string
let release: () => void = () => {}
let held = new Promise<void>((resolve) => (release = resolve))
test.beforeAll(async () => {
  docs = createServer((req, res) => {
    const send = (body: string) => res.writeHead(200, { 'content-type': 'application/yaml' }).end(body)
    if (req.url === '/broken.yaml') send(BROKEN)
    else if (req.url === '/split/openapi.yaml') send(PETSTORE)
    else if (req.url === '/split/pet.yaml') void held.then(() => send(PET))
    else res.writeHead(404).end('not found')
  })
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve))
  docsUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`
})
test.afterAll(async () => {
  release()
  docs.closeAllConnections()
  await new Promise<void>((resolve) => docs.close(() => resolve()))
})

test('add a spec that fails to parse, read where, then process a valid one and browse its version', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  held = new Promise<void>((resolve) => (release = resolve))
  const orgId = await orgIdOf(api)
  const slug = `petstore-${testInfo.testId
    .slice(0, 6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')}${testInfo.retry || ''}`
  const app = new OpenAPIPage(page)
  await app.open(token, `/orgs/${orgId}`)
  await app.waitUntilReady()
  await app.navigate('openapi')
  await expect(app.pageTitle).toHaveText('API specs')

  // A YAML syntax error: the spec says so, with the file, line and column, and the lines around it.
  await app.addFromUrl(`${docsUrl}/broken.yaml`, slug)
  await expect(app.status).toHaveText('Failed')
  await expect(app.error).toContainText('The document could not be read')
  await expect(page.getByTestId('spec-error-message')).toContainText('at line 7, column 3')
  await expect(page.getByTestId('spec-error-location')).toHaveText('broken.yaml, line 7, column 3')
  await expect(page.locator('[data-error-line]')).toContainText('/b: {}')
  await expect(page.getByTestId('versions-empty')).toBeVisible()
  await app.screenshots('openapi-spec-error', testInfo)

  // A valid document split over two files: the processing shows its phase while it reads the $ref file.
  await page.getByTestId('spec-replace').click()
  await page.getByTestId('spec-url').fill(`${docsUrl}/split/openapi.yaml`)
  await page.getByTestId('spec-replace-submit').click()
  await expect(app.status).toHaveText('Processing')
  await expect(page.getByTestId('spec-processed-at')).toHaveText('Reading $ref files · 1 file read')
  await expect(page.getByTestId('spec-progress')).toBeVisible()
  await expect(app.error).toHaveCount(0)
  await app.screenshots('openapi-spec-progress', testInfo)
  release()
  await expect(app.status).toHaveText('Ready')
  await expect(app.error).toHaveCount(0)

  // Its version: the document's title and version, its two files, each one's content.
  await expect(page.getByTestId('version-row')).toHaveCount(1)
  await expect(page.getByTestId('version-title')).toContainText('Petstore')
  await expect(page.getByTestId('version-title')).toContainText('1.2.0')
  await expect(page.getByTestId('version-file')).toHaveText(['openapi.yaml', 'pet.yaml'])
  await expect(page.getByTestId('version-file-content')).toContainText('summary: List pets')
  await page.getByRole('tab', { name: 'pet.yaml' }).click()
  await expect(page.getByTestId('version-file-content')).toContainText('name:')
  await app.screenshots('openapi-spec-version', testInfo)

  // The list: the spec is ready; a second one comes from an uploaded file.
  await page.getByTestId('specs-back').click()
  await expect(app.row(slug).getByTestId('spec-status')).toHaveText('Ready')
  await expect(app.row(slug).getByTestId('spec-source')).toHaveText(`${docsUrl}/split/openapi.yaml`)
  const uploaded = `${slug}-file`
  await app.addFromFile(`${uploaded}.yaml`, PETSTORE.replace("$ref: 'pet.yaml#/Pet'", 'type: object'))
  await expect(app.pageTitle).toHaveText(uploaded)
  await expect(app.status).toHaveText('Ready')
  await page.getByTestId('specs-back').click()
  await expect(app.row(uploaded).getByTestId('spec-source')).toHaveText('Uploaded file')
  await app.screenshots('openapi-specs', testInfo)

  // Delete asks first; then the spec is gone from the list and the API.
  await app.row(uploaded).getByTestId('spec-row-menu').click()
  await page.getByRole('menuitem', { name: 'Delete…' }).click()
  await page.getByTestId('spec-delete-confirm').click()
  await app.expectSuccess(`API spec “${uploaded}” deleted`)
  await expect(app.row(uploaded)).toHaveCount(0)
  expect((await api.get(`/v1/orgs/${orgId}/openapi/${uploaded}`)).status()).toBe(404)
  const list = await json<{ items: { slug: string }[] }>(api.get(`/v1/orgs/${orgId}/openapi`))
  expect(list.items.map((s) => s.slug)).toContain(slug)
})
