// @mentions in comment markdown. The API has no mention type: a mention is a markdown link whose address is
// `mention:<user id>` and whose text is `@` and the name (`[@Ann Lee](mention:u123)`); the server keeps the
// markdown as written, and the renderer draws such a link as a chip. Pure (tested under Node).

export const MENTION_PREFIX = 'mention:'

/** The longest run typed after `@` that still asks for a member. */
const QUERY_MAX = 40

/** The mention link for a user. Brackets and backslashes in the name are escaped so the link stays one link. */
export function mentionMarkdown(user: { id: string; name: string }): string {
  const label = `@${user.name}`.replace(/[\\[\]]/g, (c) => `\\${c}`)
  return `[${label}](${MENTION_PREFIX}${encodeURIComponent(user.id)})`
}

/** The user id a link's address names, if it is a mention. */
export function mentionedUserId(href: string): string | null {
  if (!href.startsWith(MENTION_PREFIX)) return null
  const id = decodeURIComponent(href.slice(MENTION_PREFIX.length))
  return id ? id : null
}

/**
 * The `@word` being typed at the caret: where its `@` is and the text after it. An `@` counts at the start or after
 * a space or an opening bracket (so an e-mail address is not a mention), and the word has no spaces.
 */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret)
  const match = /(?:^|[\s(])@([^\s@[\]()]*)$/u.exec(before)
  if (!match || match[1]!.length > QUERY_MAX) return null
  return { start: caret - match[1]!.length - 1, query: match[1]! }
}

/** The text with the `@word` from `start` to the caret replaced by the user's mention and a space. */
export function insertMention(
  text: string,
  start: number,
  caret: number,
  user: { id: string; name: string }
): { text: string; caret: number } {
  const mention = `${mentionMarkdown(user)} `
  const after = text.slice(caret).replace(/^ /, '')
  return { text: `${text.slice(0, start)}${mention}${after}`, caret: start + mention.length }
}
