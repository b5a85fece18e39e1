import { describe, expect, it } from 'vitest'
import type { SiteCustomization } from '../../api/types.ts'
import { PREVIEW_CUSTOMIZATION } from '../../../../src-shared/schemas/siteCustomization.ts'
import { changedFields, customizationPatch, customizationValues, formPathOf } from './customization.ts'

const stored: SiteCustomization = {
  title: 'Docs',
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346ddb', dark: '#6b9cff' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#02b36a', dark: '#02b36a' },
    warningColor: { light: '#f2a100', dark: '#f2a100' },
    dangerColor: { light: '#fb4d3d', dark: '#fb4d3d' },
    corners: 'rounded',
    links: 'default',
    font: 'Inter',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'prominent',
    depth: 'flat',
    codeTheme: {
      default: { light: 'monochrome-light', dark: 'monochrome-dark' },
      openapi: { light: 'monochrome-light', dark: 'monochrome-dark' }
    },
    background: 'plain'
  },
  internationalization: { locale: 'en' },
  favicon: {},
  // What the server answers for the settings the preview does not let anyone change.
  ...PREVIEW_CUSTOMIZATION
}

describe('customization form', () => {
  const before = customizationValues(stored)

  it('reads the nested shape into flat values, with an empty tint when there is none', () => {
    expect(before).toMatchObject({ title: 'Docs', theme: 'clean', sidebarList: 'default', locale: 'en' })
    expect(before.colors.primaryColor).toEqual({ light: '#346ddb', dark: '#6b9cff' })
    expect(before.colors.tint).toEqual({ light: '', dark: '' })
  })

  it('sends only what changed, nested as the API merges it', () => {
    const after = structuredClone(before)
    after.theme = 'bold'
    after.colors.primaryColor.light = '#ff0000'
    after.sidebarList = 'pill'
    after.colors.tint = { light: '#eeeeff', dark: '' }
    after.locale = 'fr'
    expect(customizationPatch(before, after)).toEqual({
      styling: {
        theme: 'bold',
        // The pair goes whole: the API would copy a light colour sent alone into the dark one.
        primaryColor: { light: '#ff0000', dark: '#6b9cff' },
        sidebar: { list: 'pill' },
        tint: { color: { light: '#eeeeff' } }
      },
      internationalization: { locale: 'fr' }
    })
    expect(changedFields(before, after)).toEqual(['Theme', 'Sidebar list', 'Language', 'Primary colour', 'Tint'])
  })

  it('sends nothing when nothing changed, and never an emptied colour', () => {
    expect(customizationPatch(before, structuredClone(before))).toEqual({})
    const after = structuredClone(before)
    after.colors.infoColor.dark = ''
    expect(customizationPatch(before, after)).toEqual({})
  })

  it('finds the field an API error names', () => {
    expect(formPathOf('styling.primaryColor.dark')).toBe('colors.primaryColor.dark')
    expect(formPathOf('styling.tint.color.light')).toBe('colors.tint.light')
    expect(formPathOf('styling.sidebar.list')).toBe('sidebarList')
    expect(formPathOf('styling.font')).toBe('font')
    expect(formPathOf('internationalization.locale')).toBe('locale')
    expect(formPathOf('title')).toBe('title')
    expect(formPathOf('favicon')).toBeNull()
  })
})
