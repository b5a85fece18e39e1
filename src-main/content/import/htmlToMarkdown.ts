import { createDocument } from '@mixmark-io/domino'
import { gfm } from '@joplin/turndown-plugin-gfm'
import TurndownService from 'turndown'

/** One HTML document as a page: its title, its main content as markdown, and every http(s) link it holds. */
export interface HtmlPage {
  title: string | undefined
  markdown: string
  /** Absolute URLs of every `<a href>` (navigation included, so a crawl finds the site's other pages). */
  links: string[]
}

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '_',
  hr: '---'
})
turndown.use(gfm)

/** Chrome of a site, not content: dropped before converting. */
const NOT_CONTENT = 'script, style, noscript, template, iframe, object, embed, nav, footer, form, button, [hidden], [aria-hidden="true"]'

const absolute = (value: string, base: string): string | undefined => {
  try {
    return new URL(value, base).href
  } catch {
    return undefined
  }
}

const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()

/**
 * Converts an HTML document fetched from `url`: links and images are made absolute (they would break once
 * moved), the main content (`<main>`, `<article>`, else `<body>`) goes through turndown with GFM tables, and
 * the title is the first `<h1>` (removed from the body: the page shows its title) or else `<title>`.
 */
export function convertHtml(html: string, url: string): HtmlPage {
  const doc = createDocument(html, true)
  const base = absolute(doc.querySelector('base[href]')?.getAttribute('href') ?? '', url) ?? url

  const links: string[] = []
  for (const a of Array.from(doc.querySelectorAll('a[href]'))) {
    const href = a.getAttribute('href')!.trim()
    if (href.startsWith('#')) continue
    const target = absolute(href, base)
    if (!target) continue
    if (/^https?:/.test(target)) links.push(target)
    a.setAttribute('href', target)
  }
  for (const img of Array.from(doc.querySelectorAll('img[src]'))) {
    const src = absolute(img.getAttribute('src')!.trim(), base)
    if (src) img.setAttribute('src', src)
  }

  for (const el of Array.from(doc.querySelectorAll(NOT_CONTENT))) el.remove()
  const root =
    doc.querySelector('main') ?? doc.querySelector('article') ?? doc.querySelector('[role="main"]') ?? doc.body ?? doc.documentElement
  const h1 = root.querySelector('h1')
  const title = clean(h1?.textContent) || clean(doc.querySelector('h1')?.textContent) || clean(doc.title) || undefined
  if (h1 && clean(h1.textContent)) h1.remove()

  const markdown = turndown.turndown(root as unknown as TurndownService.Node).trim()
  return { title, markdown: markdown ? `${markdown}\n` : '', links }
}

/** A readable title from a URL's last path segment (`getting-started.md` → `getting started`), else its host. */
export function titleFromUrl(url: string): string {
  const u = new URL(url)
  const segment = u.pathname.split('/').filter(Boolean).pop()
  let name = ''
  try {
    name = segment ? decodeURIComponent(segment) : ''
  } catch {
    name = segment ?? ''
  }
  name = name
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim()
  return name || u.hostname
}
