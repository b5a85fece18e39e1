import type { MouseEvent } from 'react'

/**
 * A click in a rendered markdown preview (`root`): an in-page anchor scrolls the preview (the sanitizer prefixes
 * ids with `user-content-`; footnote links already carry the prefix); `onHref` may take any other link (a page:
 * answers true); what it leaves, web and mail links, opens outside the app. The router never sees these clicks.
 */
export function onPreviewClick(e: MouseEvent<HTMLElement>, root: HTMLElement | null, onHref: (href: string) => boolean): void {
  const a = (e.target as HTMLElement).closest('a')
  if (!a) return
  e.preventDefault()
  const href = a.getAttribute('href') ?? ''
  if (href.startsWith('#')) {
    const id = decodeURIComponent(href.slice(1))
    const target = root?.querySelector(`#${CSS.escape(id)}`) ?? root?.querySelector(`#${CSS.escape(`user-content-${id}`)}`)
    target?.scrollIntoView({ block: 'start' })
  } else if (!onHref(href) && /^(https?:|mailto:)/i.test(a.href)) {
    window.open(a.href, '_blank', 'noopener,noreferrer')
  }
}
