// @ts-check
// ESLint (flat config): typescript-eslint, Next.js's rules (with react and react-hooks), and the one room
// rule that is no import: only lib/env.ts reads process.env. The rooms and floors of DESIGN.md §8 (which
// file may import which) are checked on resolved files by dependency-cruiser (.dependency-cruiser.cjs,
// docs/architecture.md), not here: a regex over an import string can be spelled around. No type-aware
// rules: `tsc --noEmit` checks types already, and without them a full lint takes a few seconds.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const UI = ['app/**', 'components/**'];

/** React's rules (react, react-hooks with its compiler checks, jsx-a11y) off where no React code may be: most of the lint time otherwise. */
const notUi = Object.fromEntries(
  nextVitals
    .flatMap((c) => Object.keys(c.rules ?? {}))
    .filter((r) => /^(react|react-hooks|jsx-a11y)\//.test(r))
    .map((r) => [r, 'off']),
);

export default defineConfig([
  globalIgnores(['.next/**', 'lib/generated/**', 'datasets/**', 'public/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts']),
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-unused-expressions': 'error',
      'import/no-anonymous-default-export': 'off',
      // an apostrophe or a quote in JSX text is text; only characters JSX would misread are flagged
      'react/no-unescaped-entities': ['error', { forbid: ['>', '}'] }],
    },
  },
  // Tests build hostile and broken input on purpose.
  { files: ['**/*.test.ts', '**/*.itest.ts', 'e2e/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // The tanstack table hook is not memoisable by the React Compiler, which this app does not run.
  { rules: { 'react-hooks/incompatible-library': 'off' } },
  { ignores: UI, rules: notUi },
  // only lib/env.ts reads process.env; test harnesses (tests, lib/testing, scripts, tool configs) set it up
  // for the processes they start
  {
    files: ['app/**', 'components/**', 'lib/**', 'cli/**', 'workers/**'],
    ignores: ['lib/env.ts', 'lib/testing/**', '**/*.test.ts', '**/*.itest.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through env() from lib/env.ts, the one reader of process.env.' },
      ],
    },
  },
]);
