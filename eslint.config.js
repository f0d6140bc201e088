// ESLint (typescript-eslint's recommended rules) over the sources, tests, benchmarks and scripts; Prettier owns the
// layout (eslint-config-prettier turns off the rules it would fight). `npm run lint` runs both, and .ci/run runs it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'models/', 'demo/', 'schema/', 'docs/', 'test/fixtures/', '**/*.client.js'] },
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
);
