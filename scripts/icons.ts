#!/usr/bin/env node
// `npm run icons`: the app's icons for every platform, rendered from resources/icon.svg with resvg (no browser):
//   resources/icon.png    512 px, the window icon (resources/ is the app's own: it is packed and copied to the renderer)
//   build/icons/NxN.png   16…1024 px, Linux (electron-builder's layout for `linux.icon`)
//   build/icon.ico        16, 24, 32, 48, 64, 128, 256 px, Windows
//   build/icon.icns       16…1024 px (1x and 2x), macOS
//   build/icons.json      the SVG's SHA-256 and each file's, so a test finds icons older than the SVG
// build/ is electron-builder's buildResources: read by it, never packed into the app. Each size is rendered from the
// vector, not scaled down from one raster. The files are checked in: packaging needs no render step. Run it after
// editing the SVG.
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Resvg } from '@resvg/resvg-js'
import { encodeIcns, encodeIco, ICNS_TYPES, ICO_SIZES, LINUX_SIZES, svgHash, type IconImage } from './lib/iconFiles.ts'

const root = join(import.meta.dirname, '..')
const resources = join(root, 'resources')
const build = join(root, 'build')
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

const svg = readFileSync(join(resources, 'icon.svg'))
const sizes = [...new Set<number>([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_TYPES.map(([, size]) => size), 512])].sort((a, b) => a - b)
const images = new Map<number, IconImage>()
for (const size of sizes) {
  const rendered = new Resvg(svg, { fitTo: { mode: 'width', value: size }, background: 'rgba(0,0,0,0)' }).render()
  if (rendered.width !== size || rendered.height !== size)
    throw new Error(`icon.svg rendered at ${size} px is ${rendered.width}x${rendered.height}`)
  images.set(size, { size, png: rendered.asPng(), rgba: straightAlpha(rendered.pixels) })
}
const image = (size: number) => images.get(size)!

/** resvg's pixels are premultiplied by alpha; a BMP holds straight colour. */
function straightAlpha(premultiplied: Uint8Array): Uint8Array {
  const out = new Uint8Array(premultiplied)
  for (let i = 0; i < out.length; i += 4) {
    const alpha = out[i + 3]!
    if (alpha === 0 || alpha === 255) continue
    for (let c = 0; c < 3; c++) out[i + c] = Math.min(255, Math.round((out[i + c]! * 255) / alpha))
  }
  return out
}

const files: Record<string, Uint8Array> = {
  'resources/icon.png': image(512).png,
  ...Object.fromEntries(LINUX_SIZES.map((size) => [`build/icons/${size}x${size}.png`, image(size).png])),
  'build/icon.ico': encodeIco(ICO_SIZES.map(image)),
  'build/icon.icns': encodeIcns(sizes.map(image))
}

rmSync(join(build, 'icons'), { recursive: true, force: true })
mkdirSync(join(build, 'icons'), { recursive: true })
for (const [path, bytes] of Object.entries(files)) writeFileSync(join(root, path), bytes)
const manifest = {
  source: 'resources/icon.svg',
  sha256: svgHash(svg, sha256),
  files: Object.fromEntries(Object.entries(files).map(([path, bytes]) => [path, sha256(bytes)]))
}
writeFileSync(join(build, 'icons.json'), `${JSON.stringify(manifest, null, 2)}\n`)
console.log(`Wrote ${Object.keys(files).length} icon files from resources/icon.svg (${sizes.join(', ')} px).`)
