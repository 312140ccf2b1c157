import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

export default ts.config(
  {
    ignores: [
      '**/node_modules/',
      '**/.svelte-kit/',
      'web/build/',
      'data/',
      'test-results/',
      'playwright-report/',
      'tests/artifacts/',
      '.tmp/',
      '**/*.config.js',
      '**/*.config.mjs',
    ],
  },
  js.configs.recommended,
  ...ts.configs.recommendedTypeChecked,
  ...svelte.configs.recommended,
  prettier,
  ...svelte.configs.prettier,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Plain scripts are outside every tsconfig: lint them without type information.
    files: ['**/*.mjs', '**/*.js'],
    ...ts.configs.disableTypeChecked,
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser } },
  },
  {
    // core is pure: no I/O, no server or web code, no Node built-ins.
    files: ['packages/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'http', 'https', 'zlib', 'child_process'],
              message: 'core is pure: no I/O.',
            },
            {
              group: ['@quire/server', '@quire/server/*', '@quire/web', '@quire/web/*'],
              message: 'core imports nothing from server or web.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'core is pure: no I/O.' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'core reads no clock: take `now` as a parameter.',
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'core reads no clock: take `now` as a parameter.',
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@quire/web', '@quire/web/*'], message: 'server and web never import each other.' },
            {
              group: ['better-sqlite3', 'pg'],
              message: 'SQL lives in server/src/store/: take a store object through its interface instead.',
            },
          ],
        },
      ],
    },
  },
  {
    // One persistence layer: store/ sees only core, Node, better-sqlite3, itself and the server's error type,
    // so a second engine can stand beside it and services never reach past its interfaces.
    files: ['server/src/store/**/*.ts'],
    ignores: ['server/src/store/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!node:|better-sqlite3$|@quire/core(/.*)?$|\\./|\\.\\./errors\\.ts$)',
              message:
                'server/src/store/ imports only core, Node built-ins, better-sqlite3 and ../errors.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // The PostgreSQL engine (issue 13): the same, with pg instead of better-sqlite3, the store's own modules
    // (its interfaces) one folder up, and yjs, which compaction merges other nodes' rows with.
    files: ['server/src/store/pg/**/*.ts'],
    ignores: ['server/src/store/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(?!node:|pg$|yjs$|@quire/core(/.*)?$|\\./|\\.\\./(?!\\.\\./)|\\.\\./\\.\\./errors\\.ts$)',
              message:
                'server/src/store/pg/ imports only core, Node built-ins, pg, yjs, store/ and ../../errors.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // Store tests: the server-wide rule without the better-sqlite3 ban.
    files: ['server/src/store/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@quire/web', '@quire/web/*'], message: 'server and web never import each other.' },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.ts', 'web/**/*.svelte'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@quire/server', '@quire/server/*'],
              message: 'server and web never import each other.',
            },
          ],
        },
      ],
    },
  },
);
