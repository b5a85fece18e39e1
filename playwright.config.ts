import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

// Playwright cannot download its browsers on every machine; where a system Chromium exists (Debian's
// `chromium` here, or CHROMIUM_PATH) use it, else fall back to Playwright's own download.
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const systemChromium = existsSync(chromiumPath)
  ? {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic'
      ]
    }
  : {}

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 800 },
    // As a user who asks for less motion: no transitions, so no click lands in a modal's first frames.
    reducedMotion: 'reduce'
  },
  projects: [
    {
      // The renderer in Chromium against a headless server (one per worker, see e2e/fixtures/server.ts).
      name: 'web',
      testIgnore: 'electron/**',
      use: { browserName: 'chromium', launchOptions: systemChromium }
    },
    {
      // The desktop app itself; skipped with a reason where the Electron binary is not installed.
      name: 'electron',
      testMatch: 'electron/**/*.spec.ts'
    }
  ]
})
