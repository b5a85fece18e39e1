// Entity tags of content: a read answers the revision it read as its ETag, and a write sends it back as
// If-Match (docs/api-behaviour.md, optimistic concurrency). Shared by main and the renderer. Pure TypeScript.

/** The entity tag naming a revision. */
export const entityTag = (revisionId: string): string => `"${revisionId}"`

/**
 * The revision ids an ETag or If-Match value names (one tag or a comma-separated list, quoted or not, weak or
 * strong); empty for none or `*` (any revision will do).
 */
export function revisionsOfTags(value: string | undefined): string[] {
  const text = value?.trim()
  if (!text || text === '*') return []
  return text
    .split(',')
    .map((tag) =>
      tag
        .trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1')
    )
    .filter(Boolean)
}
