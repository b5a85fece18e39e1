import {
  ActionIcon,
  Badge,
  Button,
  DEFAULT_THEME,
  Drawer,
  Menu,
  Modal,
  Paper,
  Select,
  TextInput,
  Tooltip,
  convertCssVariables,
  createTheme,
  defaultCssVariablesResolver,
  mergeMantineTheme
} from '@mantine/core'

/** One calm theme for the whole app: indigo accents, neutral greys, system fonts, medium radii. */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: 'md',
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  fontFamilyMonospace: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
  headings: { fontWeight: '600' },
  fontSizes: { xs: '0.75rem', sm: '0.8125rem', md: '0.875rem', lg: '1rem', xl: '1.125rem' },
  cursorType: 'pointer',
  // Users who ask their system for less motion get no transitions (modals, menus, popovers appear at once).
  respectReducedMotion: true,
  components: {
    Button: Button.extend({ defaultProps: { size: 'sm' } }),
    ActionIcon: ActionIcon.extend({ defaultProps: { variant: 'subtle', color: 'gray' } }),
    TextInput: TextInput.extend({ defaultProps: { size: 'sm' } }),
    Select: Select.extend({ defaultProps: { size: 'sm', allowDeselect: false, checkIconPosition: 'right' } }),
    // lockScroll off: the page never scrolls the body (the shell's main area does), and the scroll lock
    // would inject a <style> element (react-remove-scroll-bar) that the CSP refuses.
    Modal: Modal.extend({
      defaultProps: { centered: true, radius: 'md', lockScroll: false, overlayProps: { backgroundOpacity: 0.35, blur: 2 } }
    }),
    Drawer: Drawer.extend({ defaultProps: { lockScroll: false } }),
    Menu: Menu.extend({ defaultProps: { shadow: 'md', radius: 'md', position: 'bottom-end', withinPortal: true } }),
    Tooltip: Tooltip.extend({ defaultProps: { openDelay: 400, withArrow: true } }),
    Paper: Paper.extend({ defaultProps: { withBorder: true, radius: 'md' } }),
    // Sentence-case badges read calmer than Mantine's default capitals.
    Badge: Badge.extend({ defaultProps: { variant: 'light', radius: 'sm', tt: 'none', fw: 500 } })
  }
})

/** Dimmed text colours (4.7–5.2:1 light, 4.5–6.3:1 dark on the app's backgrounds). */
export const DIMMED = { light: '#666d75', dark: '#a0a0a0' }

/**
 * Mantine normally writes the theme's CSS variables into a <style> element, which the strict CSP of
 * index.html (style-src 'self') refuses. The provider runs with `withCssVariables={false}` and the same
 * variables go in through a constructed stylesheet instead: CSSOM is not subject to style-src.
 */
export function adoptThemeCssVariables(): void {
  const merged = mergeMantineTheme(DEFAULT_THEME, theme)
  const variables = defaultCssVariablesResolver(merged)
  // Mantine's dimmed text (gray-6 on white: 3.3:1; dark-2 on dark-7: 4.0:1) is below WCAG's 4.5:1 for body text.
  // These keep the quiet look at ≥ 4.5:1 on the body, the subtle background and a hovered row, in both schemes.
  variables.light['--mantine-color-dimmed'] = DIMMED.light
  variables.dark['--mantine-color-dimmed'] = DIMMED.dark
  const css = convertCssVariables(variables)
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(css)
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
}
