// The checked-in icons of the desktop packages (scripts/icons.ts, `npm run icons`): every size each platform needs,
// read from the files' own headers, and made from the current resources/icon.svg.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ICNS_TYPES, ICO_SIZES, LINUX_SIZES, pngSize, readIcns, readIco, svgHash } from '../../scripts/lib/iconFiles'

const root = resolve(import.meta.dirname, '../..')
const read = (path: string) => new Uint8Array(readFileSync(resolve(root, path)))
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe('icons', () => {
  it('were generated from the current icon.svg, and not changed since (else: npm run icons)', () => {
    const manifest = JSON.parse(readFileSync(resolve(root, 'build/icons.json'), 'utf8')) as {
      sha256: string
      files: Record<string, string>
    }
    expect(manifest.sha256, 'resources/icon.svg changed: run `npm run icons` and commit the icons').toBe(
      svgHash(read('resources/icon.svg'), sha256)
    )
    expect(Object.keys(manifest.files).sort()).toEqual(
      ['resources/icon.png', 'build/icon.ico', 'build/icon.icns', ...LINUX_SIZES.map((s) => `build/icons/${s}x${s}.png`)].sort()
    )
    for (const [path, hash] of Object.entries(manifest.files))
      expect(sha256(read(path)), `${path} differs from what npm run icons wrote`).toBe(hash)
  })

  it('has a PNG per Linux size, named NxN.png as electron-builder expects, and nothing else in build/icons', () => {
    expect(readdirSync(resolve(root, 'build/icons')).sort()).toEqual(LINUX_SIZES.map((s) => `${s}x${s}.png`).sort())
    for (const size of LINUX_SIZES) expect(pngSize(read(`build/icons/${size}x${size}.png`))).toEqual({ width: size, height: size })
    expect(pngSize(read('resources/icon.png'))).toEqual({ width: 512, height: 512 })
  })

  it('has a Windows icon of 16 to 256 px: BMPs for the small sizes, PNG for 256', () => {
    const entries = readIco(read('build/icon.ico'))
    expect(entries).toEqual(ICO_SIZES.map((size) => ({ type: size === 256 ? 'png' : 'bmp', width: size, height: size, declared: size })))
    expect(ICO_SIZES).toEqual([16, 24, 32, 48, 64, 128, 256])
  })

  it('has a macOS icon with every 1x and 2x size up to 1024 px', () => {
    const entries = readIcns(read('build/icon.icns'))
    expect(entries).toEqual(ICNS_TYPES.map(([type, size]) => ({ type, width: size, height: size })))
    expect(Math.max(...entries.map((e) => e.width))).toBe(1024)
  })

  it('reads containers strictly: a truncated or foreign file is refused', () => {
    const ico = read('build/icon.ico')
    expect(() => readIco(ico.subarray(0, ico.length - 1))).toThrow('runs past the end')
    expect(() => readIco(read('resources/icon.png'))).toThrow('not an icon file')
    const icns = read('build/icon.icns')
    expect(() => readIcns(icns.subarray(0, 1000))).toThrow('not an icns file')
    expect(() => pngSize(ico)).toThrow('not a PNG')
  })
})
