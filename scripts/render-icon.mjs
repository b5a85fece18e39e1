#!/usr/bin/env node
// Regenerates resources/icon.png (512 px) from resources/icon.svg with Playwright's Chromium
// (the system one when present). Run by hand after editing the SVG.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { repoRoot } from './lib/run.mjs'

const systemChromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const browser = await chromium.launch(
  existsSync(systemChromium) ? { executablePath: systemChromium, args: ['--no-sandbox', '--disable-gpu'] } : {}
)
const page = await browser.newPage({ viewport: { width: 512, height: 512 } })
await page.setContent(`<body style="margin:0">${readFileSync(join(repoRoot, 'resources/icon.svg'), 'utf8')}</body>`)
await page.locator('svg').screenshot({ path: join(repoRoot, 'resources/icon.png'), omitBackground: true })
await browser.close()
