import { imageSize } from 'image-size'
import { INTEGRATION_IMAGE_MAX_BYTES, type IntegrationPublish } from '../../../../src-shared/schemas/integrations'
import { storeFile } from '../../../content/files'
import type { Db } from '../../../storage/database'
import type { IntegrationManifest, IntegrationRow } from '../../../storage/repositories/integrationRepository'
import { badRequest } from '../../../base/errors'
import type { StoredImage } from '../../presenters/integration'

/** image-size's type names -> the media types the asset route answers with. */
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  avif: 'image/avif'
}

interface DecodedImage {
  bytes: Buffer
  contentType: string
}

/** base64 (standard or URL-safe, whitespace ignored), optionally as a `data:` URI, of an image of at most 1 MB. */
export function decodeImage(value: string, field: string): DecodedImage {
  const base64 = value.replace(/^data:[\w.+-]+\/[\w.+-]+;base64,/i, '').replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(base64) || base64.length % 4 === 1) throw badRequest(`${field}: must be base64`)
  const bytes = Buffer.from(base64, 'base64')
  if (bytes.byteLength > INTEGRATION_IMAGE_MAX_BYTES) throw badRequest(`${field}: must be at most 1 MB once decoded`)
  let type: string | undefined
  try {
    type = imageSize(bytes).type
  } catch {
    // An SVG without width, height or viewBox has no size but is still an image.
    if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(bytes.subarray(0, 4096).toString('utf8'))) type = 'svg'
  }
  const contentType = type && IMAGE_TYPES[type]
  if (!contentType) throw badRequest(`${field}: must be a PNG, JPEG, GIF, WebP, SVG, ICO, BMP or AVIF image`)
  return { bytes, contentType }
}

/** The host name a block's `urlUnfurl` entry unfurls (`https://www.figma.com/file/` -> `figma.com`). */
export function unfurlDomain(pattern: string): string | undefined {
  for (const candidate of [pattern, `https://${pattern}`]) {
    try {
      const host = new URL(candidate).hostname.toLowerCase()
      if (host) return normalizeDomain(host)
    } catch {
      // not a URL: try with a scheme
    }
  }
  return undefined
}

export const normalizeDomain = (domain: string) => domain.toLowerCase().replace(/^www\./, '')

/** Each configuration's `required` must name its own properties; a button needs its text and the URL it calls. */
function checkConfigurations(configurations: IntegrationPublish['configurations']) {
  for (const [scope, schema] of Object.entries(configurations ?? {})) {
    if (!schema) continue
    for (const [name, property] of Object.entries(schema.properties)) {
      if (property.type !== 'button') continue
      for (const field of ['button_text', 'callback_url'] as const) {
        if (property[field] === undefined) throw badRequest(`configurations.${scope}.properties.${name}.${field}: is required for a button`)
      }
    }
    for (const name of schema.required ?? []) {
      if (!Object.hasOwn(schema.properties, name))
        throw badRequest(`configurations.${scope}.required: ${name} is not one of its properties`)
    }
  }
}

export interface PreparedManifest {
  icon: DecodedImage | undefined
  previewImages: DecodedImage[]
  /** Everything else, ready to store (images are added once stored). */
  fields: Omit<IntegrationManifest, 'icon' | 'preview_images' | 'secrets'>
  secrets: Record<string, string> | undefined
  index: { categories: string[]; domains: string[] }
}

/** Checks what the schema cannot (images decode, `required` names) and shapes the stored fields. No I/O. */
export function prepareManifest(body: IntegrationPublish): PreparedManifest {
  checkConfigurations(body.configurations)
  const blocks = body.blocks ?? []
  const domains = new Set<string>()
  for (const block of blocks)
    for (const pattern of block.urlUnfurl ?? []) {
      const domain = unfurlDomain(pattern)
      if (domain) domains.add(domain)
    }
  const categories = body.categories ?? []
  return {
    icon: body.icon === undefined ? undefined : decodeImage(body.icon, 'icon'),
    previewImages: (body.previewImages ?? []).map((image, i) => decodeImage(image, `previewImages.${i}`)),
    fields: {
      title: body.title,
      description: body.description,
      summary: body.summary ?? null,
      visibility: body.visibility ?? 'private',
      target: body.target ?? 'all',
      scopes: JSON.stringify(body.scopes ?? []),
      categories: JSON.stringify(categories),
      blocks: JSON.stringify(blocks),
      content_sources: JSON.stringify(body.contentSources ?? []),
      external_links: JSON.stringify(body.externalLinks ?? []),
      configurations: JSON.stringify(body.configurations ?? {}),
      script: body.script,
      content_security_policy: body.contentSecurityPolicy ?? null,
      has_blocks: blocks.length ? 1 : 0,
      has_content_sources: body.contentSources?.length ? 1 : 0
    },
    secrets: body.secrets,
    index: { categories, domains: [...domains] }
  }
}

/**
 * The row's manifest: images stored once by content hash (inside the publish's transaction). Secrets left out
 * of a publish keep their stored values; a manifest that lists them replaces them all.
 */
export function storeManifest(db: Db, prepared: PreparedManifest, existing: IntegrationRow | undefined): IntegrationManifest {
  const store = (image: DecodedImage, name: string): StoredImage => ({
    hash: storeFile(db, name, image.bytes, image.contentType).blobHash,
    contentType: image.contentType
  })
  return {
    ...prepared.fields,
    icon: prepared.icon ? JSON.stringify(store(prepared.icon, 'icon')) : null,
    preview_images: JSON.stringify(prepared.previewImages.map((image, i) => store(image, `preview-${i}`))),
    secrets: prepared.secrets !== undefined ? JSON.stringify(prepared.secrets) : (existing?.secrets ?? '{}')
  }
}
