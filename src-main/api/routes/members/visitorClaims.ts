export const VISITOR_CLAIMS_TTL_S = 60 * 60

export interface VisitorClaims {
  sub: string
  org: string
  role: string | null
}

/**
 * Signs the claims `ping` hands out (HS256, valid one hour from `now`) with the organization's visitor-claims
 * key (`visitorClaimsKey`), which is what the local site preview verifies them with.
 */
export async function signVisitorClaims(claims: VisitorClaims, key: Uint8Array, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000)
  const { SignJWT } = await import('jose') // loaded on first use: most starts sign nothing
  return new SignJWT({ org: claims.org, role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(iat)
    .setExpirationTime(iat + VISITOR_CLAIMS_TTL_S)
    .sign(key)
}
