// The site customization form: the API's nested shape as flat form values, the PUT body of what changed, and
// where an API error about a member belongs in the form. Pure functions: tested in Node.
import type { SiteCustomization } from '../../api/types.ts'

type Styling = SiteCustomization['styling']

type DeepPartial<T> = { [K in keyof T]?: NonNullable<T[K]> extends object ? DeepPartial<NonNullable<T[K]>> : T[K] }
/**
 * The PUT body: any part of the customization. (The shared `SiteCustomizationUpdate` type comes out whole,
 * not partial: its schema builder takes `partial` as a plain boolean, so TypeScript cannot see the optionals.)
 */
export type CustomizationUpdate = DeepPartial<SiteCustomization>

// Enumerations of the customization schema. Not imported from src-shared: that would pull TypeBox into the
// bundle; `satisfies` keeps them in step with the schema.
export const THEMES = ['clean', 'muted', 'bold', 'gradient'] as const satisfies readonly Styling['theme'][]
export const CORNERS = ['straight', 'rounded', 'circular'] as const satisfies readonly Styling['corners'][]
export const LINK_STYLES = ['default', 'accent'] as const satisfies readonly Styling['links'][]
export const ICON_STYLES = ['regular', 'solid', 'duotone', 'light', 'thin'] as const satisfies readonly Styling['icons'][]
export const SIDEBAR_BACKGROUNDS = ['default', 'filled'] as const satisfies readonly Styling['sidebar']['background'][]
export const SIDEBAR_LISTS = ['default', 'pill', 'line'] as const satisfies readonly Styling['sidebar']['list'][]
export const SEARCH_STYLES = ['prominent', 'subtle'] as const satisfies readonly Styling['search'][]

/** The colour pairs of `styling`; `tint` is `styling.tint.color` and the only optional one. */
export const COLOR_KEYS = ['primaryColor', 'tint', 'infoColor', 'successColor', 'warningColor', 'dangerColor'] as const
export type ColorKey = (typeof COLOR_KEYS)[number]

export const COLOR_LABELS: Record<ColorKey, string> = {
  primaryColor: 'Primary colour',
  tint: 'Tint',
  infoColor: 'Info colour',
  successColor: 'Success colour',
  warningColor: 'Warning colour',
  dangerColor: 'Danger colour'
}

export const HEX_COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

export interface CustomizationValues {
  title: string
  theme: Styling['theme']
  corners: Styling['corners']
  links: Styling['links']
  font: string
  icons: Styling['icons']
  sidebarBackground: Styling['sidebar']['background']
  sidebarList: Styling['sidebar']['list']
  search: Styling['search']
  locale: string
  colors: Record<ColorKey, { light: string; dark: string }>
}

type ScalarKey = Exclude<keyof CustomizationValues, 'colors'>

export const FIELD_LABELS: Record<ScalarKey, string> = {
  title: 'Title',
  theme: 'Theme',
  corners: 'Corners',
  links: 'Links',
  font: 'Font',
  icons: 'Icons',
  sidebarBackground: 'Sidebar background',
  sidebarList: 'Sidebar list',
  search: 'Search',
  locale: 'Language'
}

export function customizationValues(c: SiteCustomization): CustomizationValues {
  const s = c.styling
  const pair = (p: { light: string; dark: string } | undefined) => ({ light: p?.light ?? '', dark: p?.dark ?? '' })
  return {
    title: c.title,
    theme: s.theme,
    corners: s.corners,
    links: s.links,
    font: s.font,
    icons: s.icons,
    sidebarBackground: s.sidebar.background,
    sidebarList: s.sidebar.list,
    search: s.search,
    locale: c.internationalization.locale,
    colors: {
      primaryColor: pair(s.primaryColor),
      tint: pair(s.tint?.color),
      infoColor: pair(s.infoColor),
      successColor: pair(s.successColor),
      warningColor: pair(s.warningColor),
      dangerColor: pair(s.dangerColor)
    }
  }
}

/** What changed between two form states, as the labels a person reads ("Theme", "Primary colour"). */
export function changedFields(before: CustomizationValues, after: CustomizationValues): string[] {
  const labels: string[] = []
  for (const key of Object.keys(FIELD_LABELS) as ScalarKey[]) if (before[key] !== after[key]) labels.push(FIELD_LABELS[key])
  for (const key of COLOR_KEYS) {
    const [a, b] = [before.colors[key], after.colors[key]]
    if (a.light !== b.light || a.dark !== b.dark) labels.push(COLOR_LABELS[key])
  }
  return labels
}

/**
 * The PUT body for what changed: the API merges it into what is stored, so untouched members are left out
 * (colour pairs go whole).
 * An emptied tint is not sent (the API cannot remove a tint; it keeps the stored one).
 */
export function customizationPatch(before: CustomizationValues, after: CustomizationValues): CustomizationUpdate {
  const body: CustomizationUpdate = {}
  const styling: NonNullable<CustomizationUpdate['styling']> = {}
  if (before.title !== after.title) body.title = after.title.trim()
  if (before.theme !== after.theme) styling.theme = after.theme
  if (before.corners !== after.corners) styling.corners = after.corners
  if (before.links !== after.links) styling.links = after.links
  if (before.font !== after.font) styling.font = after.font.trim()
  if (before.icons !== after.icons) styling.icons = after.icons
  if (before.search !== after.search) styling.search = after.search
  if (before.sidebarBackground !== after.sidebarBackground || before.sidebarList !== after.sidebarList) {
    styling.sidebar = {}
    if (before.sidebarBackground !== after.sidebarBackground) styling.sidebar.background = after.sidebarBackground
    if (before.sidebarList !== after.sidebarList) styling.sidebar.list = after.sidebarList
  }
  for (const key of COLOR_KEYS) {
    const [a, b] = [before.colors[key], after.colors[key]]
    if ((a.light === b.light || !b.light) && (a.dark === b.dark || !b.dark)) continue
    // The whole pair goes: the API fills a member sent alone into the other one (a light colour alone
    // would replace the dark one too).
    const pair: { light?: string; dark?: string } = {}
    if (b.light) pair.light = b.light
    if (b.dark) pair.dark = b.dark
    if (key === 'tint') styling.tint = { color: pair }
    else styling[key] = pair
  }
  if (Object.keys(styling).length) body.styling = styling
  if (before.locale !== after.locale) body.internationalization = { locale: after.locale.trim() }
  return body
}

/** The form field an API error path names (`styling.tint.color.light` → `colors.tint.light`), or null. */
export function formPathOf(apiPath: string): string | null {
  const parts = apiPath.split('.')
  if (parts[0] === 'title') return 'title'
  if (parts[0] === 'internationalization') return 'locale'
  if (parts[0] !== 'styling' || !parts[1]) return null
  const [, member, ...rest] = parts
  if (member === 'tint') return rest[1] === 'light' || rest[1] === 'dark' ? `colors.tint.${rest[1]}` : 'colors.tint.light'
  if ((COLOR_KEYS as readonly string[]).includes(member!)) return `colors.${member}.${rest[0] === 'dark' ? 'dark' : 'light'}`
  if (member === 'sidebar') return rest[0] === 'list' ? 'sidebarList' : 'sidebarBackground'
  if (member && member in FIELD_LABELS) return member
  return null
}
