import type { SiteCustomization } from '../../src-shared/schemas/siteCustomization'
import type { SiteRow } from '../storage/repositories/siteRepository'
import type { OutlineEntry } from './docsBlocks'
import { escapeHtml as e } from './markdown'
import type { Located, NavSection, NavSiteSpace, PageNode, VisibleStructure } from './navigation'

/** A page linked from another (previous / next, search results). */
export interface PageLink {
  href: string
  title: string
}

export interface SearchResults {
  query: string
  hits: (PageLink & { space: string; excerpt?: string })[]
}

export interface PageView {
  site: SiteRow
  customization: SiteCustomization
  structure: VisibleStructure
  located?: Located
  pages: PageNode[]
  current?: PageNode
  /** Sanitized HTML of the current page's document. */
  body: string
  /** The current page's top-level headings ("On this page"). */
  outline?: OutlineEntry[]
  previous?: PageLink
  next?: PageLink
  /** A search results page instead of a page of content. */
  search?: SearchResults
  /** The href of a preview path (segments under the site), keeping the visitor's query claims. */
  href: (segments: string[]) => string
  /** What every link of the page carries (the search form sends it too). */
  carry: Record<string, string>
  /** Where the search form goes and the page's script is (paths under the site). */
  searchPath: string
  scriptPath: string
  /** A draft preview (an unpublished site shown to someone who may edit it) says so. */
  draft?: boolean
  /** The colour scheme asked for (`?scheme=`); else the reader's system setting. */
  scheme?: 'light' | 'dark'
}

const RADIUS = { straight: '0', rounded: '6px', circular: '16px' } as const

/** Each visual theme's header: plain, tinted, in the primary colour, or a gradient of it. */
const THEME_HEADER = {
  clean: 'header{background:var(--bg)}',
  muted: 'header{background:var(--tint)}',
  bold: 'header{background:var(--primary);color:var(--on-primary)}header a,header .site-title{color:var(--on-primary)}',
  gradient:
    'header{background:linear-gradient(90deg,var(--primary),color-mix(in srgb,var(--primary) 45%,var(--bg)));color:var(--on-primary)}header a,header .site-title{color:var(--on-primary)}'
} as const

function styles(c: SiteCustomization): string {
  const s = c.styling
  // Colours and enums reach here validated by the customization schema (hex colours, fixed words).
  const colours = (scheme: 'light' | 'dark') =>
    `--primary:${s.primaryColor[scheme]};--tint:${s.tint?.color?.[scheme] ?? (scheme === 'light' ? '#f6f7f9' : '#1c1f24')};` +
    `--info:${s.infoColor[scheme]};--success:${s.successColor[scheme]};--warning:${s.warningColor[scheme]};--danger:${s.dangerColor[scheme]};` +
    (scheme === 'light'
      ? '--bg:#ffffff;--fg:#1d1d1f;--muted:#5c5f66;--line:#e3e5e8;--code:#f6f7f9;--on-primary:#ffffff;color-scheme:light'
      : '--bg:#15171a;--fg:#e8e9eb;--muted:#a3a7ad;--line:#33373d;--code:#1f2226;--on-primary:#ffffff;color-scheme:dark')
  return `:root{${colours('light')};--radius:${RADIUS[s.corners] ?? '6px'}}
:root[data-scheme=dark]{${colours('dark')}}
@media (prefers-color-scheme: dark){:root:not([data-scheme=light]){${colours('dark')}}}
*{box-sizing:border-box}body{margin:0;font-family:'${e(s.font)}',system-ui,sans-serif;color:var(--fg);background:var(--bg);line-height:1.6}
header{display:flex;gap:1.5rem;align-items:center;padding:.6rem 1.5rem;border-bottom:1px solid var(--line);flex-wrap:wrap}
${THEME_HEADER[s.theme] ?? THEME_HEADER.clean}
header .site-title{display:flex;gap:.5rem;align-items:center;font-weight:700;color:inherit;text-decoration:none}
header .logo{height:28px;width:auto}header .logo-dark{display:none}
:root[data-scheme=dark] header .logo-light{display:none}:root[data-scheme=dark] header .logo-dark{display:inline}
@media (prefers-color-scheme: dark){:root:not([data-scheme=light]) header .logo-light{display:none}:root:not([data-scheme=light]) header .logo-dark{display:inline}}
header .tools{margin-left:auto;display:flex;gap:.5rem;align-items:center}
header input[type=search]{font:inherit;padding:.3rem .6rem;border:1px solid var(--line);border-radius:var(--radius);background:var(--bg);color:var(--fg);width:${s.search === 'subtle' ? '10rem' : '16rem'}}
button{font:inherit;cursor:pointer;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:var(--radius);padding:.2rem .6rem}
nav ul{list-style:none;margin:0;padding:0}
.sections ul{display:flex;gap:1rem;flex-wrap:wrap}.sections .group{font-size:.8rem;opacity:.8}
.draft{background:color-mix(in srgb,var(--warning) 22%,var(--bg));color:var(--fg);padding:.25rem 1.5rem;font-size:.85rem}
.sections a{text-decoration:none;font-weight:500}.sections a[aria-current=page]{text-decoration:underline;text-underline-offset:.35em;text-decoration-thickness:2px}
.layout{display:flex;min-height:calc(100vh - 60px)}
aside{width:260px;flex:none;padding:1rem;border-right:1px solid var(--line);background:${s.sidebar.background === 'filled' ? 'var(--tint)' : 'transparent'}}
aside ul ul{padding-left:1rem}aside li{margin:.1rem 0}
aside .pages a{display:block;padding:.1rem .5rem;border-radius:var(--radius);text-decoration:none;color:var(--fg)}
aside .pages a[aria-current=page]{${s.sidebar.list === 'line' ? 'border-left:2px solid var(--primary);border-radius:0' : 'background:color-mix(in srgb,var(--primary) 14%,transparent)'};color:var(--primary)}
a{color:var(--primary)${s.links === 'accent' ? ';font-weight:600' : ''}}a[aria-current=page]{font-weight:700}
main{flex:1;min-width:0;padding:2rem 3rem;max-width:56rem}
.outline{width:220px;flex:none;padding:2rem 1rem;font-size:.85rem}.outline h2{font-size:.8rem;text-transform:uppercase;color:var(--muted);margin:0 0 .5rem}
.outline a{color:var(--muted);text-decoration:none}.outline a:hover{color:var(--primary)}.outline .depth-3{padding-left:.75rem}
@media (max-width: 900px){.outline{display:none}aside{width:200px}main{padding:1.5rem}}
pre{background:var(--code);padding:1rem;margin:0;border-radius:0 0 var(--radius) var(--radius);overflow:auto}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
.docs-code{margin:0 0 1rem;border:1px solid var(--line);border-radius:var(--radius)}
.docs-code-bar{display:flex;justify-content:space-between;align-items:center;padding:.25rem .5rem .25rem 1rem;border-bottom:1px solid var(--line);font-size:.8rem;color:var(--muted)}
table{border-collapse:collapse}td,th{border:1px solid var(--line);padding:.25rem .5rem}
.variants{margin-bottom:1rem}.empty{color:var(--muted)}
.gb-hint{--hint:var(--info);margin:0 0 1rem;padding:.5rem 1rem;border-left:4px solid var(--hint);border-radius:var(--radius);background:color-mix(in srgb,var(--hint) 12%,transparent)}
.gb-hint-info{--hint:var(--primary)}.gb-hint-success{--hint:var(--success)}.gb-hint-warning{--hint:var(--warning)}.gb-hint-danger{--hint:var(--danger)}
.gb-tab,.gb-step,.gb-column,.gb-embed,.gb-file{margin:0 0 .5rem;padding:.5rem 1rem;border:1px solid var(--line);border-radius:var(--radius)}
.docs-tabs{margin:0 0 1rem;border:1px solid var(--line);border-radius:var(--radius)}
.docs-tablist{display:flex;gap:.25rem;border-bottom:1px solid var(--line);padding:0 .5rem}
.docs-tablist button{border:0;border-bottom:2px solid transparent;border-radius:0;background:none;padding:.5rem .75rem;color:var(--muted)}
.docs-tablist button[aria-selected=true]{border-bottom-color:var(--primary);color:var(--primary);font-weight:600}
.docs-tabs>.gb-tab{border:0;margin:0}.gb-tab[hidden]{display:none}
.gb-title{font-weight:600;font-size:.9rem;color:var(--muted)}.gb-include>.gb-title,.gb-include-missing{display:none}
.pager{display:flex;justify-content:space-between;gap:1rem;margin-top:3rem}
.pager a{flex:1;display:block;padding:.75rem 1rem;border:1px solid var(--line);border-radius:var(--radius);text-decoration:none}
.pager .next{text-align:right}.pager small{display:block;color:var(--muted)}
.results li{margin:0 0 1rem}.results small{color:var(--muted)}`
}

/** Link pages may point anywhere on the web, but never at script (javascript:, data: and the like). */
function safeHref(href: string | undefined): string {
  return href && /^(https?:|mailto:|\/|#)/i.test(href) ? href : '#'
}

/** An image's address: on the web or an inline image (an <img> runs no script, even an SVG's). */
function safeImage(src: string): string {
  return /^(https?:|\/|data:image\/)/i.test(src) ? src : '#'
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
  const items = list.map(
    (ss) => `<li data-site-space="${e(ss.row.id)}">${link(view.href(ss.segments), ss.space.title, ss.row.id === current)}</li>`
  )
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

/** The site's icon in the header and the tab: the favicon's image (light and dark), or its emoji. */
function logo(c: SiteCustomization): string {
  const f = c.favicon
  if (!f || !('emoji' in f || 'icon' in f)) return ''
  if ('emoji' in f) return `<span class="logo" aria-hidden="true">${e(f.emoji)}</span>`
  const light = `<img class="logo logo-light" src="${e(safeImage(f.icon.light))}" alt="">`
  const dark = f.icon.dark !== f.icon.light ? f.icon.dark : undefined
  return dark ? `${light}<img class="logo logo-dark" src="${e(safeImage(dark))}" alt="">` : light.replace('logo logo-light', 'logo')
}

function favicon(c: SiteCustomization): string {
  const f = c.favicon
  if (!f || !('emoji' in f || 'icon' in f)) return ''
  if ('emoji' in f) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${e(f.emoji)}</text></svg>`
    return `<link rel="icon" href="data:image/svg+xml,${e(encodeURIComponent(svg))}">`
  }
  return `<link rel="icon" href="${e(safeImage(f.icon.light))}">`
}

function searchForm(view: PageView): string {
  const hidden = Object.entries(view.carry).map(([name, value]) => `<input type="hidden" name="${e(name)}" value="${e(value)}">`)
  const value = view.search ? ` value="${e(view.search.query)}"` : ''
  return `<form role="search" method="get" action="${e(view.searchPath)}">${hidden.join('')}<input type="search" name="q" aria-label="Search" placeholder="Search…"${value}></form>`
}

function outlineNav(view: PageView): string {
  const entries = (view.outline ?? []).filter((h) => h.depth <= 3)
  if (!entries.length) return ''
  const items = entries.map((h) => `<li class="depth-${h.depth}"><a href="#${e(encodeURIComponent(h.id))}">${e(h.text)}</a></li>`)
  return `<nav class="outline" aria-label="On this page"><h2>On this page</h2><ul>${items.join('')}</ul></nav>`
}

function pager(view: PageView): string {
  if (!view.previous && !view.next) return ''
  const item = (l: PageLink | undefined, rel: 'prev' | 'next', label: string) =>
    l
      ? `<a class="${rel === 'prev' ? 'previous' : 'next'}" rel="${rel}" href="${e(l.href)}"><small>${label}</small>${e(l.title)}</a>`
      : '<span></span>'
  return `<nav class="pager" aria-label="Previous and next">${item(view.previous, 'prev', 'Previous')}${item(view.next, 'next', 'Next')}</nav>`
}

function searchResults(results: SearchResults): string {
  if (!results.hits.length) return `<h1>Search</h1><p class="empty">Nothing matches “${e(results.query)}”.</p>`
  const items = results.hits.map(
    (h) => `<li><a href="${e(h.href)}">${e(h.title)}</a> <small>${e(h.space)}</small>${h.excerpt ? `<p>${e(h.excerpt)}</p>` : ''}</li>`
  )
  return `<h1>Search</h1><p>Results for “${e(results.query)}”</p><ul class="results" aria-label="Search results">${items.join('')}</ul>`
}

/** The whole HTML document of one preview page. */
export function renderLayout(view: PageView): string {
  const c = view.customization
  const page = view.current?.page
  const title = view.search ? `Search · ${c.title}` : page ? `${page.title} · ${c.title}` : c.title
  const robots = view.site.visibility === 'public' && !view.draft ? '' : '<meta name="robots" content="noindex">'
  const article = view.search
    ? searchResults(view.search)
    : page
      ? `<h1>${e(page.title)}</h1>${page.description ? `<p class="description">${e(page.description)}</p>` : ''}${view.body}${pager(view)}`
      : '<p class="empty">Nothing is published here yet.</p>'
  const scheme = view.scheme ? ` data-scheme="${view.scheme}"` : ''
  return `<!doctype html>
<html lang="${e(c.internationalization.locale)}"${scheme}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>${robots}${favicon(c)}<style>${styles(c)}</style><script src="${e(view.scriptPath)}" defer></script></head>
<body class="theme-${e(c.styling.theme)}" data-site="${e(view.site.id)}">
${view.draft ? `<div class="draft" role="note">Draft preview${view.site.published ? '' : ': this site is not published'}</div>` : ''}
<header><a class="site-title" href="${e(view.href([]))}">${logo(c)}<span>${e(c.title)}</span></a>${sectionsNav(view)}<div class="tools">${searchForm(view)}<button type="button" class="docs-scheme" aria-label="Switch light or dark">◐</button></div></header>
<div class="layout"><aside>${siteSpacesNav(view)}${pagesNav(view)}</aside>
<main><article>${article}</article></main>${view.search ? '' : outlineNav(view)}</div>
</body></html>`
}

/** A bare page for 401 and 404 answers (says nothing about what exists). */
export function renderError(status: 401 | 404): string {
  const message = status === 401 ? 'This site is only for authenticated visitors.' : 'There is nothing here.'
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${status}</title></head><body><main><h1>${status}</h1><p>${message}</p></main></body></html>`
}
