import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { decideUpdateSettings as decideWith, feedUrlProblem, parseFeed, readUpdateSettings, updateReport } from './updateSettings'

const decideUpdateSettings = (inputs: Parameters<typeof decideWith>[0]) => decideWith(inputs, parse)

describe('update feed URLs', () => {
  it('takes https anywhere, http only to this computer, nothing else', () => {
    expect(feedUrlProblem('https://updates.example.com/quire')).toBeNull()
    expect(feedUrlProblem('http://localhost:8080/feed')).toBeNull()
    expect(feedUrlProblem('http://127.0.0.1:9000/')).toBeNull()
    expect(feedUrlProblem('http://[::1]:9000/')).toBeNull()
    expect(feedUrlProblem('http://updates.example.com/quire')).toBe('url: must use https (http only to localhost)')
    expect(feedUrlProblem('http://localhost.example.com/')).toBe('url: must use https (http only to localhost)')
    expect(feedUrlProblem('ftp://updates.example.com/')).toBe('url: must be an https URL')
    expect(feedUrlProblem('file:///tmp/feed')).toBe('url: must be an https URL')
    expect(feedUrlProblem('https://user:secret@updates.example.com/')).toBe('url: must not contain credentials')
    expect(feedUrlProblem('https://updates.example.com/#x')).toBe('url: must not contain a fragment')
    expect(feedUrlProblem('updates.example.com')).toBe('url: not a valid URL')
    expect(feedUrlProblem('')).toBe('url: is required')
    expect(feedUrlProblem(`https://example.com/${'a'.repeat(2048)}`)).toBe('url: must be at most 2048 characters')
  })
})

describe('feeds', () => {
  it('reads a URL as the generic provider and s3:// as the S3 provider', () => {
    expect(parseFeed(' https://updates.example.com/quire ')).toEqual({
      feed: { provider: 'generic', url: 'https://updates.example.com/quire' }
    })
    expect(parseFeed('s3://quire-releases/desktop/stable?region=eu-west-1')).toEqual({
      feed: { provider: 's3', bucket: 'quire-releases', path: 'desktop/stable', region: 'eu-west-1' }
    })
    expect(parseFeed('s3://quire-releases')).toEqual({ feed: { provider: 's3', bucket: 'quire-releases' } })
    expect(parseFeed('s3://quire-releases/?channel=beta')).toEqual({ feed: { provider: 's3', bucket: 'quire-releases', channel: 'beta' } })
    expect(parseFeed('OFF')).toEqual({ off: true })
  })

  it('checks an S3 bucket and region by their shape', () => {
    expect(parseFeed({ provider: 's3', bucket: 'my.bucket-1', region: 'us-gov-west-1' })).toEqual({
      feed: { provider: 's3', bucket: 'my.bucket-1', region: 'us-gov-west-1' }
    })
    for (const bucket of ['ab', 'My-Bucket', 'bucket_', '-bucket', 'a..b', 'a.-b', '192.168.1.1', 'x'.repeat(64)]) {
      expect(parseFeed({ provider: 's3', bucket })).toEqual({
        problem: 'bucket: must be an S3 bucket name (3-63 lower-case letters, digits, dots and hyphens)'
      })
    }
    for (const region of ['EU-WEST-1', 'eu-west', 'europe', 'eu west 1', 7]) {
      expect(parseFeed({ provider: 's3', bucket: 'releases', region })).toEqual({
        problem: 'region: must be an AWS region such as eu-west-1'
      })
    }
    for (const path of ['../secrets', 'a/./b', 'a b', 7]) {
      expect(parseFeed({ provider: 's3', bucket: 'releases', path })).toEqual({
        problem: 'path: must be a key prefix in the bucket (letters, digits, / - _ . and no .. segment)'
      })
    }
    expect(parseFeed('s3://releases/x?endpoint=https://minio.example.com')).toEqual({
      problem: 'feed: unknown parameter endpoint (only region and channel)'
    })
  })

  it('refuses unknown providers, settings and channels', () => {
    expect(parseFeed({ provider: 'github', owner: 'x' })).toEqual({ problem: 'provider: must be generic or s3' })
    expect(parseFeed({ provider: 'generic', url: 'https://a.example.com', bucket: 'b' })).toEqual({
      problem: 'bucket: is not a setting of the generic provider'
    })
    expect(parseFeed({ provider: 'generic', url: 'https://a.example.com', channel: 'Beta!' })).toEqual({
      problem: 'channel: must be 1-32 lower-case letters, digits or hyphens (latest, beta…)'
    })
    expect(parseFeed(42)).toEqual({ problem: 'feed: must be a URL string, "off", or an object with a provider' })
    expect(parseFeed(['https://a.example.com'])).toEqual({ problem: 'feed: must be a URL string, "off", or an object with a provider' })
  })
})

describe('where the feed comes from', () => {
  const packaged =
    'provider: generic\nurl: https://updates.example.com/quire\nupdaterCacheDirName: quire-updater\npublisherName:\n  - Quire Ltd\n'
  const placeholder = 'provider: generic\nurl: https://updates.invalid/quire\nupdaterCacheDirName: quire-updater\n'

  it('is off when nothing names a feed, or the package has only the placeholder', () => {
    expect(decideUpdateSettings({})).toEqual({ state: 'off', reason: 'No update feed is configured.' })
    expect(decideUpdateSettings({ env: '  ' })).toEqual({ state: 'off', reason: 'No update feed is configured.' })
    expect(decideUpdateSettings({ packageFile: placeholder })).toEqual({
      state: 'off',
      reason: 'This package was built without an update feed.'
    })
  })

  it('takes the environment first, then update.json, then the package', () => {
    const all = { env: 'https://env.example.com/', userFile: '{"feed": "https://file.example.com/"}', packageFile: packaged }
    expect(decideUpdateSettings(all)).toEqual({
      state: 'on',
      source: 'QUIRE_UPDATE_FEED',
      feed: { provider: 'generic', url: 'https://env.example.com/' }
    })
    expect(decideUpdateSettings({ ...all, env: undefined })).toEqual({
      state: 'on',
      source: 'update.json',
      feed: { provider: 'generic', url: 'https://file.example.com/' }
    })
    expect(decideUpdateSettings({ packageFile: packaged })).toEqual({
      state: 'on',
      source: 'app-update.yml',
      feed: { provider: 'generic', url: 'https://updates.example.com/quire' }
    })
    expect(decideUpdateSettings({ packageFile: 'provider: s3\nbucket: quire-releases\nregion: eu-west-1\npath: desktop\n' })).toEqual({
      state: 'on',
      source: 'app-update.yml',
      feed: { provider: 's3', bucket: 'quire-releases', region: 'eu-west-1', path: 'desktop' }
    })
  })

  it('lets the environment or update.json turn off a packaged feed', () => {
    expect(decideUpdateSettings({ env: 'off', packageFile: packaged })).toEqual({
      state: 'off',
      reason: 'Updates are turned off (QUIRE_UPDATE_FEED).'
    })
    expect(decideUpdateSettings({ userFile: '{"feed": "off"}', packageFile: packaged })).toEqual({
      state: 'off',
      reason: 'Updates are turned off (update.json).'
    })
  })

  it('says which place holds a feed it cannot use, and does not fall back past it', () => {
    expect(decideUpdateSettings({ env: 'http://updates.example.com/', packageFile: packaged })).toEqual({
      state: 'invalid',
      source: 'QUIRE_UPDATE_FEED',
      problem: 'url: must use https (http only to localhost)'
    })
    expect(decideUpdateSettings({ userFile: '{feed: 1}', packageFile: packaged })).toEqual({
      state: 'invalid',
      source: 'update.json',
      problem: 'not valid JSON'
    })
    expect(decideUpdateSettings({ userFile: '{"url": "https://a.example.com"}' })).toEqual({
      state: 'invalid',
      source: 'update.json',
      problem: 'must be an object with a feed: {"feed": "https://…"}'
    })
    expect(decideUpdateSettings({ packageFile: 'provider: github\nowner: quire\n' })).toEqual({
      state: 'invalid',
      source: 'app-update.yml',
      problem: 'provider: must be generic or s3'
    })
  })

  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  it('reads update.json from userData and app-update.yml from the resources folder', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-update-'))
    const userData = join(dir, 'user')
    const resources = join(dir, 'resources')
    expect(await readUpdateSettings({ env: {}, userDataDir: userData, resourcesDir: resources })).toEqual({
      state: 'off',
      reason: 'No update feed is configured.'
    })
    rmSync(resources, { recursive: true, force: true })
    writeFileSync(join(dir, 'app-update.yml'), packaged)
    expect(await readUpdateSettings({ env: {}, userDataDir: userData, resourcesDir: dir })).toMatchObject({
      state: 'on',
      source: 'app-update.yml'
    })
    writeFileSync(join(dir, 'update.json'), JSON.stringify({ feed: { provider: 's3', bucket: 'quire-releases', channel: 'beta' } }))
    expect(await readUpdateSettings({ env: {}, userDataDir: dir, resourcesDir: dir })).toEqual({
      state: 'on',
      source: 'update.json',
      feed: { provider: 's3', bucket: 'quire-releases', channel: 'beta' }
    })
    expect(await readUpdateSettings({ env: { QUIRE_UPDATE_FEED: 'off' }, userDataDir: dir, resourcesDir: dir })).toMatchObject({
      state: 'off'
    })
  })
})

describe('what "Check for updates…" says', () => {
  it('reports no feed, up to date, and a downloaded update to restart into', () => {
    expect(updateReport({ state: 'off', reason: 'No update feed is configured.' }, '0.1.0')).toEqual({
      type: 'info',
      message: 'No update feed configured',
      detail: 'No update feed is configured. Set QUIRE_UPDATE_FEED or update.json to check for updates.',
      restart: false
    })
    expect(updateReport({ state: 'current', version: '0.1.0' }, '0.1.0')).toMatchObject({ message: 'Quire is up to date', restart: false })
    expect(updateReport({ state: 'downloaded', version: '0.2.0' }, '0.1.0')).toEqual({
      type: 'info',
      message: 'Update downloaded, restart to install',
      detail: 'Quire 0.2.0 is ready (this is 0.1.0).',
      restart: true
    })
    expect(updateReport({ state: 'invalid', source: 'update.json', problem: 'not valid JSON' }, '0.1.0')).toMatchObject({
      type: 'warning',
      detail: 'update.json: not valid JSON'
    })
    expect(updateReport({ state: 'failed', message: 'net::ERR_NAME_NOT_RESOLVED' }, '0.1.0')).toMatchObject({
      type: 'warning',
      message: 'Checking for updates failed'
    })
    expect(updateReport({ state: 'unpackaged' }, '0.1.0')).toMatchObject({ message: 'Updates apply to an installed app' })
  })
})
