import type { Integration } from '../../api/types.ts'

type Scope = Integration['scopes'][number]
type Category = Integration['categories'][number]

export const CATEGORY_LABELS: Record<Category, string> = {
  analytics: 'Analytics',
  collaboration: 'Collaboration',
  content: 'Content',
  marketing: 'Marketing',
  'visitor-auth': 'Visitor authentication',
  other: 'Other'
}

/** What each scope lets the integration do, as the integration's page lists it. */
export const SCOPE_LABELS: Record<Scope, string> = {
  'space:views:read': 'Read how often pages of spaces are viewed',
  'space:content:read': 'Read the content of spaces',
  'space:content:write': 'Change the content of spaces',
  'space:metadata:read': 'Read spaces’ titles and settings',
  'space:metadata:write': 'Change spaces’ titles and settings',
  'space:git:sync': 'Sync spaces with a Git repository',
  'space:visitor:auth': 'Authenticate the readers of spaces',
  'site:views:read': 'Read how often pages of sites are viewed',
  'site:script:inject': 'Add a script to the pages of sites',
  'site:script:cookies': 'Set cookies for the readers of sites',
  'site:metadata:read': 'Read sites’ settings',
  'site:visitor:auth': 'Authenticate the readers of sites',
  'site:visitor:claims': 'Read what sites know about their readers',
  'site:adaptive:read': 'Read sites’ adaptive content',
  'site:adaptive:write': 'Change sites’ adaptive content',
  'openapi:read': 'Read OpenAPI specifications',
  'openapi:write': 'Change OpenAPI specifications',
  'conversations:ingest': 'Send conversations in for analysis'
}

export type PlaceKind = 'organization' | 'space' | 'site'

/** Where an integration can be installed: the organization always (it holds the others), spaces and sites by its target. */
export function installablePlaces(target: Integration['target']): PlaceKind[] {
  if (target === 'organization') return ['organization']
  if (target === 'space') return ['organization', 'space']
  if (target === 'site') return ['organization', 'site']
  return ['organization', 'space', 'site']
}

export const PLACE_LABELS: Record<PlaceKind, string> = { organization: 'The organization', space: 'A space', site: 'A site' }

export const STATUS_LABELS = { active: 'Active', pending: 'Needs configuration', paused: 'Paused' } as const
export const STATUS_COLORS = { active: 'teal', pending: 'yellow', paused: 'gray' } as const
