// @ts-check
// ESLint (flat config): typescript-eslint, Next.js's rules (with react and react-hooks), and the rooms of
// DESIGN.md §8 as import rules per directory. No type-aware rules: `tsc --noEmit` checks types already,
// and without them a full lint takes a few seconds.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/** Imports a room may not make: regexes over the import source, each with the reason. */
const ROOM = {
  prisma: [
    { regex: '^(@prisma/|prisma$|pg$|pg-)', message: 'Only lib/db talks to PostgreSQL (Prisma, pg): call a lib/db function.' },
    { regex: '(^|/)generated/prisma(/|$)', message: 'Only lib/db imports the Prisma client.' },
  ],
  db: [{ regex: '(^@/lib/|^(\\.\\./)+(lib/)?)db(/|$)', message: 'Not lib/db here: the pure core and components are given their data (docs/development.md).' }],
  providers: [
    {
      regex: '(^@/lib/|^(\\.\\./)+(lib/)?)providers(/|$)',
      message: 'Not lib/providers here: the pure core and components never talk to a provider (docs/development.md).',
    },
    { regex: '^(openai|@google/genai|@anthropic-ai/sdk)(/|$)', message: 'Only lib/providers talks to a vendor SDK.' },
  ],
  queue: [
    { regex: '(^@/lib/|^(\\.\\./)+(lib/)?)queue(/|$)', message: 'The pure core does not import lib/queue.' },
    { regex: '^(bullmq|ioredis)(/|$)', message: 'The pure core does not talk to Redis.' },
  ],
  env: [{ regex: '(^@/lib/|^(\\.\\./)+(lib/)?)env$', message: 'The pure core does not read the environment.' }],
  framework: [{ regex: '^(next|react|react-dom)(/|$)', message: 'lib/ is framework-free: no Next.js or React.' }],
};

/**
 * no-restricted-imports for one room (a later config object replaces the option, so each room lists all it
 * forbids). `types`: `import type` is allowed (erased: no code of that room is loaded).
 */
const forbid = (rooms, { types = false } = {}) => ({
  'no-restricted-imports': ['error', { patterns: rooms.flatMap((r) => ROOM[r]).map((p) => ({ ...p, allowTypeImports: types })) }],
});

const CORE = ['lib/design', 'lib/scoring', 'lib/stats', 'lib/analysis', 'lib/schema'].map((d) => `${d}/**/*.{ts,tsx}`);
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
  // Rooms: only lib/db talks to PostgreSQL (scripts/probe.mjs asks whether a server answers before the
  // set-up has made the database); lib/ is framework-free; the pure core imports nothing impure; components render and never load
  // lib/db or lib/providers (they may name their types). A components/**/actions.ts (or *-actions.ts: the work under a server action, for an actor its door checked) is a door,
  // a door like app/ (beside the form it serves): it calls lib/ as a route handler does.
  { ignores: ['lib/db/**', 'scripts/probe.mjs'], rules: forbid(['prisma']) },
  { files: ['lib/**'], ignores: ['lib/db/**'], rules: forbid(['prisma', 'framework']) },
  { files: ['lib/db/**'], rules: forbid(['framework']) },
  // (its tests may wire it to other rooms: a test of the bounds reads lib/env, one of the simulated provider's ids)
  { files: CORE, ignores: ['**/*.test.ts', '**/*.itest.ts'], rules: forbid(['prisma', 'db', 'providers', 'queue', 'env', 'framework']) },
  {
    files: ['components/**/*.{ts,tsx}'],
    ignores: ['components/**/actions.ts', 'components/**/*-actions.ts'],
    rules: forbid(['prisma', 'db', 'providers'], { types: true }),
  },
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
