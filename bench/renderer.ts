// The renderer benchmark (`npm run bench -- --only renderer`): the built renderer (`npm run build`) served by
// `quire serve` over a workspace holding a 10,000-page space (bench/contentBuild.ts), opened in headless Chromium
// (Debian's, or Playwright's own) at 1440×900. It measures what a user waits for and sees:
//   - first screen: from navigation start to the home screen's ready signal (`data-app-state="ready"`), in a fresh
//     browser context each time (nothing cached but the HTTP cache of the process);
//   - the space's page screen: from navigation start to ready, its 10,000-row tree loaded;
//   - scrolling that tree from top to bottom (the scroller moved one step per animation frame): every frame's
//     duration, and the long animation frames Chromium reports (over 50 ms: what a user sees as a stutter).
// Figures go to bench/results/renderer.json. Targets: first screen under 1,000 ms; no long frame while scrolling.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from '@playwright/test'
import { newToken } from '../src-main/storage/ids'
import { buildInChild, serveInChild } from './content'
import { BenchFailure, round2 } from './load'

const here = dirname(fileURLToPath(import.meta.url))
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** A frame longer than this is a long animation frame (the browser's own threshold). */
const LONG_FRAME_MS = 50
const FIRST_SCREEN_TARGET_MS = 1000
/** A fast mouse wheel: a notch (about 100–120 px) every frame. */
const WHEEL_STEP_PX = 120

export interface RendererBenchOptions {
  pages?: number
  /** Fresh page loads timed per screen. */
  loads?: number
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
}

// Runs in the page before any of its scripts: notes when #root first says ready, and every long animation frame.
const OBSERVE = `
  window.__bench = { readyAt: undefined, longFrames: [] }
  new MutationObserver(() => {
    const root = document.getElementById('root')
    if (window.__bench.readyAt === undefined && root && root.dataset.appState === 'ready') window.__bench.readyAt = performance.now()
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-app-state'], childList: true })
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__bench.longFrames.push({ start: e.startTime, duration: e.duration })
    }).observe({ type: 'long-animation-frame', buffered: true })
  } catch {}
`

/** Opens `hash` signed in, in a fresh context, and answers when the screen said ready (ms after navigation start). */
async function timedLoad(
  browser: Browser,
  url: string,
  token: string,
  hash: string
): Promise<{ ms: number; page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.addInitScript(OBSERVE)
  const page = await context.newPage()
  await page.goto(`${url}/?token=${encodeURIComponent(token)}#${hash}`)
  // Functions, not strings: a string predicate is evaluated with eval(), which the app's CSP refuses.
  await page.waitForFunction(() => (globalThis as any).__bench.readyAt !== undefined, undefined, { timeout: 30_000 })
  const ms = await page.evaluate(() => (globalThis as any).__bench.readyAt as number)
  return { ms, page, close: () => context.close() }
}

/**
 * Scrolls the page tree from top to bottom, `step` px per animation frame (0: 90% of its height, a page at a time),
 * or back up with `up`, for at most `maxFrames`; answers every frame's duration.
 */
interface Scroll {
  frames: number[]
  longFrames: { start: number; duration: number }[]
  rows: number
}

async function scrollTree(page: Page, step: number, up = false, maxFrames = 100_000): Promise<Scroll> {
  const scroller = page.getByTestId('page-tree-scroller')
  await scroller.waitFor()
  // A string, not a function: the TypeScript loader would wrap a function's inner functions in a helper the page lacks.
  return page.evaluate<Scroll>(`(async () => {
    const el = document.querySelector('[data-testid="page-tree-scroller"]')
    const startedAt = performance.now()
    const frames = []
    const step = ${step} || Math.floor(el.clientHeight * 0.9)
    const up = ${up}
    await new Promise((resolve) => {
      let last = performance.now()
      const tick = (now) => {
        frames.push(now - last)
        last = now
        if (frames.length > ${maxFrames} || (up ? el.scrollTop <= 0 : el.scrollTop + el.clientHeight >= el.scrollHeight - 1)) return resolve()
        el.scrollTop += up ? -step : step
        requestAnimationFrame(tick)
      }
      requestAnimationFrame(tick)
    })
    // Long frames are reported after they end: two more frames let the last one in.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
    const row = el.querySelector('[role="treeitem"]')
    const rows = Math.round(el.scrollHeight / Math.max(1, row ? row.offsetHeight : 1))
    return { frames: frames.slice(1), longFrames: window.__bench.longFrames.filter((f) => f.start >= startedAt && f.duration > ${LONG_FRAME_MS}), rows }
  })()`)
}

export async function runRendererBench(options: RendererBenchOptions = {}): Promise<void> {
  const { pages = 10_000, loads = 5 } = options
  const renderer = join(here, '..', 'out', 'renderer', 'index.html')
  if (!existsSync(renderer)) throw new BenchFailure('no renderer build: run `npm run build` first')
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-renderer-'))
  const token = newToken()
  try {
    console.log(`\nRenderer benchmark: building a space of ${pages} pages...`)
    const built = await buildInChild(dir, token, pages)
    const server = await serveInChild(dir, token)
    const browser = await chromium.launch(existsSync(CHROMIUM) ? { executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] } : {})
    try {
      const home: number[] = []
      const space: number[] = []
      let pageJumps: Scroll | undefined
      let wheel: Scroll | undefined
      // One unmeasured load of each screen first: the server's first answers read a cold workspace.
      for (let i = 0; i <= loads; i++) {
        const h = await timedLoad(browser, server.url, token, '/')
        if (i > 0) home.push(h.ms)
        await h.close()
        const s = await timedLoad(browser, server.url, token, `/spaces/${built.spaceId}`)
        if (i > 0) space.push(s.ms)
        if (i === loads) {
          // A page per frame down (dragging the scroll bar), then a fast wheel's 120 px per frame back up.
          pageJumps = await scrollTree(s.page, 0)
          wheel = await scrollTree(s.page, WHEEL_STEP_PX, true, 600)
        }
        await s.close()
      }
      if (!pageJumps || !wheel) throw new BenchFailure('the tree was not scrolled')
      const scrollFigures = (scroll: Scroll, how: string) => ({
        how,
        rows: scroll.rows,
        frames: scroll.frames.length,
        frameP50Ms: round2(percentile(scroll.frames, 50)),
        frameP99Ms: round2(percentile(scroll.frames, 99)),
        frameMaxMs: round2(Math.max(...scroll.frames)),
        longFrames: scroll.longFrames.map((f) => round2(f.duration)),
        target: `no frame over ${LONG_FRAME_MS} ms`
      })
      const figures = {
        firstScreen: {
          samples: home,
          p50Ms: round2(percentile(home, 50)),
          maxMs: round2(Math.max(...home)),
          targetMs: FIRST_SCREEN_TARGET_MS
        },
        spaceScreen: { samples: space, p50Ms: round2(percentile(space, 50)), maxMs: round2(Math.max(...space)) },
        treeScrollPages: scrollFigures(pageJumps, "90% of the tree's height per frame, top to bottom"),
        treeScrollWheel: scrollFigures(wheel, `${WHEEL_STEP_PX} px per frame up from the bottom, 600 frames`)
      }
      const met = (ok: boolean) => (ok ? 'met' : 'MISSED')
      console.log(
        `first screen (home, ready): p50 ${figures.firstScreen.p50Ms} ms, max ${figures.firstScreen.maxMs} ms (target < ${FIRST_SCREEN_TARGET_MS}: ${met(figures.firstScreen.maxMs < FIRST_SCREEN_TARGET_MS)})`
      )
      console.log(
        `space screen with its ${pages}-page tree (ready): p50 ${figures.spaceScreen.p50Ms} ms, max ${figures.spaceScreen.maxMs} ms`
      )
      for (const t of [figures.treeScrollPages, figures.treeScrollWheel]) {
        console.log(
          `tree scroll, ${t.how}: ${t.frames} frames over ~${t.rows} rows, frame p50 ${t.frameP50Ms} ms, p99 ${t.frameP99Ms} ms, max ${t.frameMaxMs} ms; ` +
            `long animation frames: ${t.longFrames.length} (target none: ${met(!t.longFrames.length)})`
        )
      }
      const file = join(here, 'results', 'renderer.json')
      mkdirSync(dirname(file), { recursive: true })
      const report = {
        date: new Date().toISOString(),
        machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadavg: loadavg(), browser: browser.version() },
        options: { pages, loads },
        results: figures
      }
      writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
      console.log(`Wrote ${relative(process.cwd(), file)}`)
    } finally {
      await browser.close()
      await server.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
