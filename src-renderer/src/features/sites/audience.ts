// The audience view's logic: which claims the form offers (from the site's adaptive schema) and the preview
// address that shows the site as that visitor. Pure functions: tested in Node.
import type { Claim } from './adaptiveSchema.ts'

/** A visitor to show the site as: signed claims (sent in a token the API signs) and unsigned ones (in the address). */
export interface Audience {
  signed: Record<string, boolean>
  unsigned: Record<string, boolean>
}

export const EVERYONE: Audience = { signed: {}, unsigned: {} }

/** Every claim of the schema, off: the form's starting point. */
export function audienceOf(claims: readonly Claim[], values: Partial<Audience> = {}): Audience {
  const pick = (signed: boolean, from: Record<string, boolean> = {}) =>
    Object.fromEntries(claims.filter((c) => c.signed === signed).map((c) => [c.name, from[c.name] ?? false]))
  return {
    signed: pick(true, values.signed),
    unsigned: pick(false, values.unsigned)
  }
}

/** True when any claim is on (the view is not the anonymous visitor's). */
export function hasClaims(audience: Audience): boolean {
  return Object.values(audience.signed).some(Boolean) || Object.values(audience.unsigned).some(Boolean)
}

/** What the summary line says: the claims that are on, as conditions name them. */
export function describeAudience(audience: Audience): string {
  const on = [
    ...Object.entries(audience.signed)
      .filter(([, v]) => v)
      .map(([k]) => k),
    ...Object.entries(audience.unsigned)
      .filter(([, v]) => v)
      .map(([k]) => `unsigned.${k}`)
  ]
  return on.length ? `A visitor with ${on.join(', ')}` : 'A visitor without claims'
}

export interface PreviewOptions {
  /** A visitor token signed for the signed claims. */
  token?: string
  unsigned?: Record<string, boolean>
  scheme?: 'light' | 'dark'
}

/**
 * The draft preview's address for one visitor: the token as `jwt_token`, unsigned claims as `visitor.<name>`
 * (the preview reads them when adaptive content is on), and the colour scheme.
 */
export function previewAddress(draftUrl: string, options: PreviewOptions = {}): string {
  const url = new URL(draftUrl)
  if (options.token) url.searchParams.set('jwt_token', options.token)
  for (const [name, value] of Object.entries(options.unsigned ?? {})) if (value) url.searchParams.set(`visitor.${name}`, 'true')
  if (options.scheme) url.searchParams.set('scheme', options.scheme)
  return url.toString()
}
