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

const Color = Type.String({ ...patterned('^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', 'a hex colour, #rgb or #rrggbb'), description: 'Hex colour (#rgb or #rrggbb)' })

/**
 * The customization shape, whole (answers) or with every member optional (the PUT body, merged into what is
 * stored). One builder so the two cannot drift apart.
 */
function customization(partial: boolean) {
  const opt = <T extends TSchema>(schema: T) => (partial ? Type.Optional(schema) : schema)
  const pair = Type.Object({ light: opt(Color), dark: opt(Color) })
  return Type.Object({
    title: opt(Type.String({ minLength: 1, maxLength: 128 })),
    styling: opt(
      Type.Object({
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
      })
    ),
    internationalization: opt(Type.Object({ locale: opt(Type.String({ ...patterned('^[a-z]{2}(-[a-z]{2})?$', 'a language code, like en or pt-br'), description: 'e.g. en, fr, pt-br' })) })),
    favicon: Type.Optional(
      Type.Union([
        Type.Object({ icon: Type.Object({ light: Type.String({ format: 'uri', maxLength: 2048 }), dark: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })) }) }),
        Type.Object({ emoji: Type.String({ minLength: 1, maxLength: 50 }) })
      ])
    )
  })
}

export const SiteCustomizationSchema = customization(false)
export type SiteCustomization = Type.Static<typeof SiteCustomizationSchema>

export const SiteCustomizationUpdateSchema = customization(true)
export type SiteCustomizationUpdate = Type.Static<typeof SiteCustomizationUpdateSchema>
