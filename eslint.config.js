// ESLint for the whole tree, run by `npm test` (scripts/test.mjs) and `npm run lint`:
// - typescript-eslint's recommended rules, without type information (`tsc -b` checks the types; a typed lint of
//   this tree takes minutes on two cores), and React's rules of hooks in the renderer;
// - the layering of docs/architecture.md as `no-restricted-imports`: src-main's floors (a folder imports only
//   from lower floors), only src-main/electron/ and the preload import 'electron', the renderer and src-shared
//   import no Node built-ins and no other process's code, and only tests import test support.
//   test/layering.test.ts checks what an import rule cannot see (dynamic imports, require(), `instanceof`);
// - formatting is Prettier's (.prettierrc.json): eslint-config-prettier turns off every rule it decides.
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { builtinModules } from 'node:module'
import tseslint from 'typescript-eslint'

/** The floors of src-main, lowest first (docs/architecture.md, "Floors of src-main"). */
const FLOORS = [
  ['base'],
  ['storage'],
  ['content'],
  ['workspace'],
  ['git', 'openapi', 'preview'],
  ['api'],
  ['backend'],
  ['sync'],
  ['workspaces'],
  ['server'],
  ['cli', 'electron']
]

/** Test support: tests, src-main/testing, a folder's testing/, the routes' fixtures. May import anything. */
const TEST_SUPPORT = [
  '**/*.test.ts',
  '**/*.test.tsx',
  'src-main/testing/**',
  'src-main/*/testing/**',
  '**/fixtures.ts',
  '**/testFactories.ts'
]

const ELECTRON = {
  paths: [{ name: 'electron', message: "Only src-main/electron/ and the preload import 'electron' (the rest runs under plain Node)." }],
  patterns: [{ regex: '^electron/', message: "Only src-main/electron/ and the preload import 'electron'." }]
}
const NODE_BUILTINS = {
  paths: builtinModules.map((name) => ({ name, message: 'The renderer, the preload and src-shared use no Node built-ins.' })),
  patterns: [{ regex: '^node:', message: 'The renderer, the preload and src-shared use no Node built-ins.' }]
}
const TEST_ONLY = {
  regex: '(^|/)(testing|fixtures|testFactories)(/|$)|\\.test$',
  message: 'Only tests and test support import test support.'
}

/** How deep under its floor's folder a file may sit (a rule per depth: a relative import climbs that many folders). */
const MAX_DEPTH = 6

/**
 * One rule set per folder and depth: an import climbing out of the folder (`../` once per level) may name only a
 * folder of a lower floor.
 */
function floorRules() {
  return FLOORS.flatMap((folders, floor) =>
    folders.flatMap((folder) => {
      const above = FLOORS.slice(floor)
        .flat()
        .filter((other) => other !== folder)
      return Array.from({ length: MAX_DEPTH }, (_, depth) => ({
        files: [`src-main/${folder}/${'*/'.repeat(depth)}*.{ts,tsx}`],
        ignores: TEST_SUPPORT,
        rules: {
          'no-restricted-imports': [
            'error',
            {
              paths: folder === 'electron' ? [] : ELECTRON.paths,
              patterns: [
                ...(folder === 'electron' ? [] : ELECTRON.patterns),
                {
                  regex: `^(\\.\\./){${depth + 1}}(${above.join('|')})(/|$)`,
                  message: `src-main/${folder} imports only from lower floors (docs/architecture.md, "Floors of src-main").`
                },
                TEST_ONLY
              ]
            }
          ]
        }
      }))
    })
  )
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      'out-*/',
      '.ci-out/',
      '.scratch/',
      '.tanstack/',
      'test-results/',
      'test-results-*/',
      'playwright-report/',
      'bench/results/',
      'dist/', // npm run package
      '**/*.gen.ts'
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      eqeqeq: ['error', 'smart'],
      // A `let` a closure reads before its one assignment (a handle the callback needs) stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Names, refs and CSV cells are cleaned of control characters on purpose.
      'no-control-regex': 'off',
      // `_`-prefixed parameters and the rest siblings of a destructuring say "deliberately unused".
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }
      ]
    }
  },
  {
    // Tests and benchmarks read untyped JSON answers by the hundred; typing each one would add nothing they check.
    files: [...TEST_SUPPORT, 'test/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' }
  },
  {
    // Playwright reads a fixture's dependencies from its first parameter's pattern: `{}` says "none".
    files: ['e2e/fixtures/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' }
  },
  {
    files: ['src-main/**/*.ts', 'src-shared/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{js,mjs}', 'test/**/*.ts', 'e2e/**/*.ts'],
    ignores: ['src-main/electron/**'],
    rules: { 'no-restricted-imports': ['error', ELECTRON] }
  },
  ...floorRules(),
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [...ELECTRON.paths, ...NODE_BUILTINS.paths],
          patterns: [
            ...ELECTRON.patterns,
            ...NODE_BUILTINS.patterns,
            { regex: '(^|/)src-(main|preload)(/|$)', message: 'The renderer reaches the main process only through the preload bridge.' }
          ]
        }
      ]
    }
  },
  {
    files: ['src-preload/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', NODE_BUILTINS] }
  },
  {
    files: ['src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...ELECTRON.paths, ...NODE_BUILTINS.paths],
          patterns: [
            ...ELECTRON.patterns,
            ...NODE_BUILTINS.patterns,
            { regex: '(^|/)src-(main|preload|renderer)(/|$)', message: 'src-shared is imported by every process and imports none of them.' }
          ]
        }
      ]
    }
  },
  prettier
)
