// Emoji as stored: the app writes the emoji itself, the hosted service's Git format and API may give its code
// points in hex (`1f4b3`, `1f468-200d-1f4bb` for a sequence). Every place that draws an emoji draws emojiText(…).

/** Hex code points joined by dashes (`1f4b3`, `1f468-200d-1f4bb`, `2764-fe0f`): 2 to 6 hex digits each. */
const CODE_POINTS = /^[0-9a-f]{2,6}(?:[-_ ][0-9a-f]{2,6})*$/i

/**
 * The emoji to draw for a stored value: code points written in hex become the characters they name; anything
 * else (the emoji itself, or nothing) is drawn as it is. A hex value that names no valid code point stays as written.
 */
export function emojiText(value: string | null | undefined): string {
  const text = value?.trim() ?? ''
  if (!text || !CODE_POINTS.test(text)) return text
  const points = text.split(/[-_ ]/).map((hex) => parseInt(hex, 16))
  // Below U+00A9 only the joiners and keycap bases are meaningful in a sequence, never alone as an emoji.
  if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return text
  if (points.length === 1 && points[0]! < 0xa9) return text
  return String.fromCodePoint(...points)
}

/** `emoji title`, or the title alone: for labels written as text (pickers, selects). */
export function withEmoji(emoji: string | null | undefined, title: string): string {
  const e = emojiText(emoji)
  return e ? `${e} ${title}` : title
}
