// Type-aware lint for the whole monorepo; `npm run lint` runs it with --max-warnings 0.
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

const webSrc = join(import.meta.dirname, 'apps/web/src')
// Every folder under features/ is a zone of its own, so a new feature is fenced in without an edit.
const webFeatures = readdirSync(join(webSrc, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', 'test-results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      // `void p` hides a rejection, which Node turns into a crash (issue 7, defect 2): a promise is
      // awaited, or handled with `.catch` that logs.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Fastify plugins are async functions by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // With noUncheckedIndexedAccess, `!` after a checked index is the readable idiom.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Tests read JSON bodies as `any` on purpose: asserting their shape is the test.
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'apps/server/test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-plus-operands': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Features may use shared code, never the other way round (Bulletproof React).
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/*/**', '@/features/*/**'],
              message: 'Import from a feature inside that feature or from app/ only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}', 'apps/web/src/app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Layers of the web app (Bulletproof React): app/ composes features; a feature imports only
    // itself, lib/ and components/; lib/ and components/ import neither. Paths are resolved, so
    // `../../other-feature/...` is caught as well as any alias.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: webSrc,
          zones: [
            ...webFeatures.map((feature) => ({
              target: `./features/${feature}`,
              from: './features',
              except: [`./${feature}`],
              message:
                'A feature does not import another feature: move shared code to lib/ or components/, or compose in app/.',
            })),
            {
              target: './features',
              from: './app',
              message: 'Features do not import app/; app/ composes features.',
            },
            {
              target: ['./lib', './components'],
              from: ['./features', './app'],
              message: 'Shared code must not import features or app.',
            },
          ],
        },
      ],
    },
  },
  {
    // Server modules (STYLE.md): a module reaches another only through its service, which app.ts
    // (the composition root) passes in; another module's SQL (its repositories) is off limits, even
    // as a type. app.ts and the tests under apps/server/test are outside this zone.
    files: ['apps/server/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(?!platform/)(modules/)?[\\w-]+/([\\w-]+-)?repository$',
              message:
                "A module does not import another module's repository: take that module's service (or a narrow interface of it) from app.ts.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/lib/**', 'apps/web/src/components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/app/**'],
              message: 'shared code must not import features or app',
            },
          ],
        },
      ],
    },
  },
  prettier,
)
