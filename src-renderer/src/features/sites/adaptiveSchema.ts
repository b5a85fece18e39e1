// The adaptive-content schema editor's logic: reading the typed JSON (with a position for a syntax error)
// and listing the claims a schema declares, as conditions name them. Pure functions: tested in Node.

export type ParsedSchema = { ok: true; value: Record<string, unknown> } | { ok: false; message: string; line?: number; column?: number }

/** Line and column (1-based) of a character offset in a text. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)))
  const lines = before.split('\n')
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 }
}

/**
 * Parses the editor's text before anything is sent: a syntax error says where it is, and the document must be
 * an object (the API wants a JSON Schema of type object).
 */
export function parseSchemaText(text: string): ParsedSchema {
  if (!text.trim()) return { ok: false, message: 'The schema is empty: write a JSON object.' }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    // V8 says "… in JSON at position 42" (sometimes also "(line 3 column 5)"); point at it when it does.
    const at = /position (\d+)/.exec(message)
    const where = at ? lineColumnAt(text, Number(at[1])) : undefined
    const reason = message
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/\s+in JSON at position \d+.*$/s, '')
      .replace(/, ".*" is not valid JSON$/s, '')
    return where
      ? { ok: false, message: `${reason} (line ${where.line}, column ${where.column})`, ...where }
      : { ok: false, message: reason }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: 'The schema must be a JSON object ({ … }).' }
  return { ok: true, value: value as Record<string, unknown> }
}

export interface Claim {
  /** How a condition reads it: `visitor.claims.beta` or `visitor.claims.unsigned.beta`. */
  expression: string
  name: string
  signed: boolean
  description?: string
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** The claims a schema declares (`properties`, and `properties.unsigned.properties`), for the condition hint. */
export function claimsOf(schema: unknown): Claim[] {
  if (!isObject(schema) || !isObject(schema.properties)) return []
  const claims: Claim[] = []
  const describe = (claim: unknown) => (isObject(claim) && typeof claim.description === 'string' ? claim.description : undefined)
  for (const [name, claim] of Object.entries(schema.properties)) {
    if (name === 'unsigned') continue
    claims.push({ name, signed: true, expression: `visitor.claims.${name}`, description: describe(claim) })
  }
  const unsigned = schema.properties.unsigned
  if (isObject(unsigned) && isObject(unsigned.properties)) {
    for (const [name, claim] of Object.entries(unsigned.properties)) {
      claims.push({ name, signed: false, expression: `visitor.claims.unsigned.${name}`, description: describe(claim) })
    }
  }
  return claims
}

/** The schema as the editor shows it: two-space JSON. */
export function schemaText(schema: Record<string, unknown>): string {
  return JSON.stringify(schema, null, 2)
}
