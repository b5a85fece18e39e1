import {
  PREVIEW_CUSTOMIZATION,
  PREVIEW_STYLING_VALUES,
  type SiteCustomization,
  type SiteCustomizationUpdate
} from '../../src-shared/schemas/siteCustomization'
import type { SiteRow } from '../storage/repositories/siteRepository'

const pair = (light: string, dark = light) => ({ light, dark })

/** What can be set (the rest of an answer is fixed: PREVIEW_CUSTOMIZATION). */
type Customizable = Omit<SiteCustomization, keyof typeof PREVIEW_CUSTOMIZATION | 'styling' | 'favicon'> & {
  styling: Omit<SiteCustomization['styling'], keyof typeof PREVIEW_STYLING_VALUES>
  favicon?: SiteCustomization['favicon']
}

/** What a site looks like before anything is customized. */
function defaults(site: SiteRow): Customizable {
  return {
    title: site.title,
    styling: {
      theme: 'clean',
      primaryColor: pair('#346ddb', '#6b9cff'),
      infoColor: pair('#787878'),
      successColor: pair('#02b36a'),
      warningColor: pair('#f2a100'),
      dangerColor: pair('#fb4d3d'),
      corners: 'rounded',
      links: 'default',
      font: 'Inter',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'prominent'
    },
    internationalization: { locale: 'en' }
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** `over` merged into `base`, objects member by member; other values (arrays, favicon forms) replace. */
export function deepMerge<T>(base: T, over: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(over)) return (over === undefined ? base : over) as T
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue
    // The two favicon forms (`icon`, `emoji`) replace each other rather than mix.
    out[key] = key === 'favicon' ? value : deepMerge(out[key], value)
  }
  return out as T
}

type Pair = { light?: string; dark?: string }

/** A colour set for one scheme only serves both: a custom light colour must not sit beside a default dark one. */
function completePairs(stored: Record<string, unknown>): Record<string, unknown> {
  const styling = stored.styling as Record<string, unknown> | undefined
  if (!styling) return stored
  const fill = (pair: Pair) => ({ light: pair.light ?? pair.dark, dark: pair.dark ?? pair.light })
  const out: Record<string, unknown> = { ...styling }
  for (const [key, value] of Object.entries(styling)) {
    if (key.endsWith('Color') && isPlainObject(value)) out[key] = fill(value as Pair)
  }
  const tint = (styling.tint as { color?: Pair } | undefined)?.color
  if (tint?.light || tint?.dark) out.tint = { color: fill(tint) }
  else delete out.tint
  return { ...stored, styling: out }
}

/** The stored customization values over the defaults. */
export function presentCustomization(site: SiteRow): SiteCustomization {
  const set = deepMerge(defaults(site), completePairs(site.customization ? JSON.parse(site.customization) : {}))
  // An image set for light only serves dark too (as the preview shows it).
  const favicon =
    set.favicon && 'icon' in set.favicon
      ? { icon: { light: set.favicon.icon.light, dark: set.favicon.icon.dark ?? set.favicon.icon.light } }
      : set.favicon
  // What the preview does not let anyone change comes last, so nothing stored can claim otherwise.
  return { ...set, favicon: favicon ?? {}, styling: { ...set.styling, ...PREVIEW_STYLING_VALUES }, ...PREVIEW_CUSTOMIZATION }
}

/** What to store after a PUT: the values set so far, updated with `update`. */
export function mergeCustomization(site: SiteRow, update: SiteCustomizationUpdate): string {
  return JSON.stringify(deepMerge(site.customization ? JSON.parse(site.customization) : {}, update))
}
