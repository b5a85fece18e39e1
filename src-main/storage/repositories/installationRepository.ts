import type { Db } from '../database'
import type { InstallationRow } from './integrationRepository'

/** An installation on one space or one site of its organization. */
export interface TargetInstallationRow {
  seq: number
  installation_id: string
  /** The space's or the site's id. */
  target_id: string
  status: string
  configuration: string
  created_at: string
  updated_at: string
}

export type InstallationTarget = 'space' | 'site'

/** Each target's table and column: fixed names, never input. */
const TABLES = {
  space: { table: 'integration_space_installations', column: 'space_id' },
  site: { table: 'integration_site_installations', column: 'site_id' }
} as const

/** An organization's installations (with their integration's name), and their installations on spaces and sites. */
export function installationRepository(db: Db) {
  const byId = db.prepare<[string], InstallationRow>('SELECT * FROM integration_installations WHERE id = ?')
  const ofOrg = db.prepare<[string, number, number], InstallationRow>(
    'SELECT * FROM integration_installations WHERE organization_id = ? AND seq > ? ORDER BY seq LIMIT ?'
  )
  const countOfOrg = db.prepare<[string], number>('SELECT count(*) FROM integration_installations WHERE organization_id = ?').pluck()
  const update = db.prepare(
    'UPDATE integration_installations SET status = @status, configuration = @configuration, external_ids = @external_ids, updated_at = @now WHERE id = @id'
  )
  const clearExternalIds = db.prepare('DELETE FROM integration_installation_external_ids WHERE installation_id = ?')
  const addExternalId = db.prepare(
    'INSERT OR IGNORE INTO integration_installation_external_ids (installation_id, integration_id, external_id, installation_seq) VALUES (?, ?, ?, ?)'
  )
  const remove = db.prepare('DELETE FROM integration_installations WHERE id = ?')
  const countSpaces = db.prepare<[string], { installation_id: string; spaces: number }>(
    `SELECT n.installation_id, count(*) AS spaces FROM integration_space_installations n JOIN spaces s ON s.id = n.space_id
     WHERE n.installation_id IN (SELECT value FROM json_each(?)) AND s.deleted_at IS NULL GROUP BY n.installation_id`
  )

  function statements(target: InstallationTarget) {
    const { table, column } = TABLES[target]
    // A space in the trash is not listed (its installation comes back with it); sites are deleted outright.
    const live = target === 'space' ? 'AND EXISTS (SELECT 1 FROM spaces s WHERE s.id = t.space_id AND s.deleted_at IS NULL)' : ''
    const select = `SELECT t.seq, t.installation_id, t.${column} AS target_id, t.status, t.configuration, t.created_at, t.updated_at FROM ${table} t`
    return {
      get: db.prepare<[string, string], TargetInstallationRow>(`${select} WHERE t.installation_id = ? AND t.${column} = ?`),
      page: db.prepare<[string, number, number], TargetInstallationRow>(
        `${select} WHERE t.installation_id = ? AND t.seq > ? ${live} ORDER BY t.seq LIMIT ?`
      ),
      count: db.prepare<[string], number>(`SELECT count(*) FROM ${table} t WHERE t.installation_id = ? ${live}`).pluck(),
      insert: db.prepare<[string, string, string, string, string, string]>(
        `INSERT INTO ${table} (installation_id, ${column}, status, configuration, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`
      ),
      update: db.prepare<[string, string, string, string, string]>(
        `UPDATE ${table} SET status = ?, configuration = ?, updated_at = ? WHERE installation_id = ? AND ${column} = ?`
      ),
      remove: db.prepare<[string, string]>(`DELETE FROM ${table} WHERE installation_id = ? AND ${column} = ?`)
    }
  }
  const targets = { space: statements('space'), site: statements('site') }

  return {
    get: (id: string) => byId.get(id),
    listOfOrg: (organizationId: string, after: number, limit: number) => ofOrg.all(organizationId, after, limit),
    countOfOrg: (organizationId: string) => countOfOrg.get(organizationId)!,
    /** How many spaces (not in the trash) each of a page of installations is installed on, in one query. */
    spaceCounts(installationIds: string[]): Map<string, number> {
      return new Map(countSpaces.all(JSON.stringify(installationIds)).map((r) => [r.installation_id, r.spaces]))
    },
    update(row: InstallationRow, values: { status: string; configuration: object; external_ids: string[] }, now: string): InstallationRow {
      update.run({
        id: row.id,
        status: values.status,
        configuration: JSON.stringify(values.configuration),
        external_ids: JSON.stringify(values.external_ids),
        now
      })
      clearExternalIds.run(row.id)
      for (const externalId of values.external_ids) addExternalId.run(row.id, row.integration_id, externalId, row.seq)
      return byId.get(row.id)!
    },
    /** Uninstall: its space and site installations and external ids go with it (foreign keys cascade). */
    remove: (id: string) => remove.run(id).changes > 0,

    target: (target: InstallationTarget, installationId: string, targetId: string) => targets[target].get.get(installationId, targetId),
    listTargets: (target: InstallationTarget, installationId: string, after: number, limit: number) =>
      targets[target].page.all(installationId, after, limit),
    countTargets: (target: InstallationTarget, installationId: string) => targets[target].count.get(installationId)!,
    installOn(
      target: InstallationTarget,
      installationId: string,
      targetId: string,
      status: string,
      configuration: object,
      now: string
    ): TargetInstallationRow {
      targets[target].insert.run(installationId, targetId, status, JSON.stringify(configuration), now, now)
      return targets[target].get.get(installationId, targetId)!
    },
    updateTarget(
      target: InstallationTarget,
      row: TargetInstallationRow,
      status: string,
      configuration: object,
      now: string
    ): TargetInstallationRow {
      targets[target].update.run(status, JSON.stringify(configuration), now, row.installation_id, row.target_id)
      return targets[target].get.get(row.installation_id, row.target_id)!
    },
    removeTarget: (target: InstallationTarget, installationId: string, targetId: string) =>
      targets[target].remove.run(installationId, targetId).changes > 0
  }
}
