import type { Site } from '../../api/types.ts'

type Visibility = Site['visibility']

// In the schema's order. Not imported from src-shared (TypeBox would enter the bundle); `satisfies` keeps step.
export const VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const satisfies readonly Visibility[]

export const VISIBILITY_LABELS: Record<Visibility, string> = {
  public: 'Public',
  unlisted: 'Unlisted',
  'share-link': 'Share link',
  'visitor-auth': 'Visitor authentication'
}

export const VISIBILITY_DESCRIPTIONS: Record<Visibility, string> = {
  public: 'Anyone can read it, and search engines index it',
  unlisted: 'Anyone with the address can read it; not indexed',
  'share-link': 'Only people with an active share link can read it',
  'visitor-auth': 'Readers sign in through your product (a visitor token)'
}

export const visibilityOptions = () => VISIBILITIES.map((v) => ({ value: v, label: VISIBILITY_LABELS[v] }))
