// ESLint: type-aware rules (typescript-eslint), React hooks rules, and the import boundaries of
// design.md's layering. Formatting is Prettier's job (npm run format:check), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { LAYERS, layersRule } from './eslint-rules/layers.js';
import { TERMINAL_WRITES, terminalWritesRule } from './eslint-rules/terminal-writes.js';

// One plugin object for both project rules: flat config refuses two different objects under one name.
const diskdelta = { rules: { layers: layersRule, 'terminal-writes': terminalWritesRule } };

export default tseslint.config(
  { ignores: ['vite.config.ts', 'node_modules/**', 'dist/**', 'test-results/**', 'native/**/*.c', '**/fixtures/**/*.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Four programs, as `npm run typecheck` checks them: Node code, renderer, renderer tests, Electron glue.
        project: ['./tsconfig.json', './tsconfig.web.json', './tsconfig.renderer-tests.json', './tsconfig.electron.json'],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unnecessary-condition': 'error',
      // A default clause covers the cases a switch does not name (unknown transports, say).
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Off, and why:
      // - API handlers and ports implement async interfaces; `async () => value` is how a
      //   synchronous implementation satisfies one, not a forgotten await.
      '@typescript-eslint/require-await': 'off',
      // - We match control characters on purpose: to refuse them in input and to escape them
      //   on terminal output (model/display.ts), and to sniff binary import files.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Tests may wire layers together to check them against each other.
    files: ['electron/**/*.{ts,tsx}', 'renderer/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.fuzz.ts', '**/fixtures/**'],
    plugins: { diskdelta },
    rules: { 'diskdelta/layers': ['error', { root: import.meta.dirname, layers: LAYERS }] },
  },
  {
    // Terminal output only through the escaping writer (electron/cli/terminal.ts).
    files: TERMINAL_WRITES.files,
    ignores: TERMINAL_WRITES.ignores,
    plugins: { diskdelta },
    rules: { 'diskdelta/terminal-writes': ['error', { root: import.meta.dirname, writers: TERMINAL_WRITES.writers }] },
  },
  {
    // Tests, benchmarks and fuzz drivers read parsed JSON and probe states the types call
    // impossible (that is what they test), so the rules about `any` and "unnecessary" checks
    // would fight them; the promise rules stay on (an un-awaited assertion passes silently).
    files: ['**/*.test.ts', '**/*.spec.ts', '**/*.fuzz.ts', 'e2e/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  { files: ['**/*.js', '**/*.cjs', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
