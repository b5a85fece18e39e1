// Where the desktop app looks for updates, and what "Check for updates…" tells the user. Plain Node (no 'electron',
// no electron-updater), so the decision is tested under Node; updater.ts only calls electron-updater with it.
//
// The feed, first found wins:
//   1. QUIRE_UPDATE_FEED in the environment: `https://host/path` (generic), `s3://bucket/path?region=eu-west-1`, or `off`;
//   2. `update.json` in the app's userData folder: `{"feed": <the same string, or an object as below>}`;
//   3. the feed the package was built with (electron-builder's `publish`, written to resources/app-update.yml); the
//      repository's placeholder there (a host under `.invalid`) means none.
// Updates are off when none of them names a feed.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The options electron-updater's generic and S3 providers take (a subset of its publish configuration). */
export type UpdateFeed =
  | { provider: 'generic'; url: string; channel?: string }
  | { provider: 's3'; bucket: string; region?: string; path?: string; channel?: string }

export type FeedSource = 'QUIRE_UPDATE_FEED' | 'update.json' | 'app-update.yml'

export type UpdateSettings =
  | { state: 'off'; reason: string }
  | { state: 'invalid'; source: FeedSource; problem: string }
  | { state: 'on'; source: FeedSource; feed: UpdateFeed }

export const UPDATE_FEED_ENV = 'QUIRE_UPDATE_FEED'
export const UPDATE_SETTINGS_FILE = 'update.json'
/** Written by electron-builder into the package's resources when `publish` is configured. */
export const PACKAGED_FEED_FILE = 'app-update.yml'

const MAX_URL = 2048
const CHANNEL = /^[a-z0-9][a-z0-9-]{0,31}$/
// AWS: 3-63 characters, lower-case letters, digits, dots and hyphens, a letter or digit at each end, no `..`, `.-` or
// `-.`, not an IP address.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
// `us-east-1`, `eu-central-2`, `ap-southeast-4`, `us-gov-west-1`, `cn-northwest-1`.
const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/
const S3_PATH = /^[A-Za-z0-9._~!$&'()*+,;=:@/-]{0,512}$/

type Parsed = { feed: UpdateFeed } | { off: true } | { problem: string }

/**
 * A feed as written in QUIRE_UPDATE_FEED or update.json: a URL string (`https:` for the generic provider, `http:`
 * only to this computer, `s3://bucket/path?region=…`), `off`, or an object `{provider: 'generic', url, channel?}` /
 * `{provider: 's3', bucket, region?, path?, channel?}`.
 */
export function parseFeed(value: unknown): Parsed {
  if (typeof value === 'string') {
    const text = value.trim()
    if (text.toLowerCase() === 'off') return { off: true }
    if (/^s3:\/\//i.test(text)) return parseS3Url(text)
    return checkFeed({ provider: 'generic', url: text })
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) return checkFeed(value as Record<string, unknown>)
  return { problem: 'feed: must be a URL string, "off", or an object with a provider' }
}

function parseS3Url(text: string): Parsed {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { problem: 'feed: not a valid s3:// URL' }
  }
  const extra = [...url.searchParams.keys()].find((k) => k !== 'region' && k !== 'channel')
  if (extra) return { problem: `feed: unknown parameter ${extra} (only region and channel)` }
  return checkFeed({
    provider: 's3',
    bucket: url.hostname,
    path: decodeURIComponent(url.pathname),
    region: url.searchParams.get('region') ?? undefined,
    channel: url.searchParams.get('channel') ?? undefined
  })
}

function checkFeed(input: Record<string, unknown>): Parsed {
  const { provider } = input
  const known = provider === 'generic' ? ['provider', 'url', 'channel'] : ['provider', 'bucket', 'region', 'path', 'channel']
  if (provider !== 'generic' && provider !== 's3') return { problem: 'provider: must be generic or s3' }
  const extra = Object.keys(input).find((k) => !known.includes(k) && input[k] !== undefined)
  if (extra) return { problem: `${extra}: is not a setting of the ${provider} provider` }
  const channel = input.channel
  if (channel !== undefined && (typeof channel !== 'string' || !CHANNEL.test(channel)))
    return { problem: 'channel: must be 1-32 lower-case letters, digits or hyphens (latest, beta…)' }
  const withChannel = channel === undefined ? {} : { channel }

  if (provider === 'generic') {
    const problem = feedUrlProblem(input.url)
    if (problem) return { problem }
    return { feed: { provider, url: input.url as string, ...withChannel } }
  }

  const { bucket, region } = input
  if (typeof bucket !== 'string' || !BUCKET.test(bucket) || /\.\.|\.-|-\./.test(bucket) || /^\d+\.\d+\.\d+\.\d+$/.test(bucket))
    return { problem: 'bucket: must be an S3 bucket name (3-63 lower-case letters, digits, dots and hyphens)' }
  if (region !== undefined && (typeof region !== 'string' || !REGION.test(region)))
    return { problem: 'region: must be an AWS region such as eu-west-1' }
  const path = input.path === undefined ? '' : input.path
  if (typeof path !== 'string' || !S3_PATH.test(path) || path.split('/').some((s) => s === '..' || s === '.'))
    return { problem: 'path: must be a key prefix in the bucket (letters, digits, / - _ . and no .. segment)' }
  const trimmed = path.replace(/^\/+|\/+$/g, '')
  return {
    feed: { provider, bucket, ...(region === undefined ? {} : { region }), ...(trimmed ? { path: trimmed } : {}), ...withChannel }
  }
}

/** Why `value` cannot be a generic feed's URL, or null: `https:`, or `http:` to this computer only; no credentials. */
export function feedUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string' || !value) return 'url: is required'
  if (value.length > MAX_URL) return `url: must be at most ${MAX_URL} characters`
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'url: not a valid URL'
  }
  if (url.username || url.password) return 'url: must not contain credentials'
  if (url.hash) return 'url: must not contain a fragment'
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return null
  if (url.protocol === 'http:') return 'url: must use https (http only to localhost)'
  return 'url: must be an https URL'
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}

/** The repository's placeholder feed (electron-builder.yml): a package built without a real one checks nothing. */
export function isPlaceholderFeed(feed: UpdateFeed): boolean {
  return feed.provider === 'generic' && /(^|\.)invalid$/i.test(new URL(feed.url).hostname)
}

/**
 * The three places, already read (`undefined`: not there); the decision described at the top of this file. `parseYaml`
 * reads app-update.yml (the `yaml` package's `parse`, passed in so that nothing loads it before a check).
 */
export function decideUpdateSettings(
  inputs: { env?: string; userFile?: string; packageFile?: string },
  parseYaml: (text: string) => unknown
): UpdateSettings {
  if (inputs.env !== undefined && inputs.env.trim() !== '') return fromParsed(parseFeed(inputs.env), UPDATE_FEED_ENV)

  if (inputs.userFile !== undefined) {
    let json: unknown
    try {
      json = JSON.parse(inputs.userFile)
    } catch {
      return { state: 'invalid', source: UPDATE_SETTINGS_FILE, problem: 'not valid JSON' }
    }
    if (!json || typeof json !== 'object' || Array.isArray(json) || !('feed' in json))
      return { state: 'invalid', source: UPDATE_SETTINGS_FILE, problem: 'must be an object with a feed: {"feed": "https://…"}' }
    return fromParsed(parseFeed((json as { feed: unknown }).feed), UPDATE_SETTINGS_FILE)
  }

  if (inputs.packageFile !== undefined) {
    let yaml: unknown
    try {
      yaml = parseYaml(inputs.packageFile)
    } catch {
      return { state: 'invalid', source: PACKAGED_FEED_FILE, problem: 'not valid YAML' }
    }
    if (!yaml || typeof yaml !== 'object') return { state: 'invalid', source: PACKAGED_FEED_FILE, problem: 'not a feed' }
    // electron-builder also writes what the updater itself reads (updaterCacheDirName, publisherName…): keep the feed.
    const { provider, url, bucket, region, path, channel } = yaml as Record<string, unknown>
    const parsed = parseFeed(provider === 'generic' ? { provider, url, channel } : { provider, bucket, region, path, channel })
    if ('feed' in parsed && isPlaceholderFeed(parsed.feed))
      return { state: 'off', reason: 'This package was built without an update feed.' }
    return fromParsed(parsed, PACKAGED_FEED_FILE)
  }

  return { state: 'off', reason: 'No update feed is configured.' }
}

function fromParsed(parsed: Parsed, source: FeedSource): UpdateSettings {
  if ('off' in parsed) return { state: 'off', reason: `Updates are turned off (${source}).` }
  if ('problem' in parsed) return { state: 'invalid', source, problem: parsed.problem }
  return { state: 'on', source, feed: parsed.feed }
}

/** Reads the three places (a missing file is no setting) and decides; the YAML parser is loaded only when needed. */
export async function readUpdateSettings(where: {
  env: NodeJS.ProcessEnv
  userDataDir: string
  resourcesDir?: string
}): Promise<UpdateSettings> {
  const inputs = {
    env: where.env[UPDATE_FEED_ENV],
    userFile: readIfPresent(join(where.userDataDir, UPDATE_SETTINGS_FILE)),
    packageFile: where.resourcesDir === undefined ? undefined : readIfPresent(join(where.resourcesDir, PACKAGED_FEED_FILE))
  }
  const { parse } = await import('yaml')
  return decideUpdateSettings(inputs, parse)
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** What a check came to. */
export type UpdateOutcome =
  | Exclude<UpdateSettings, { state: 'on' }>
  | { state: 'unpackaged' }
  | { state: 'current'; version: string }
  | { state: 'downloaded'; version: string }
  | { state: 'failed'; message: string }

/** The message box "Check for updates…" shows; `restart` offers to restart into the downloaded version. */
export function updateReport(
  outcome: UpdateOutcome,
  currentVersion: string
): { type: 'info' | 'warning'; message: string; detail: string; restart: boolean } {
  const info = (message: string, detail: string, restart = false) => ({ type: 'info' as const, message, detail, restart })
  const warning = (message: string, detail: string) => ({ type: 'warning' as const, message, detail, restart: false })
  switch (outcome.state) {
    case 'off':
      return info('No update feed configured', `${outcome.reason} Set ${UPDATE_FEED_ENV} or ${UPDATE_SETTINGS_FILE} to check for updates.`)
    case 'invalid':
      return warning('The update feed is not valid', `${outcome.source}: ${outcome.problem}`)
    case 'unpackaged':
      return info('Updates apply to an installed app', 'This copy of Quire runs from its sources: it is updated by building it again.')
    case 'current':
      return info('Quire is up to date', `Version ${outcome.version} is the newest available.`)
    case 'downloaded':
      return info('Update downloaded, restart to install', `Quire ${outcome.version} is ready (this is ${currentVersion}).`, true)
    case 'failed':
      return warning('Checking for updates failed', outcome.message)
  }
}
