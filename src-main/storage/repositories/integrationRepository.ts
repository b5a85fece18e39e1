import type { Db } from '../database'
import { newId } from '../ids'
import type { OrganizationRow } from './organizationRepository'

export interface IntegrationRow {
  seq: number
  id: string
  name: string
  owner_id: string
  version: number
  title: string
  description: string
  summary: string | null
  /** JSON {hash, contentType} or NULL. */
  icon: string | null
  /** JSON [{hash, contentType}]. */
  preview_images: string
  visibility: string
  target: string
  /** JSON arrays / objects, as published. */
  scopes: string
  categories: string
  blocks: string
  content_sources: string
  external_links: string
  configurations: string
  script: string
  secrets: string
  content_security_policy: string | null
  verified: number
  has_blocks: number
  has_content_sources: number
  created_at: string
  updated_at: string
}

/** What a publish writes: every field of the manifest (a publish replaces the previous one whole). */
export type IntegrationManifest = Omit<
  IntegrationRow,
  'seq' | 'id' | 'name' | 'owner_id' | 'version' | 'verified' | 'created_at' | 'updated_at'
>

export interface InstallationRow {
  seq: number
  id: string
  integration_id: string
  organization_id: string
  status: string
  space_selection: string
  site_selection: string
  configuration: string
  external_ids: string
  created_at: string
  updated_at: string
}

export interface IntegrationFilters {
  /** Lower-cased substring of the name or title. */
  search?: string
  category?: string
  blockDomain?: string
  blocks?: boolean
  contentSources?: boolean
  owner?: string
}

/**
 * The list's WHERE clause for a set of filters. Built from fixed fragments only (never from input), so one
 * statement per combination of filters is prepared and cached; every fragment is served by an index.
 */
function listWhere(f: IntegrationFilters): string {
  // Visible: public ones, and any of the organizations the caller is a non-guest member of (@mine).
  const parts = ["(i.visibility = 'public' OR i.owner_id IN (SELECT value FROM json_each(@mine)))", 'i.seq > @after']
  if (f.search !== undefined) parts.push('(instr(casefold(i.name), @search) > 0 OR instr(casefold(i.title), @search) > 0)')
  if (f.category !== undefined) parts.push('i.id IN (SELECT integration_id FROM integration_categories WHERE category = @category)')
  if (f.blockDomain !== undefined) parts.push('i.id IN (SELECT integration_id FROM integration_block_domains WHERE domain = @blockDomain)')
  if (f.blocks !== undefined) parts.push('i.has_blocks = @blocks')
  if (f.contentSources !== undefined) parts.push('i.has_content_sources = @contentSources')
  if (f.owner !== undefined) parts.push('i.owner_id = @owner')
  return parts.join(' AND ')
}

const SELECT_ORG = `SELECT o.*, (SELECT coalesce(json_group_array(domain), '[]') FROM
  (SELECT domain FROM organization_email_domains d WHERE d.organization_id = o.id ORDER BY position)) AS email_domains
  FROM organizations o`

export function integrationRepository(db: Db) {
  const byName = db.prepare<[string], IntegrationRow>('SELECT * FROM integrations WHERE name = ?')
  const byIds = db.prepare<[string], IntegrationRow>('SELECT * FROM integrations WHERE id IN (SELECT value FROM json_each(?))')
  const insert = db.prepare(
    `INSERT INTO integrations (id, name, owner_id, version, title, description, summary, icon, preview_images, visibility, target,
       scopes, categories, blocks, content_sources, external_links, configurations, script, secrets, content_security_policy,
       has_blocks, has_content_sources, created_at, updated_at)
     VALUES (@id, @name, @owner_id, 1, @title, @description, @summary, @icon, @preview_images, @visibility, @target,
       @scopes, @categories, @blocks, @content_sources, @external_links, @configurations, @script, @secrets, @content_security_policy,
       @has_blocks, @has_content_sources, @now, @now)`
  )
  const republish = db.prepare(
    `UPDATE integrations SET version = version + 1, title = @title, description = @description, summary = @summary, icon = @icon,
       preview_images = @preview_images, visibility = @visibility, target = @target, scopes = @scopes, categories = @categories,
       blocks = @blocks, content_sources = @content_sources, external_links = @external_links, configurations = @configurations,
       script = @script, secrets = @secrets, content_security_policy = @content_security_policy, has_blocks = @has_blocks,
       has_content_sources = @has_content_sources, updated_at = @now
     WHERE id = @id`
  )
  const remove = db.prepare('DELETE FROM integrations WHERE id = ?')
  const clearCategories = db.prepare('DELETE FROM integration_categories WHERE integration_id = ?')
  const addCategory = db.prepare('INSERT OR IGNORE INTO integration_categories (integration_id, category) VALUES (?, ?)')
  const clearDomains = db.prepare('DELETE FROM integration_block_domains WHERE integration_id = ?')
  const addDomain = db.prepare('INSERT OR IGNORE INTO integration_block_domains (integration_id, domain) VALUES (?, ?)')
  const orgById = db.prepare<[string], OrganizationRow>(`${SELECT_ORG} WHERE o.id = ?`)
  const orgByHostname = db.prepare<[string], OrganizationRow>(`${SELECT_ORG} WHERE o.hostname = ?`)
  const orgsByIds = db.prepare<[string], OrganizationRow>(`${SELECT_ORG} WHERE o.id IN (SELECT value FROM json_each(?))`)
  const memberships = db.prepare<[string], { organization_id: string; role: string | null }>(
    'SELECT organization_id, role FROM members WHERE user_id = ? AND disabled = 0'
  )
  const listStatements = new Map<string, { page: ReturnType<Db['prepare']>; count: ReturnType<Db['prepare']> }>()

  const installationsAfter = db.prepare<[string, number, number], InstallationRow>(
    'SELECT * FROM integration_installations WHERE integration_id = ? AND seq > ? ORDER BY seq LIMIT ?'
  )
  const countInstallations = db.prepare<[string], number>('SELECT count(*) FROM integration_installations WHERE integration_id = ?').pluck()
  const installationsByExternalId = db.prepare<[string, string, number, number], InstallationRow>(
    `SELECT n.* FROM integration_installation_external_ids x JOIN integration_installations n ON n.id = x.installation_id
     WHERE x.integration_id = ? AND x.external_id = ? AND x.installation_seq > ? ORDER BY x.installation_seq LIMIT ?`
  )
  const countByExternalId = db
    .prepare<[string, string], number>(
      'SELECT count(*) FROM integration_installation_external_ids WHERE integration_id = ? AND external_id = ?'
    )
    .pluck()
  const installationIn = db.prepare<[string, string], InstallationRow>(
    'SELECT * FROM integration_installations WHERE integration_id = ? AND organization_id = ?'
  )
  const insertInstallation = db.prepare(
    `INSERT INTO integration_installations (id, integration_id, organization_id, status, configuration, external_ids, created_at, updated_at)
     VALUES (@id, @integration_id, @organization_id, @status, @configuration, @external_ids, @now, @now)`
  )
  const installationById = db.prepare<[string], InstallationRow>('SELECT * FROM integration_installations WHERE id = ?')
  const addExternalId = db.prepare(
    'INSERT OR IGNORE INTO integration_installation_external_ids (installation_id, integration_id, external_id, installation_seq) VALUES (?, ?, ?, ?)'
  )

  function writeIndexes(id: string, categories: string[], domains: string[]) {
    clearCategories.run(id)
    for (const c of categories) addCategory.run(id, c)
    clearDomains.run(id)
    for (const d of domains) addDomain.run(id, d)
  }

  return {
    getByName: (name: string) => byName.get(name),
    /** Integrations by id, in one query (any order; each once). */
    getByIds: (ids: string[]) => byIds.all(JSON.stringify([...new Set(ids)])),
    /** First publish: version 1. */
    create(
      name: string,
      ownerId: string,
      manifest: IntegrationManifest,
      index: { categories: string[]; domains: string[] },
      now: string
    ): IntegrationRow {
      const id = newId()
      insert.run({ ...manifest, id, name, owner_id: ownerId, now })
      writeIndexes(id, index.categories, index.domains)
      return byName.get(name)!
    },
    /** A later publish replaces the manifest and bumps the version. */
    republish(
      row: IntegrationRow,
      manifest: IntegrationManifest,
      index: { categories: string[]; domains: string[] },
      now: string
    ): IntegrationRow {
      republish.run({ ...manifest, id: row.id, now })
      writeIndexes(row.id, index.categories, index.domains)
      return byName.get(row.name)!
    },
    /** Unpublish: its categories, domains and installations go with it (foreign keys cascade). */
    remove: (id: string) => remove.run(id).changes > 0,
    /** An organization by id, or by its hostname (the "subdomain" manifests name). */
    organization: (idOrHostname: string) => orgById.get(idOrHostname) ?? orgByHostname.get(idOrHostname.toLowerCase()),
    /** Owner organizations of a page of integrations, in one query. */
    organizations: (ids: string[]) => orgsByIds.all(JSON.stringify([...new Set(ids)])),
    /** The caller's memberships (a user belongs to few organizations): visibility and permissions read them. */
    memberships: (userId: string) => memberships.all(userId),
    list(filters: IntegrationFilters, mine: string[], after: number, limit: number): IntegrationRow[] {
      return statementsFor(filters).page.all({ ...params(filters), mine: JSON.stringify(mine), after, limit }) as IntegrationRow[]
    },
    count(filters: IntegrationFilters, mine: string[]): number {
      return statementsFor(filters).count.get({ ...params(filters), mine: JSON.stringify(mine), after: 0 }) as number
    },

    listInstallations(integrationId: string, externalId: string | undefined, after: number, limit: number): InstallationRow[] {
      return externalId === undefined
        ? installationsAfter.all(integrationId, after, limit)
        : installationsByExternalId.all(integrationId, externalId, after, limit)
    },
    countInstallations: (integrationId: string, externalId: string | undefined) =>
      externalId === undefined ? countInstallations.get(integrationId)! : countByExternalId.get(integrationId, externalId)!,
    installationIn: (integrationId: string, organizationId: string) => installationIn.get(integrationId, organizationId),
    install(
      input: { integration_id: string; organization_id: string; status: string; configuration: object; external_ids: string[] },
      now: string
    ): InstallationRow {
      const id = newId()
      insertInstallation.run({
        ...input,
        id,
        now,
        configuration: JSON.stringify(input.configuration),
        external_ids: JSON.stringify(input.external_ids)
      })
      const row = installationById.get(id)!
      for (const externalId of input.external_ids) addExternalId.run(id, input.integration_id, externalId, row.seq)
      return row
    }
  }

  function statementsFor(filters: IntegrationFilters) {
    const where = listWhere(filters)
    let statements = listStatements.get(where)
    if (!statements) {
      statements = {
        page: db.prepare(`SELECT i.* FROM integrations i WHERE ${where} ORDER BY i.seq LIMIT @limit`),
        count: db.prepare(`SELECT count(*) FROM integrations i WHERE ${where}`).pluck()
      }
      listStatements.set(where, statements)
    }
    return statements
  }
}

/** Named parameters of the filters that are set (better-sqlite3 refuses unused named parameters). */
function params(f: IntegrationFilters): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (f.search !== undefined) out.search = f.search
  if (f.category !== undefined) out.category = f.category
  if (f.blockDomain !== undefined) out.blockDomain = f.blockDomain
  if (f.blocks !== undefined) out.blocks = f.blocks ? 1 : 0
  if (f.contentSources !== undefined) out.contentSources = f.contentSources ? 1 : 0
  if (f.owner !== undefined) out.owner = f.owner
  return out
}
