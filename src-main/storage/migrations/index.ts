import { sql as init } from './0001_init'
import { sql as membersTeams } from './0002_members_teams'
import { sql as collectionsCustomFields } from './0003_collections_custom_fields'
import { sql as content } from './0005_content'
import { sql as sites } from './0006_sites'
import { sql as comments } from './0007_comments'
import { sql as documentSections } from './0008_document_sections'
import { sql as openapiIntegrations } from './0010_openapi_integrations'
import { sql as gitSync } from './0011_git_sync'
import { sql as searchKeys } from './0012_search_keys'
import { sql as reusableContents } from './0013_reusable_contents'
import { sql as blockTagSections } from './0014_block_tag_sections'
import { sql as syncOutbox } from './0015_sync_outbox'
import { sql as siteVisitorSettings } from './0016_site_visitor_settings'
import { sql as shareLinkKeyHashes } from './0017_share_link_key_hashes'
import { sql as textInEveryLanguage } from './0018_text_in_every_language'
import { run as convertRevisionDeltas, sql as revisionDeltas } from './0019_revision_deltas'
import { sql as unreferencedContent } from './0020_unreferenced_content'
import { packDocuments, sql as textStoredOnce } from './0021_text_stored_once'
import { sql as idempotencyKeys } from './0022_idempotency_keys'
import { sql as outboxExactlyOnce } from './0023_outbox_exactly_once'
import { sql as searchInstances } from './0024_search_instances'
import { sql as siteGrants } from './0025_site_grants'
import { sql as gitConnections } from './0026_git_connections'
import { sql as integrationTargets } from './0027_integration_targets'
import { sql as openapiProcessErrors } from './0028_openapi_process_errors'
import { sql as reviews } from './0029_reviews'
import { sql as siteRedirects } from './0030_site_redirects'
import { sql as auditEvents } from './0031_audit_events'
import { sql as installationUpdatedAt } from './0032_installation_updated_at'
import { sql as reviewComments } from './0033_review_comments'
import { sql as auditCausedBy } from './0034_audit_caused_by'
import { sql as dropSearchInstances } from './0035_drop_search_instances'
import type { Db } from '../database'

/**
 * Numbered, append-only. Kept as TypeScript modules (not .sql files) so the same import works under Node,
 * vitest and the electron-vite bundle without a loader. `run`, when a step needs more than SQL, runs after `sql`
 * in the same transaction.
 */
export const migrations: { version: number; name: string; sql: string; run?: (db: Db) => void }[] = [
  { version: 1, name: 'init', sql: init },
  { version: 2, name: 'members_teams', sql: membersTeams },
  { version: 3, name: 'collections_custom_fields', sql: collectionsCustomFields },
  { version: 5, name: 'content', sql: content },
  { version: 6, name: 'sites', sql: sites },
  { version: 7, name: 'comments', sql: comments },
  { version: 8, name: 'document_sections', sql: documentSections },
  { version: 10, name: 'openapi_integrations', sql: openapiIntegrations },
  { version: 11, name: 'git_sync', sql: gitSync },
  { version: 12, name: 'search_keys', sql: searchKeys },
  { version: 13, name: 'reusable_contents', sql: reusableContents },
  { version: 14, name: 'block_tag_sections', sql: blockTagSections },
  { version: 15, name: 'sync_outbox', sql: syncOutbox },
  { version: 16, name: 'site_visitor_settings', sql: siteVisitorSettings },
  { version: 17, name: 'share_link_key_hashes', sql: shareLinkKeyHashes },
  { version: 18, name: 'text_in_every_language', sql: textInEveryLanguage },
  { version: 19, name: 'revision_deltas', sql: revisionDeltas, run: convertRevisionDeltas },
  { version: 20, name: 'unreferenced_content', sql: unreferencedContent },
  { version: 21, name: 'text_stored_once', sql: textStoredOnce, run: packDocuments },
  { version: 22, name: 'idempotency_keys', sql: idempotencyKeys },
  { version: 23, name: 'outbox_exactly_once', sql: outboxExactlyOnce },
  { version: 24, name: 'search_instances', sql: searchInstances },
  { version: 25, name: 'site_grants', sql: siteGrants },
  { version: 26, name: 'git_connections', sql: gitConnections },
  { version: 27, name: 'integration_targets', sql: integrationTargets },
  { version: 28, name: 'openapi_process_errors', sql: openapiProcessErrors },
  { version: 29, name: 'reviews', sql: reviews },
  { version: 30, name: 'site_redirects', sql: siteRedirects },
  { version: 31, name: 'audit_events', sql: auditEvents },
  { version: 32, name: 'installation_updated_at', sql: installationUpdatedAt },
  { version: 33, name: 'review_comments', sql: reviewComments },
  { version: 34, name: 'audit_caused_by', sql: auditCausedBy },
  { version: 35, name: 'drop_search_instances', sql: dropSearchInstances }
]
