/**
 * The preview's one script, served as a file (`…/~assets/preview.js`): the page's CSP admits no inline script.
 * It switches tabs (click, arrow keys), copies code blocks and flips the colour scheme. Pages read without it.
 */
export const PREVIEW_SCRIPT = `(() => {
  const select = (tab) => {
    const list = tab.closest('[role=tablist]')
    for (const other of list.querySelectorAll('[role=tab]')) {
      const on = other === tab
      other.setAttribute('aria-selected', String(on))
      other.tabIndex = on ? 0 : -1
      const panel = document.getElementById(other.getAttribute('aria-controls'))
      if (panel) panel.hidden = !on
    }
  }
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null
    const tab = target && target.closest('[role=tab]')
    if (tab) return select(tab)
    const copy = target && target.closest('.docs-copy')
    if (copy) {
      const code = copy.closest('.docs-code').querySelector('pre')
      if (code && navigator.clipboard) navigator.clipboard.writeText(code.textContent || '').then(() => { copy.textContent = 'Copied' }, () => {})
      return
    }
    if (target && target.closest('.docs-scheme')) {
      const root = document.documentElement
      const dark = root.dataset.scheme ? root.dataset.scheme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches
      root.dataset.scheme = dark ? 'light' : 'dark'
    }
  })
  document.addEventListener('keydown', (event) => {
    const tab = event.target instanceof Element && event.target.closest('[role=tab]')
    if (!tab || (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft')) return
    const tabs = [...tab.closest('[role=tablist]').querySelectorAll('[role=tab]')]
    const next = tabs[(tabs.indexOf(tab) + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]
    select(next)
    next.focus()
  })
})()
`
