import jsep, { type Expression } from 'jsep'

/**
 * Conditions of site spaces and sections: small expressions over the visitor's claims, such as
 * `visitor.claims.isBeta && !visitor.claims.unsigned.internal`. jsep only parses; this module checks the tree
 * against a whitelist and interprets it. Nothing is ever compiled to code (no eval, no Function), and property
 * reads only see the claims' own properties, never a prototype.
 *
 * Allowed: literals, `visitor.claims.<name>` and `visitor.claims.unsigned.<name>` paths (dotted or ['quoted']),
 * `!`, `&&`, `||`, comparisons (`==` and `!=` compare strictly, like `===` and `!==`), array literals, and the
 * methods `includes`, `startsWith`, `endsWith`.
 */

export class ConditionError extends Error {}

/** Claims a site declares in its adaptive schema; conditions may only name these when given. */
export interface DeclaredClaims {
  signed: Set<string>
  unsigned: Set<string>
}

export interface VisitorClaims {
  [name: string]: unknown
  unsigned?: Record<string, unknown>
}

const BINARY = new Set(['&&', '||', '==', '!=', '===', '!==', '<', '<=', '>', '>='])
const METHODS = new Set(['includes', 'startsWith', 'endsWith'])

const cache = new Map<string, Expression>()

/** Parses and checks a condition; throws ConditionError with a reader-facing reason. */
export function parseCondition(text: string, declared?: DeclaredClaims): Expression {
  let tree = cache.get(text)
  if (!tree) {
    try {
      tree = jsep(text)
    } catch (e) {
      throw new ConditionError(`cannot be parsed: ${(e as Error).message}`)
    }
    check(tree)
    if (cache.size > 1000) cache.clear()
    cache.set(text, tree)
  }
  if (declared) checkDeclared(tree, declared)
  return tree
}

/** True when the condition holds for these claims. A condition that cannot be parsed hides what it guards. */
export function evaluateCondition(text: string, claims: VisitorClaims): boolean {
  let tree: Expression
  try {
    tree = parseCondition(text)
  } catch {
    return false
  }
  return !!evaluate(tree, { visitor: { claims } })
}

// jsep types a node's members as a union of every node kind; the walker below checks `type` before reading them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = Expression & Record<string, any>

/** The dotted path of a member chain starting at an identifier (`visitor.claims.x`), or undefined. */
function pathOf(node: Node): string[] | undefined {
  if (node.type === 'Identifier') return [node.name]
  if (node.type !== 'MemberExpression') return undefined
  const base = pathOf(node.object)
  if (!base) return undefined
  const prop = node.computed
    ? node.property.type === 'Literal' && typeof node.property.value === 'string'
      ? node.property.value
      : undefined
    : node.property.name
  return prop === undefined ? undefined : [...base, prop]
}

function check(node: Node): void {
  switch (node.type) {
    case 'Literal':
      return
    case 'Identifier':
    case 'MemberExpression': {
      const path = pathOf(node)
      if (!path) throw new ConditionError('only visitor.claims.<name> paths with names or quoted keys can be read')
      if (path[0] !== 'visitor') throw new ConditionError(`unknown name ${path[0]} (conditions read visitor.claims)`)
      if (path[1] !== 'claims' || path.length < 3)
        throw new ConditionError(`${path.join('.')} is not a claim (write visitor.claims.<name>)`)
      return
    }
    case 'UnaryExpression':
      if (node.operator !== '!') throw new ConditionError(`operator ${node.operator} is not allowed`)
      return check(node.argument)
    case 'BinaryExpression':
    case 'LogicalExpression':
      if (!BINARY.has(node.operator)) throw new ConditionError(`operator ${node.operator} is not allowed`)
      check(node.left)
      return check(node.right)
    case 'ArrayExpression':
      for (const element of node.elements ?? []) {
        if (!element || element.type !== 'Literal') throw new ConditionError('array elements must be literals')
      }
      return
    case 'CallExpression': {
      const callee = node.callee as Node
      const method = callee.type === 'MemberExpression' && !callee.computed ? callee.property.name : undefined
      if (!method || !METHODS.has(method)) throw new ConditionError(`only ${[...METHODS].join(', ')} can be called`)
      if (node.arguments.length !== 1) throw new ConditionError(`${method} takes one argument`)
      check(callee.object)
      return check(node.arguments[0])
    }
    default:
      throw new ConditionError(`${describe(node.type)} is not allowed`)
  }
}

function describe(type: string): string {
  return type
    .replace(/Expression$/, ' expression')
    .replace(/^Compound.*/, 'more than one expression')
    .toLowerCase()
}

function checkDeclared(node: Node, declared: DeclaredClaims): void {
  const visit = (n: Node | null | undefined): void => {
    if (!n || typeof n !== 'object') return
    if (n.type === 'MemberExpression' || n.type === 'Identifier') {
      const path = pathOf(n)
      if (path && path[0] === 'visitor') return checkPath(path, declared)
    }
    for (const value of Object.values(n)) {
      if (Array.isArray(value)) value.forEach((v) => visit(v as Node))
      else if (value && typeof value === 'object' && 'type' in value) visit(value as Node)
    }
  }
  visit(node)
}

function checkPath(path: string[], declared: DeclaredClaims): void {
  const [, , name, sub] = path
  if (name === 'unsigned' && sub !== undefined) {
    if (!declared.unsigned.has(sub))
      throw new ConditionError(`visitor.claims.unsigned.${sub} is not an unsigned claim of the site's adaptive schema`)
    if (path.length > 4) throw new ConditionError(`visitor.claims.unsigned.${sub} is a boolean claim`)
    return
  }
  if (name === 'unsigned') return
  if (!declared.signed.has(name!)) throw new ConditionError(`visitor.claims.${name} is not a claim of the site's adaptive schema`)
  if (path.length > 3) throw new ConditionError(`visitor.claims.${name} is a boolean claim`)
}

function read(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return undefined
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined
}

function evaluate(node: Node, scope: Record<string, unknown>): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value
    case 'Identifier':
    case 'MemberExpression':
      return pathOf(node)!.reduce<unknown>((value, key) => read(value, key), scope)
    case 'UnaryExpression':
      return !evaluate(node.argument, scope)
    case 'ArrayExpression':
      return (node.elements as Node[]).map((e) => e.value)
    case 'CallExpression': {
      const target = evaluate(node.callee.object, scope)
      const arg = evaluate(node.arguments[0], scope)
      const method = node.callee.property.name as string
      if (Array.isArray(target)) return method === 'includes' ? target.includes(arg) : false
      if (typeof target === 'string' && typeof arg === 'string')
        return (target[method as 'includes'] as (s: string) => boolean).call(target, arg)
      return false
    }
    default: {
      if (node.operator === '&&') return evaluate(node.left, scope) && evaluate(node.right, scope)
      if (node.operator === '||') return evaluate(node.left, scope) || evaluate(node.right, scope)
      const a = evaluate(node.left, scope)
      const b = evaluate(node.right, scope)
      switch (node.operator) {
        case '==':
        case '===':
          return a === b
        case '!=':
        case '!==':
          return a !== b
      }
      if (!((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string'))) return false
      switch (node.operator) {
        case '<':
          return a < b
        case '<=':
          return a <= b
        case '>':
          return a > b
        default:
          return a >= b
      }
    }
  }
}
