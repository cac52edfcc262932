// ESLint flat config. typescript-eslint's recommended rules everywhere, plus
// the few type-aware rules that catch real bugs in async Node code (a
// forgotten await silently loses errors and ordering). Type information comes
// from the project service, which reuses tsconfig.json.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', '.tmp/', '.scratch/', '**/*.d.ts', '**/*.tmp.*'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The event store client is used through its public entry point only:
    // its generated protocol code is internal and may change with any
    // release. The embedded store loads the protocol from its own .proto
    // files (src/eventstore/protos).
    files: ['**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@eventstore/db-client/*'], message: 'Import @eventstore/db-client itself; the protocol is in src/eventstore/protos (src/eventstore/grpc/proto.ts).' }] },
      ],
    },
  },
  {
    // The official event store client's stream tests, adapted (docs/eventstore.md):
    // kept as upstream writes them, which leaves unused names and un-awaited
    // unsubscribes (they settle with the subscription).
    files: ['test/eventstore/client-suite/*.int.spec.ts'],
    rules: { '@typescript-eslint/no-unused-vars': 'off', '@typescript-eslint/no-floating-promises': 'off' },
  },
  {
    // Logs are structured JSON through src/core/logger.ts; console output
    // would break log shipping (one JSON object per line).
    files: ['src/**', 'projections/**'],
    rules: { 'no-console': 'error' },
  },
  {
    // A function that does not fit on a screen gets split into named parts
    // (route registrations grouped by what the routes do, handlers and steps
    // as functions of their own). Tests are left out: their describe
    // callbacks are long by nature.
    files: ['src/**', 'projections/**'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', exports: 'writable', process: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The web console: ES modules run by the browser as they are (no build).
    files: ['console/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        ['window', 'document', 'location', 'history', 'sessionStorage', 'fetch', 'URL', 'URLSearchParams', 'AbortController', 'TextDecoderStream', 'TextEncoder', 'Blob',
          'requestAnimationFrame', 'cancelAnimationFrame', 'performance', 'devicePixelRatio', 'ResizeObserver', 'addEventListener', 'removeEventListener',
          'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'console', 'confirm', 'btoa', 'structuredClone', 'Intl'].map((g) => [g, 'readonly']),
      ),
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module' },
  },
);
