/** URL slug of a title: lower-case ASCII letters and digits joined by dashes, at most `max` characters. */
export function slugify(title: string, max = 100): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '')
}
