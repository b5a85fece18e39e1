import type { Db } from '../database'
import { newId } from '../ids'
import type { TeamRow } from './teamRepository'

export interface SamlProviderRow {
  seq: number
  id: string
  organization_id: string
  label: string
  sso_url: string | null
  entity_id: string | null
  certificate: string | null
  default_team_id: string | null
  default_role: string | null
  created_at: string
  updated_at: string
}

export type SamlProviderInput = Pick<
  SamlProviderRow,
  'label' | 'sso_url' | 'entity_id' | 'certificate' | 'default_team_id' | 'default_role'
>
export type SamlProviderPatch = Partial<SamlProviderInput & Pick<SamlProviderRow, 'updated_at'>>

export function samlRepository(db: Db) {
  const byId = db.prepare<[string, string], SamlProviderRow>('SELECT * FROM saml_providers WHERE organization_id = ? AND id = ?')
  const inOrg = db.prepare<[string, number, number], SamlProviderRow>(
    'SELECT * FROM saml_providers WHERE organization_id = ? AND seq > ? ORDER BY seq LIMIT ?'
  )
  const allInOrg = db.prepare<[string], SamlProviderRow>('SELECT * FROM saml_providers WHERE organization_id = ? ORDER BY seq')
  const countInOrg = db.prepare<[string], number>('SELECT count(*) FROM saml_providers WHERE organization_id = ?').pluck()
  const insert = db.prepare(
    `INSERT INTO saml_providers (id, organization_id, label, sso_url, entity_id, certificate, default_team_id, default_role, created_at, updated_at)
     VALUES (@id, @organization_id, @label, @sso_url, @entity_id, @certificate, @default_team_id, @default_role, @created_at, @updated_at)`
  )
  const remove = db.prepare('DELETE FROM saml_providers WHERE organization_id = ? AND id = ?')
  // Default teams of many providers at once (the teams area has no batch read by id).
  const teamsById = db.prepare<[string], TeamRow>('SELECT * FROM teams WHERE id IN (SELECT value FROM json_each(?))')

  return {
    get: (organizationId: string, id: string) => byId.get(organizationId, id),
    /** Keyset-paged on `seq` (creation order). */
    listInOrg: (organizationId: string, afterSeq: number, limit: number) => inOrg.all(organizationId, afterSeq, limit),
    allInOrg: (organizationId: string) => allInOrg.all(organizationId),
    countInOrg: (organizationId: string) => countInOrg.get(organizationId)!,
    create(organizationId: string, input: SamlProviderInput, now: string): SamlProviderRow {
      const id = newId()
      insert.run({ ...input, id, organization_id: organizationId, created_at: now, updated_at: now })
      return byId.get(organizationId, id)!
    },
    update(organizationId: string, id: string, patch: SamlProviderPatch): void {
      const keys = Object.keys(patch) as (keyof SamlProviderPatch)[]
      if (!keys.length) return
      // Column names come from the typed patch keys, never from input.
      db.prepare(
        `UPDATE saml_providers SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE organization_id = @organization_id AND id = @id`
      ).run({ ...patch, organization_id: organizationId, id })
    },
    remove: (organizationId: string, id: string) => remove.run(organizationId, id).changes > 0,
    defaultTeams(ids: Iterable<string>): TeamRow[] {
      const list = [...new Set(ids)]
      return list.length ? teamsById.all(JSON.stringify(list)) : []
    }
  }
}
