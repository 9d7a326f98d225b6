// ESLint: type-aware rules (typescript-eslint), React hooks rules, and the import boundaries of
// design.md's layering. Formatting is Prettier's job (npm run format:check), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { LAYERS, layersRule } from './eslint-rules/layers.js';

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
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unnecessary-condition': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
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
    plugins: { diskdelta: { rules: { layers: layersRule } } },
    rules: { 'diskdelta/layers': ['error', { root: import.meta.dirname, layers: LAYERS }] },
  },
  { files: ['**/*.js', '**/*.cjs', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
