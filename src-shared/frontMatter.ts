// Where a page's front matter is: shared by the server (page settings, src-shared/pageSettings.ts) and the editor
// (the strip above the preview, the page settings menu), so both find the block remark-frontmatter parses, and
// nothing else.

/**
 * The front matter block: `---` as the very first line, YAML (possibly none), a closing `---` line; trailing
 * blanks on the fence lines allowed, as remark-frontmatter reads it (a YAML `...` does not close it).
 */
const BLOCK = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/

/** The front matter block: its YAML text and where the block ends (the page's text starts there). */
export function frontMatterBlock(markdown: string): { source: string; end: number } | null {
  const match = BLOCK.exec(markdown)
  return match ? { source: match[1] ?? '', end: match[0].length } : null
}

/** The front matter block's YAML text, or null when the markdown does not start with one. */
export function frontMatterSource(markdown: string): string | null {
  return frontMatterBlock(markdown)?.source ?? null
}
