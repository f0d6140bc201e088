// ESLint (typescript-eslint's recommended rules, and type-aware ones on src/) over the sources, tests, benchmarks, scripts
// and the browser scripts; Prettier owns the layout (eslint-config-prettier turns off the rules it would fight). `npm run lint` runs both, and .ci/run runs it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'models/', 'demo/', 'schema/', 'docs/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', performance: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // A variable assigned once after a closure that reads it is declared before it (e.g. a server's host policy).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // `_name` marks a value that is destructured away or a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Lines Prettier cannot break (long strings, comments) stay readable.
      'max-len': ['error', { code: 160, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // The scripts inlined into report.html and the view run in the browser: its globals, no Node's.
    files: ['**/*.client.js'],
    // draw.client.js defines textstressDraw for browser.client.js: report.html inlines both in one script element.
    languageOptions: {
      globals: { window: 'readonly', document: 'readonly', location: 'readonly', history: 'readonly', fetch: 'readonly', Node: 'readonly' },
    },
  },
  { files: ['src/report/html/browser.client.js'], languageOptions: { globals: { textstressDraw: 'readonly' } } },
  {
    files: ['src/report/html/draw.client.js'],
    rules: { '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^(_|textstressDraw$)', argsIgnorePattern: '^_' }] },
  },
  {
    // Type-aware rules where a wrong answer is quiet: a promise nobody awaits, awaiting a non-promise, a promise where
    // a boolean or a void callback is expected.
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // tfjs's ops return Tensor<Rank>: the rank is asserted, not inferred.
      '@typescript-eslint/no-unnecessary-type-assertion': ['error', { typesToIgnore: ['TF.Tensor2D', 'TF.Scalar'] }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
      '@typescript-eslint/no-base-to-string': 'error',
    },
  },
);
