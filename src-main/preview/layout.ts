import type { SiteCustomization } from '../../src-shared/schemas/siteCustomization'
import type { SiteRow } from '../storage/repositories/siteRepository'
import { escapeHtml as e } from './markdown'
import type { Located, NavSection, NavSiteSpace, PageNode, VisibleStructure } from './navigation'

export interface PageView {
  site: SiteRow
  customization: SiteCustomization
  structure: VisibleStructure
  located?: Located
  pages: PageNode[]
  current?: PageNode
  /** Sanitized HTML of the current page's document. */
  body: string
  /** The href of a preview path (segments under the site), keeping the visitor's query claims. */
  href: (segments: string[]) => string
}

const RADIUS = { straight: '0', rounded: '6px', circular: '16px' } as const

function styles(c: SiteCustomization): string {
  const s = c.styling
  // Colours and enums reach here validated by the customization schema (hex colours, fixed words).
  return `:root{--primary:${s.primaryColor.light};--radius:${RADIUS[s.corners] ?? '6px'};--tint:${s.tint?.color?.light ?? '#f6f7f9'}}
@media (prefers-color-scheme: dark){:root{--primary:${s.primaryColor.dark}}}
*{box-sizing:border-box}body{margin:0;font-family:'${e(s.font)}',system-ui,sans-serif;color:#1d1d1f;line-height:1.6}
header{display:flex;gap:2rem;align-items:center;padding:.75rem 1.5rem;border-bottom:1px solid #e5e5e5}
header .site-title{font-weight:700;color:inherit;text-decoration:none}
nav ul{list-style:none;margin:0;padding:0}
.sections ul{display:flex;gap:1rem;flex-wrap:wrap}.sections .group{font-size:.8rem;color:#666}
.layout{display:flex;min-height:calc(100vh - 60px)}
aside{width:280px;padding:1rem;border-right:1px solid #e5e5e5;background:${s.sidebar.background === 'filled' ? 'var(--tint)' : 'transparent'}}
aside ul ul{padding-left:1rem}
a{color:var(--primary)}a[aria-current=page]{font-weight:700}
main{flex:1;padding:2rem 3rem;max-width:60rem}
pre{background:#f6f7f9;padding:1rem;border-radius:var(--radius);overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25rem .5rem}
.variants{margin-bottom:1rem}.empty{color:#666}
.gb-hint{--hint:#3b82f6;margin:0 0 1rem;padding:.5rem 1rem;border-left:4px solid var(--hint);border-radius:var(--radius);background:color-mix(in srgb,var(--hint) 9%,transparent)}
.gb-hint-success{--hint:#16a34a}.gb-hint-warning{--hint:#d97706}.gb-hint-danger{--hint:#dc2626}
.gb-tab,.gb-step,.gb-column,.gb-embed,.gb-file{margin:0 0 .5rem;padding:.5rem 1rem;border:1px solid #e5e5e5;border-radius:var(--radius)}
.gb-title{font-weight:600;font-size:.9rem;color:#555}.gb-include>.gb-title,.gb-include-missing{display:none}`
}

/** Link pages may point anywhere on the web, but never at script (javascript:, data: and the like). */
function safeHref(href: string | undefined): string {
  return href && /^(https?:|mailto:|\/|#)/i.test(href) ? href : '#'
}

function link(href: string, label: string, current: boolean, attrs = ''): string {
  return `<a href="${e(href)}"${current ? ' aria-current="page"' : ''}${attrs}>${e(label)}</a>`
}

function sectionsNav(view: PageView): string {
  if (!view.structure.hasSections) return ''
  const current = view.located?.section?.section.id
  const item = (s: NavSection) =>
    `<li data-section="${e(s.section.id)}">${link(view.href([s.section.path]), s.section.title, s.section.id === current)}</li>`
  const items = view.structure.items.map((i) =>
    i.kind === 'section'
      ? item(i)
      : `<li class="group" data-section-group="${e(i.group.id)}"><span>${e(i.group.title)}</span><ul>${i.sections.map(item).join('')}</ul></li>`
  )
  return `<nav class="sections" aria-label="Sections"><ul>${items.join('')}</ul></nav>`
}

function siteSpacesNav(view: PageView): string {
  const list: NavSiteSpace[] = view.located?.section?.siteSpaces ?? view.structure.rootSiteSpaces
  if (list.length < 2 && view.structure.hasSections) return ''
  const current = view.located?.siteSpace.row.id
  const items = list.map((ss) => `<li data-site-space="${e(ss.row.id)}">${link(view.href(ss.segments), ss.space.title, ss.row.id === current)}</li>`)
  return `<nav class="variants" aria-label="Site spaces"><ul>${items.join('')}</ul></nav>`
}

function pagesNav(view: PageView): string {
  const base = view.located?.siteSpace.segments ?? []
  const tree = (nodes: PageNode[]): string =>
    nodes.length
      ? `<ul>${nodes
          .map((n) => {
            const label = `${n.page.emoji ? `${n.page.emoji} ` : ''}${n.page.title}`
            const target = n.page.type === 'link' ? safeHref(n.page.props.href) : view.href([...base, ...n.path.split('/')])
            return `<li data-page="${e(n.page.id)}">${link(target, label, n.page.id === view.current?.page.id)}${tree(n.children)}</li>`
          })
          .join('')}</ul>`
      : ''
  return `<nav class="pages" aria-label="Pages">${tree(view.pages)}</nav>`
}

/** The whole HTML document of one preview page. */
export function renderLayout(view: PageView): string {
  const c = view.customization
  const page = view.current?.page
  const title = page ? `${page.title} · ${c.title}` : c.title
  const robots = view.site.visibility === 'public' ? '' : '<meta name="robots" content="noindex">'
  const article = page
    ? `<h1>${e(page.title)}</h1>${page.description ? `<p class="description">${e(page.description)}</p>` : ''}${view.body}`
    : '<p class="empty">Nothing is published here yet.</p>'
  return `<!doctype html>
<html lang="${e(c.internationalization.locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>${robots}<style>${styles(c)}</style></head>
<body class="theme-${e(c.styling.theme)}" data-site="${e(view.site.id)}">
<header><a class="site-title" href="${e(view.href([]))}">${e(c.title)}</a>${sectionsNav(view)}</header>
<div class="layout"><aside>${siteSpacesNav(view)}${pagesNav(view)}</aside>
<main><article>${article}</article></main></div>
</body></html>`
}

/** A bare page for 401 and 404 answers (says nothing about what exists). */
export function renderError(status: 401 | 404): string {
  const message = status === 401 ? 'This site is only for authenticated visitors.' : 'There is nothing here.'
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${status}</title></head><body><main><h1>${status}</h1><p>${message}</p></main></body></html>`
}
