import { describe, expect, it } from 'vitest'
import { ConditionError, evaluateCondition, parseCondition } from './conditions'

describe('condition evaluation', () => {
  const claims = { isBeta: true, plan: 'pro', seats: 12, products: ['api', 'sdk'], unsigned: { internal: false, lang: 'fr' } }

  it.each([
    ['visitor.claims.isBeta', true],
    ['!visitor.claims.isBeta', false],
    ['visitor.claims.isBeta && !visitor.claims.unsigned.internal', true],
    ['visitor.claims.unsigned.internal || visitor.claims.missing', false],
    ["visitor.claims.plan == 'pro'", true],
    ["visitor.claims.plan != 'pro'", false],
    ["visitor.claims['plan'] === 'pro'", true],
    ['visitor.claims.seats >= 10 && visitor.claims.seats < 20', true],
    ["visitor.claims.seats > '10'", false],
    ["visitor.claims.products.includes('sdk')", true],
    ["['fr', 'de'].includes(visitor.claims.unsigned.lang)", true],
    ["visitor.claims.plan.startsWith('p')", true],
    ["visitor.claims.missing.includes('x')", false],
    ['visitor.claims.missing.deeper.still', false],
    // Loose equality would make 1 == true; conditions compare strictly.
    ['visitor.claims.isBeta == 1', false],
    // Prototype members are not claims.
    ['visitor.claims.constructor', false],
    ["visitor.claims['__proto__']", false],
    ['visitor.claims.products.length == 2', true]
  ])('%s → %s', (condition, expected) => {
    expect(evaluateCondition(condition, claims)).toBe(expected)
  })

  it('treats a condition that does not parse as false', () => {
    expect(evaluateCondition('visitor.claims.isBeta &&', claims)).toBe(false)
    expect(evaluateCondition('process.exit(1)', claims)).toBe(false)
  })

  it('refuses what is not a claim read, a comparison or a logical operator', () => {
    for (const text of [
      'process.exit(1)',
      'visitor.claims.a = 1',
      'new Date()',
      'visitor.claims.a ? 1 : 2',
      '(() => 1)()',
      'visitor.claims.a ** 2',
      'typeof visitor'
    ]) {
      expect(() => parseCondition(text), text).toThrow(ConditionError)
    }
  })
})
