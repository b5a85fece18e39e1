// The icon containers of the desktop packages, written and read back: Windows `.ico` and macOS `.icns` are small
// directories of images, so they are built here from images rendered per size (scripts/icons.ts) rather than by a
// library that would rescale one raster. Plain Node; the reading half is what test/electron/icons.test.ts checks.

/** An image of one size: its PNG, and its straight (not premultiplied) RGBA pixels, row by row from the top. */
export interface IconImage {
  size: number
  png: Uint8Array
  rgba: Uint8Array
}

/** Sizes of the Linux PNGs (electron-builder's `icons/NxN.png`), the Windows icon and the macOS icon. */
export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024] as const
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const

/**
 * The PNG entries of an `.icns` and the pixel size each holds (the `@2x` types hold twice their point size). The
 * `icp4`/`icp5` PNG types (macOS 10.7+) stand in for the old uncompressed 16 and 32 point ones.
 */
export const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32],
  ['ic12', 64],
  ['ic07', 128],
  ['ic13', 256],
  ['ic08', 256],
  ['ic14', 512],
  ['ic09', 512],
  ['ic10', 1024]
] as const

/**
 * A Windows icon: the 256 px image as PNG (Vista's format for it), the smaller ones as 32-bit BMPs with their AND
 * mask, the format every Windows reader takes (resource compilers and NSIS included).
 */
export function encodeIco(images: IconImage[]): Uint8Array {
  const payloads = images.map((image) => (image.size >= 256 ? image.png : bmpEntry(image)))
  const header = new DataView(new ArrayBuffer(6 + 16 * images.length))
  header.setUint16(0, 0, true)
  header.setUint16(2, 1, true) // 1: icon
  header.setUint16(4, images.length, true)
  let offset = header.byteLength
  images.forEach((image, i) => {
    const at = 6 + 16 * i
    header.setUint8(at, image.size >= 256 ? 0 : image.size) // 0 means 256
    header.setUint8(at + 1, image.size >= 256 ? 0 : image.size)
    header.setUint8(at + 2, 0) // no palette
    header.setUint8(at + 3, 0)
    header.setUint16(at + 4, 1, true) // planes
    header.setUint16(at + 6, 32, true) // bits per pixel
    header.setUint32(at + 8, payloads[i]!.length, true)
    header.setUint32(at + 12, offset, true)
    offset += payloads[i]!.length
  })
  return concat([new Uint8Array(header.buffer), ...payloads])
}

/** A BITMAPINFOHEADER, BGRA rows bottom-up, then the 1-bit AND mask (set where the pixel is fully transparent). */
function bmpEntry({ size, rgba }: IconImage): Uint8Array {
  const maskStride = Math.ceil(size / 32) * 4
  const pixelBytes = size * size * 4
  const out = new Uint8Array(40 + pixelBytes + maskStride * size)
  const view = new DataView(out.buffer)
  view.setUint32(0, 40, true)
  view.setInt32(4, size, true)
  view.setInt32(8, size * 2, true) // the XOR image and the AND mask, stacked
  view.setUint16(12, 1, true)
  view.setUint16(14, 32, true)
  view.setUint32(16, 0, true) // BI_RGB
  view.setUint32(20, pixelBytes + maskStride * size, true)
  for (let y = 0; y < size; y++) {
    const row = size - 1 - y
    for (let x = 0; x < size; x++) {
      const from = (y * size + x) * 4
      const to = 40 + (row * size + x) * 4
      out[to] = rgba[from + 2]!
      out[to + 1] = rgba[from + 1]!
      out[to + 2] = rgba[from]!
      out[to + 3] = rgba[from + 3]!
      if (rgba[from + 3] === 0) out[40 + pixelBytes + row * maskStride + (x >> 3)]! |= 0x80 >> (x & 7)
    }
  }
  return out
}

/** A macOS icon: one PNG entry per type of `ICNS_TYPES`, from the image of its pixel size. */
export function encodeIcns(images: IconImage[]): Uint8Array {
  const bySize = new Map(images.map((image) => [image.size, image.png]))
  const entries = ICNS_TYPES.map(([type, size]) => {
    const png = bySize.get(size)
    if (!png) throw new Error(`icns: no ${size} px image for ${type}`)
    const head = new DataView(new ArrayBuffer(8))
    ascii(head, 0, type)
    head.setUint32(4, 8 + png.length)
    return concat([new Uint8Array(head.buffer), png])
  })
  const head = new DataView(new ArrayBuffer(8))
  ascii(head, 0, 'icns')
  head.setUint32(4, 8 + entries.reduce((n, e) => n + e.length, 0))
  return concat([new Uint8Array(head.buffer), ...entries])
}

/** The SVG's hash as icons.json records it: of its text with LF line ends, so a CRLF checkout hashes the same. */
export function svgHash(svg: Uint8Array, sha256: (bytes: Uint8Array) => string): string {
  return sha256(new TextEncoder().encode(new TextDecoder().decode(svg).replace(/\r\n/g, '\n')))
}

/** One image in a container, as its header says. */
export interface IconEntry {
  /** The `.icns` type, or `png`/`bmp` for an `.ico` entry. */
  type: string
  width: number
  height: number
  /** For an `.ico`: the size its directory entry declares. */
  declared?: number
}

/** Width and height from a PNG's IHDR; throws on anything that is not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.length < 24 || signature.some((b, i) => bytes[i] !== b) || text(bytes, 12, 4) !== 'IHDR') throw new Error('not a PNG')
  return { width: view.getUint32(16), height: view.getUint32(20) }
}

/** The entries of an `.ico`, each read from its own data (PNG header or BITMAPINFOHEADER). */
export function readIco(bytes: Uint8Array): IconEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint16(0, true) !== 0 || view.getUint16(2, true) !== 1) throw new Error('not an icon file')
  const count = view.getUint16(4, true)
  const entries: IconEntry[] = []
  for (let i = 0; i < count; i++) {
    const at = 6 + 16 * i
    const declared = view.getUint8(at) || 256
    const length = view.getUint32(at + 8, true)
    const offset = view.getUint32(at + 12, true)
    if (offset + length > bytes.length) throw new Error(`icon entry ${i} runs past the end of the file`)
    const data = bytes.subarray(offset, offset + length)
    if (data[0] === 0x89) entries.push({ type: 'png', ...pngSize(data), declared })
    else {
      const dib = new DataView(data.buffer, data.byteOffset, data.byteLength)
      if (dib.getUint32(0, true) !== 40) throw new Error(`icon entry ${i} is neither PNG nor BMP`)
      entries.push({ type: 'bmp', width: dib.getInt32(4, true), height: dib.getInt32(8, true) / 2, declared })
    }
  }
  return entries
}

/** The entries of an `.icns`, with the size of the PNG each holds. */
export function readIcns(bytes: Uint8Array): IconEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (text(bytes, 0, 4) !== 'icns' || view.getUint32(4) !== bytes.length) throw new Error('not an icns file')
  const entries: IconEntry[] = []
  for (let at = 8; at < bytes.length;) {
    const type = text(bytes, at, 4)
    const length = view.getUint32(at + 4)
    if (length < 8 || at + length > bytes.length) throw new Error(`icns entry ${type} has a bad length`)
    entries.push({ type, ...pngSize(bytes.subarray(at + 8, at + length)) })
    at += length
  }
  return entries
}

function ascii(view: DataView, at: number, value: string): void {
  for (let i = 0; i < value.length; i++) view.setUint8(at + i, value.charCodeAt(i))
}

function text(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length))
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
