import {
  SiteRedirectBulkResultSchema,
  SiteRedirectBulkSchema,
  SiteRedirectBySourceQuery,
  SiteRedirectCreateSchema,
  SiteRedirectList,
  SiteRedirectListQuery,
  SiteRedirectParams,
  SiteRedirectResolvedSchema,
  SiteRedirectSchema,
  SiteRedirectUpdateSchema,
  type SiteRedirectBulkResult,
  type SiteRedirectInputDestination
} from '../../../../src-shared/schemas/siteRedirects'
import { NoContent } from '../../../../src-shared/schemas/common'
import { SiteParams } from '../../../../src-shared/schemas/sites'
import { badRequest, conflict, notFound } from '../../../base/errors'
import { PageTree } from '../../../content/pageTree'
import { loadPages } from '../../../content/revisions'
import { matchRedirect, pagePathIn, redirectTarget, withSuffix, type RedirectDestination } from '../../../preview/redirects'
import type { SiteRow } from '../../../storage/repositories/siteRepository'
import {
  siteRedirectRepository,
  sourceKey,
  type SiteRedirectPatch,
  type SiteRedirectRow
} from '../../../storage/repositories/siteRedirectRepository'
import { siteSpaceRepository } from '../../../storage/repositories/siteSpaceRepository'
import { spaceRepository } from '../../../storage/repositories/spaceRepository'
import { read, write, type Ctx } from '../../../workspace/context'
import type { Api } from '../../app'
import { cachedCount, decodeCursor, DEFAULT_LIMIT, envelope } from '../../pagination'
import { presentSiteRedirect } from '../../presenters/siteRedirect'
import { publishedUrl } from '../../presenters/site'
import { checkShareKey, loadSite, sectionInSite, siteSpaceInSite } from './loaders'

const tags = ['Site redirects']
const base = '/v1/orgs/:organizationId/sites/:siteId'

/**
 * A destination as stored: a section, site space or page must be the site's (a page in its site space's current
 * content), an external URL http(s); a `path` is stored as the page it names. `field` prefixes the messages.
 */
function checkDestination(ctx: Ctx, site: SiteRow, input: SiteRedirectInputDestination, field: string): RedirectDestination {
  switch (input.kind) {
    case 'external':
      if (!/^https?:\/\//i.test(input.url)) throw badRequest(`${field}.url: must be an http or https URL`)
      return { kind: 'external', url: input.url }
    case 'site-section':
      return { kind: 'site-section', siteSectionId: sectionInSite(ctx, site, input.siteSectionId, `${field}.siteSectionId`).id }
    case 'site-space':
      return { kind: 'site-space', siteSpaceId: siteSpaceInSite(ctx, site, input.siteSpaceId, `${field}.siteSpaceId`).id }
    case 'site-page': {
      const siteSpace = siteSpaceInSite(ctx, site, input.siteSpaceId, `${field}.siteSpaceId`)
      if (!pagePathIn(ctx.db, siteSpace, input.pageId))
        throw badRequest(`${field}.pageId: no page ${input.pageId} in the site space's content`)
      return { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: input.pageId }
    }
    case 'path': {
      const siteSpace = ctx
        .repo(siteSpaceRepository)
        .inSite(site.id)
        .find((ss) => ss.space_id === input.spaceId)
      if (!siteSpace) throw badRequest(`${field}.spaceId: the site shows no space ${input.spaceId}`)
      const revision = ctx.repo(spaceRepository).get(siteSpace.space_id)?.revision_id
      const wanted = input.path.replace(/^\/+|\/+$/g, '')
      const paths = revision ? PageTree.readOnly(loadPages(ctx.db, revision)).paths() : new Map<string, string>()
      const pageId = [...paths].find(([, path]) => path === wanted)?.[0]
      if (!pageId) throw badRequest(`${field}.path: no page at ${JSON.stringify(input.path)} in the space`)
      return { kind: 'site-page', siteSpaceId: siteSpace.id, pageId }
    }
  }
}

/** 409 when another redirect of the site (live or draft, as `draft` says) already has this source. */
function checkSourceFree(ctx: Ctx, site: SiteRow, source: string, draft: boolean, except?: string, field = 'source') {
  const other = ctx.repo(siteRedirectRepository).bySource(site.id, draft, source)
  if (other && other.id !== except) throw conflict(`${field}: the site already has a ${draft ? 'draft' : 'live'} redirect from ${source}`)
}

function loadRedirect(ctx: Ctx, site: SiteRow, id: string): SiteRedirectRow {
  const row = ctx.repo(siteRedirectRepository).get(id)
  if (!row || row.site_id !== site.id) throw notFound('Site redirect')
  return row
}

const countKey = (siteId: string, draft: boolean, search?: string) => `site-redirects:${siteId}:${draft ? 1 : 0}:${search ?? ''}`

export default function siteRedirectRoutes(app: Api) {
  app.get(
    `${base}/redirects`,
    {
      schema: {
        tags,
        summary: 'Redirects of a site (live ones unless draft=true)',
        params: SiteParams,
        querystring: SiteRedirectListQuery,
        response: { 200: SiteRedirectList }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'view')
        const repo = ctx.repo(siteRedirectRepository)
        const limit = req.query.limit ?? DEFAULT_LIMIT
        const draft = req.query.draft ?? false
        const order = req.query.orderBy ?? 'createdAt'
        const search = req.query.search || undefined
        const after =
          order === 'createdAt'
            ? decodeCursor(req.query.page, ['integer'])
            : order === 'source'
              ? decodeCursor(req.query.page, ['string'])
              : decodeCursor(req.query.page, ['string', 'integer'])
        const rows = repo.list({ siteId: site.id, draft, order, search, after, limit: limit + 1 })
        const count = cachedCount(ctx, countKey(site.id, draft, search), () => repo.count(site.id, draft, search))
        const key = (r: SiteRedirectRow) =>
          order === 'createdAt' ? [r.seq] : order === 'source' ? [r.source] : [r.updated_at ?? r.created_at, r.seq]
        return envelope(rows, limit, count, key, (page) => page.map(presentSiteRedirect))
      })
  )

  app.post(
    `${base}/redirects`,
    {
      schema: {
        tags,
        summary: 'Create a redirect of a site',
        params: SiteParams,
        body: SiteRedirectCreateSchema,
        response: { 201: SiteRedirectSchema }
      }
    },
    async (req, reply) => {
      const body = write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'redirect')
        const draft = req.body.draft ?? false
        const destination = checkDestination(ctx, site, req.body.destination, 'destination')
        checkSourceFree(ctx, site, req.body.source, draft)
        const row = ctx.repo(siteRedirectRepository).create({
          site_id: site.id,
          source: req.body.source,
          draft: draft ? 1 : 0,
          capture_wildcard: req.body.captureWildcard ? 1 : 0,
          permanent: req.body.permanent ? 1 : 0,
          destination: JSON.stringify(destination),
          created_at: ctx.now
        })
        return presentSiteRedirect(row)
      })
      return reply.code(201).send(body)
    }
  )

  app.put(
    `${base}/redirects`,
    {
      schema: {
        tags,
        summary: 'Create, update, delete or publish up to 500 redirects in one transaction (a bad row refuses them all)',
        params: SiteParams,
        body: SiteRedirectBulkSchema,
        response: { 200: SiteRedirectBulkResultSchema }
      }
    },
    async (req) =>
      write(req, (ctx): SiteRedirectBulkResult => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'redirect')
        const repo = ctx.repo(siteRedirectRepository)
        const seen = new Set<string>()
        const results = req.body.redirects.map((item, i): SiteRedirectBulkResult['results'][number] => {
          const field = `redirects.${i}`
          const intent = item.intent ?? 'live'
          const draft = intent === 'draft'
          // Two rows for one source and target would make the answer depend on their order.
          const key = `${intent === 'publish' ? 'live' : intent}:${item.source}`
          if (seen.has(key)) throw badRequest(`${field}.source: ${item.source} is already in this batch`)
          seen.add(key)
          if (intent === 'publish') {
            const pending = repo.bySource(site.id, true, item.source)
            if (!pending) throw badRequest(`${field}.source: no draft redirect from ${item.source} to publish`)
            const live = repo.bySource(site.id, false, item.source)
            if (live) repo.remove(live.id)
            repo.update(pending.id, { draft: 0, updated_at: ctx.now })
            return { status: 'published', source: item.source, draft: false, id: pending.id }
          }
          if (item.destination === undefined) throw badRequest(`${field}.destination: is required`)
          const existing = repo.bySource(site.id, draft, item.source)
          if (item.destination === null) {
            // Deleting what is not there leaves the site as asked: the row still reads `deleted`.
            if (existing) repo.remove(existing.id)
            return { status: 'deleted', source: item.source, draft }
          }
          const destination = JSON.stringify(checkDestination(ctx, site, item.destination, `${field}.destination`))
          if (existing) {
            const patch: SiteRedirectPatch = { destination, updated_at: ctx.now }
            if (item.captureWildcard !== undefined) patch.capture_wildcard = item.captureWildcard ? 1 : 0
            if (item.permanent !== undefined) patch.permanent = item.permanent ? 1 : 0
            repo.update(existing.id, patch)
            return { status: 'updated', source: item.source, draft, id: existing.id }
          }
          const row = repo.create({
            site_id: site.id,
            source: item.source,
            draft: draft ? 1 : 0,
            capture_wildcard: item.captureWildcard ? 1 : 0,
            permanent: item.permanent ? 1 : 0,
            destination,
            created_at: ctx.now
          })
          return { status: 'created', source: item.source, draft, id: row.id }
        })
        return { results }
      })
  )

  app.patch(
    `${base}/redirects/:siteRedirectId`,
    {
      schema: {
        tags,
        summary: 'Change a redirect of a site (only the fields given)',
        params: SiteRedirectParams,
        body: SiteRedirectUpdateSchema,
        response: { 200: SiteRedirectSchema }
      }
    },
    async (req) =>
      write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'redirect')
        const row = loadRedirect(ctx, site, req.params.siteRedirectId)
        const patch: SiteRedirectPatch = { updated_at: ctx.now }
        if (req.body.destination !== undefined)
          patch.destination = JSON.stringify(checkDestination(ctx, site, req.body.destination, 'destination'))
        if (req.body.captureWildcard !== undefined) patch.capture_wildcard = req.body.captureWildcard ? 1 : 0
        if (req.body.permanent !== undefined) patch.permanent = req.body.permanent ? 1 : 0
        if (req.body.draft !== undefined) patch.draft = req.body.draft ? 1 : 0
        if (req.body.source !== undefined) patch.source = req.body.source
        checkSourceFree(ctx, site, patch.source ?? row.source, !!(patch.draft ?? row.draft), row.id)
        const repo = ctx.repo(siteRedirectRepository)
        repo.update(row.id, patch)
        return presentSiteRedirect(repo.get(row.id)!)
      })
  )

  app.delete(
    `${base}/redirects/:siteRedirectId`,
    {
      schema: {
        tags,
        summary: 'Delete a redirect of a site (205: deleted; 204: there was none)',
        params: SiteRedirectParams,
        response: { 204: NoContent, 205: NoContent }
      }
    },
    async (req, reply) => {
      const removed = write(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'redirect')
        const row = ctx.repo(siteRedirectRepository).get(req.params.siteRedirectId)
        if (!row || row.site_id !== site.id) return false
        ctx.repo(siteRedirectRepository).remove(row.id)
        return true
      })
      return reply.code(removed ? 205 : 204).send()
    }
  )

  app.get(
    `${base}/redirect`,
    {
      schema: {
        tags,
        summary: 'The live redirect a source path of the site meets, and the URL it leads to',
        params: SiteParams,
        querystring: SiteRedirectBySourceQuery,
        response: { 200: SiteRedirectResolvedSchema }
      }
    },
    async (req) =>
      read(req, (ctx) => {
        const site = loadSite(ctx, req.params.organizationId, req.params.siteId, 'view')
        const shareKey = checkShareKey(ctx, site, req.query.shareKey)
        const exact = ctx.repo(siteRedirectRepository).bySource(site.id, false, req.query.source)
        const found = exact ? { redirect: exact, suffix: '' } : matchRedirect(ctx.db, site, sourceKey(req.query.source).match_key)
        if (!found) throw notFound('Site redirect')
        const target = redirectTarget(ctx.db, site, JSON.parse(found.redirect.destination))
        const resolved = target && withSuffix(target, found.redirect.capture_wildcard ? found.suffix : '')
        // A destination since removed from the site leads to the site's front page.
        const url = !resolved
          ? publishedUrl(ctx, site.id, [], shareKey)
          : 'url' in resolved
            ? resolved.url
            : publishedUrl(ctx, site.id, resolved.segments, shareKey)
        return { redirect: presentSiteRedirect(found.redirect), target: url }
      })
  )
}
