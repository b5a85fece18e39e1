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
  mergeMantineTheme,
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
  components: {
    Button: Button.extend({ defaultProps: { size: 'sm' } }),
    ActionIcon: ActionIcon.extend({ defaultProps: { variant: 'subtle', color: 'gray' } }),
    TextInput: TextInput.extend({ defaultProps: { size: 'sm' } }),
    Select: Select.extend({ defaultProps: { size: 'sm', allowDeselect: false, checkIconPosition: 'right' } }),
    // lockScroll off: the page never scrolls the body (the shell's main area does), and the scroll lock
    // would inject a <style> element (react-remove-scroll-bar) that the CSP refuses.
    Modal: Modal.extend({ defaultProps: { centered: true, radius: 'md', lockScroll: false, overlayProps: { backgroundOpacity: 0.35, blur: 2 } } }),
    Drawer: Drawer.extend({ defaultProps: { lockScroll: false } }),
    Menu: Menu.extend({ defaultProps: { shadow: 'md', radius: 'md', position: 'bottom-end', withinPortal: true } }),
    Tooltip: Tooltip.extend({ defaultProps: { openDelay: 400, withArrow: true } }),
    Paper: Paper.extend({ defaultProps: { withBorder: true, radius: 'md' } }),
    // Sentence-case badges read calmer than Mantine's default capitals.
    Badge: Badge.extend({ defaultProps: { variant: 'light', radius: 'sm', tt: 'none', fw: 500 } }),
  },
})

/**
 * Mantine normally writes the theme's CSS variables into a <style> element, which the strict CSP of
 * index.html (style-src 'self') refuses. The provider runs with `withCssVariables={false}` and the same
 * variables go in through a constructed stylesheet instead: CSSOM is not subject to style-src.
 */
export function adoptThemeCssVariables(): void {
  const merged = mergeMantineTheme(DEFAULT_THEME, theme)
  const css = convertCssVariables(defaultCssVariablesResolver(merged))
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(css)
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
}
