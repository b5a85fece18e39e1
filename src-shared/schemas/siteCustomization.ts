import Type, { type TSchema } from 'typebox'
import { patterned, StringEnum } from './common'

// Enumerations api-v1.md leaves out; these are the hosted service's values.
export const THEMES = ['clean', 'muted', 'bold', 'gradient'] as const
export const CORNERS = ['straight', 'rounded', 'circular'] as const
export const LINK_STYLES = ['default', 'accent'] as const
export const ICON_STYLES = ['regular', 'solid', 'duotone', 'light', 'thin'] as const
export const SIDEBAR_BACKGROUNDS = ['default', 'filled'] as const
export const SIDEBAR_LISTS = ['default', 'pill', 'line'] as const
export const SEARCH_STYLES = ['prominent', 'subtle'] as const

const Color = Type.String({
  ...patterned('^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', 'a hex colour, #rgb or #rrggbb'),
  description: 'Hex colour (#rgb or #rrggbb)'
})

const Off = Type.Object({ enabled: Type.Literal(false) })
const CodeTheme = Type.Object({ light: Type.Literal('monochrome-light'), dark: Type.Literal('monochrome-dark') })

/** Styling the local preview has but does not let anyone change: answered as it is (not part of the PUT body). */
const PREVIEW_STYLING = {
  /** No shadows or elevation. */
  depth: Type.Literal('flat'),
  /** Code is not syntax-coloured. */
  codeTheme: Type.Object({ default: CodeTheme, openapi: CodeTheme }),
  /** The tint (`tint`) colours the background. */
  background: Type.Literal('plain')
}

/**
 * What the local preview does for the settings the published document has and Quire does not let anyone change:
 * answered as the preview behaves (not part of the PUT body). No header links, footer, announcement, feedback,
 * assistant, page actions, social accounts or tracking cookie; the reader's system colour scheme, no toggle;
 * external links open in the same tab; previous/next links under every page.
 */
const PREVIEW_FIXED = {
  header: Type.Object({ preset: Type.Literal('default'), links: Type.Array(Type.Unknown(), { maxItems: 0 }) }),
  footer: Type.Object({ groups: Type.Array(Type.Unknown(), { maxItems: 0 }) }),
  themes: Type.Object({ default: Type.Literal('system'), toggeable: Type.Literal(false) }),
  feedback: Off,
  ai: Type.Object({ mode: Type.Literal('none') }),
  advancedCustomization: Off,
  trademark: Off,
  externalLinks: Type.Object({ target: Type.Literal('self') }),
  pagination: Type.Object({ enabled: Type.Literal(true) }),
  pageActions: Type.Object({ items: Type.Array(Type.Unknown(), { maxItems: 0 }) }),
  privacyPolicy: Type.Object({}),
  socialPreview: Type.Object({}),
  socialAccounts: Type.Array(Type.Unknown(), { maxItems: 0 }),
  insights: Type.Object({ trackingCookie: Type.Literal(false) })
}

/** Favicon forms a PUT may set. */
const FAVICON_FORMS = [
  Type.Object({
    icon: Type.Object({
      light: Type.String({ format: 'uri', maxLength: 2048 }),
      dark: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 }))
    })
  }),
  Type.Object({ emoji: Type.String({ minLength: 1, maxLength: 50 }) })
] as const

/**
 * The styling members and the customization members that can be set, whole (answers) or with every member
 * optional (the PUT body, merged into what is stored). One builder so the two cannot drift apart.
 */
function settable(partial: boolean) {
  const opt = <T extends TSchema>(schema: T) => (partial ? Type.Optional(schema) : schema)
  const pair = Type.Object({ light: opt(Color), dark: opt(Color) })
  const styling = {
    theme: opt(StringEnum(THEMES)),
    primaryColor: opt(pair),
    tint: Type.Optional(Type.Object({ color: opt(pair) })),
    infoColor: opt(pair),
    successColor: opt(pair),
    warningColor: opt(pair),
    dangerColor: opt(pair),
    corners: opt(StringEnum(CORNERS)),
    links: opt(StringEnum(LINK_STYLES)),
    font: opt(Type.String({ minLength: 1, maxLength: 64, ...patterned('^[A-Za-z0-9 _-]+$', 'letters, digits, spaces, - and _') })),
    icons: opt(StringEnum(ICON_STYLES)),
    sidebar: opt(Type.Object({ background: opt(StringEnum(SIDEBAR_BACKGROUNDS)), list: opt(StringEnum(SIDEBAR_LISTS)) })),
    search: opt(StringEnum(SEARCH_STYLES))
  }
  const rest = {
    title: opt(Type.String({ minLength: 1, maxLength: 128 })),
    internationalization: opt(
      Type.Object({
        locale: opt(
          Type.String({ ...patterned('^[a-z]{2}(-[a-z]{2})?$', 'a language code, like en or pt-br'), description: 'e.g. en, fr, pt-br' })
        )
      })
    )
  }
  return { styling, rest }
}

const whole = settable(false)
export const SiteCustomizationSchema = Type.Object({
  ...whole.rest,
  styling: Type.Object({ ...whole.styling, ...PREVIEW_STYLING }),
  // `{}`: no favicon set.
  favicon: Type.Union([...FAVICON_FORMS, Type.Object({}, { additionalProperties: false })]),
  ...PREVIEW_FIXED
})
export type SiteCustomization = Type.Static<typeof SiteCustomizationSchema>

/** The fixed part of an answer (see PREVIEW_FIXED). */
export const PREVIEW_CUSTOMIZATION: Pick<SiteCustomization, keyof typeof PREVIEW_FIXED> = {
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'system', toggeable: false },
  feedback: { enabled: false },
  ai: { mode: 'none' },
  advancedCustomization: { enabled: false },
  trademark: { enabled: false },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { items: [] },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: false }
}
export const PREVIEW_STYLING_VALUES: Pick<SiteCustomization['styling'], keyof typeof PREVIEW_STYLING> = {
  depth: 'flat',
  codeTheme: {
    default: { light: 'monochrome-light', dark: 'monochrome-dark' },
    openapi: { light: 'monochrome-light', dark: 'monochrome-dark' }
  },
  background: 'plain'
}

const partial = settable(true)
export const SiteCustomizationUpdateSchema = Type.Object({
  ...partial.rest,
  styling: Type.Optional(Type.Object(partial.styling)),
  favicon: Type.Optional(Type.Union([...FAVICON_FORMS]))
})
export type SiteCustomizationUpdate = Type.Static<typeof SiteCustomizationUpdateSchema>
