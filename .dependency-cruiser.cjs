// @ts-check
// The rooms and floors of DESIGN.md §8 (docs/architecture.md), checked on resolved files: dependency-cruiser
// resolves every import (relative in any spelling, the tsconfig alias `@/`, packages) to the file it loads, so
// `'./../db/aggregate'`, `'../db/aggregate'` and `'@/lib/db/aggregate'` are one dependency and one verdict.
// `npm run lint` runs it with --ignore-known: violations accepted for a while would be listed in
// .dependency-cruiser-known-violations.json (it is empty, and the rules test keeps it exact); any other one fails.
// Only lib/env.ts reads process.env: that one stays an ESLint rule (eslint.config.mjs), being no import.

/** a path regex for files of these rooms of lib/ (folders; `env` is lib/env.ts) */
const lib = (...rooms) => `^lib/(${rooms.join('|')})(/|\\.ts$)`;
/** a path regex for these packages as installed (their files under node_modules, whatever the import says) */
const pkg = (...names) => `^node_modules/(${names.join('|')})/`;

const TESTS = '\\.(test|itest)\\.ts$';
const PRISMA = [pkg('@prisma/[^/]+', 'prisma', 'pg', 'pg-[^/]+', '@types/pg'), '^lib/generated/prisma/'];
const VENDOR_SDKS = pkg('openai', '@google/genai', '@anthropic-ai/sdk');
const FRAMEWORK = pkg('next', 'react', 'react-dom', '@types/react', '@types/react-dom');
const REDIS = pkg('bullmq', 'ioredis');
const CORE = lib('design', 'scoring', 'stats', 'analysis', 'schema');
const ACTIONS = '^components.*[/-]actions\\.ts$';
/** our own files (what "imports nothing of ours" forbids): every folder of the project, not packages or node's modules */
const OURS = '^(lib|app|components|cli|workers|scripts|prisma|e2e)/|^[^/]+\\.(ts|mjs|cjs)$';
/**
 * The core rooms in their one-way order, lowest first: a room imports only rooms of a lower step (and the
 * ground), so no room-level circle can form among them. dependency-cruiser checks circles of files, and of
 * folders only with tests counted (a test may wire any rooms together), so the order is the rule.
 * The ground (schema, hash, stats) imports nothing of ours at all: `ground-imports-nothing-of-ours`.
 */
const CORE_ORDER = [['schema', 'hash', 'stats'], ['fixture'], ['scoring'], ['studies'], ['design'], ['analysis']];
/** one rule per step between the ground and the top: its rooms import no room of a higher step */
const coreOneWay = CORE_ORDER.slice(1, -1).map((step, i) => ({
  name: `core-one-way (${step.join(', ')})`,
  comment: `The core rooms import one way (${CORE_ORDER.map((s) => s.join(' | ')).join(' < ')}): lib/${step.join(', lib/')} imports no core room above it (${CORE_ORDER.slice(
    i + 2,
  )
    .flat()
    .join(', ')}). Move the shared piece down, or the caller up.`,
  severity: 'error',
  from: { path: lib(...step), pathNot: TESTS },
  to: { path: lib(...CORE_ORDER.slice(i + 2).flat()) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'prisma-only-in-db',
      comment:
        'Only lib/db talks to PostgreSQL (Prisma, pg): call a lib/db function. (scripts/probe.mjs asks whether a server answers before the set-up has made the database.)',
      severity: 'error',
      from: { pathNot: ['^lib/db/', '^lib/generated/', '^scripts/probe\\.mjs$', '^prisma\\.config\\.ts$'] },
      to: { path: PRISMA },
    },
    {
      name: 'simulator-reads-what-a-model-is-sent',
      comment:
        'The simulated models (lib/simulator) answer from what a model is sent, as a model on its server does: they import only lib/schema (the request and answer types) and their own files, never a case card, a template, scoring or a study kind (docs/design.md#providers-and-the-simulated-models).',
      severity: 'error',
      from: { path: '^lib/simulator/', pathNot: TESTS },
      to: { path: OURS, pathNot: ['^lib/simulator/', '^lib/schema/'] },
    },
    {
      name: 'lib-framework-free',
      comment: 'lib/ is framework-free: no Next.js or React.',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/generated/' },
      to: { path: FRAMEWORK },
    },
    {
      name: 'core-is-pure',
      comment:
        'The pure core (lib/design, scoring, stats, analysis, schema) is given its data: it imports no lib/db, lib/providers, lib/queue, lib/env, vendor SDK, Redis client or framework. (Its tests may wire it to other rooms.)',
      severity: 'error',
      from: { path: CORE, pathNot: TESTS },
      to: { path: [lib('db', 'providers', 'queue', 'env'), ...PRISMA, VENDOR_SDKS, REDIS, FRAMEWORK] },
    },
    {
      name: 'ground-imports-nothing-of-ours',
      comment:
        'The ground floor imports nothing of ours: lib/schema (zod schemas and types, the one source every floor stands on), lib/hash (canonical JSON, SHA-256) and lib/stats (the formulas) import only packages and their own files. (Their tests may wire them to other rooms.)',
      severity: 'error',
      from: { path: '^lib/(schema|hash|stats)/', pathNot: TESTS },
      to: { path: OURS, pathNot: '^lib/$1/' },
    },
    ...coreOneWay,
    {
      name: 'components-render-only',
      comment:
        "Components render: they never load lib/db or lib/providers (they may name their types: `import type`). A components/**/actions.ts or *-actions.ts is a door and calls lib/ as a route handler does; a component's integration test may wire it to the database.",
      severity: 'error',
      from: { path: '^components/', pathNot: [ACTIONS, TESTS] },
      to: { path: [lib('db', 'providers'), VENDOR_SDKS], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-door-imports-a-door',
      comment:
        'A door (app/ pages and route handlers, components/**/actions.ts, cli/, workers/) calls lib/, never another door: what two doors share lives in lib/. Components are rendered by app/, never the other way round.',
      severity: 'error',
      from: { path: '^(components|cli|workers)/' },
      to: { path: '^app/' },
    },
    {
      name: 'no-door-imports-a-door (cli)',
      comment: 'The CLI is a door: what it shares with app/ or workers/ lives in lib/.',
      severity: 'error',
      from: { path: '^(app|components|workers)/' },
      to: { path: '^cli/' },
    },
    {
      name: 'no-door-imports-a-door (workers)',
      comment: 'A worker is a door: what it shares with app/ or cli/ lives in lib/.',
      severity: 'error',
      from: { path: '^(app|components|cli)/' },
      to: { path: '^workers/' },
    },
    {
      name: 'lib-imports-no-door',
      comment: 'lib/ is below every door: it never imports app/, components/, cli/ or workers/.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(app|components|cli|workers)/' },
    },
    {
      name: 'db-imports-no-room-above',
      comment:
        'lib/db is repositories: rows in, rows out. It imports the ground (lib/schema, lib/hash), its client (lib/generated, Prisma, pg) and the environment, and composes nothing (no analysis, auth, mcp, export, templates, …).',
      severity: 'error',
      from: { path: '^lib/db/', pathNot: TESTS },
      to: { path: '^lib/', pathNot: [lib('db', 'schema', 'hash', 'env', 'generated')] },
    },
    {
      name: 'rooms-import-no-use-case',
      comment:
        'The use cases (lib/runs, lib/experiments, lib/cases, lib/reviews, lib/accounts, lib/archive, lib/optimise) sit above the rooms: a room (or lib/db) never imports one. lib/experiments/parse.ts is the one parse of every door and floor, not a use case. (Tests and lib/testing may wire use cases in.)',
      severity: 'error',
      from: { path: '^lib/', pathNot: [TESTS, lib('runs', 'experiments', 'cases', 'reviews', 'accounts', 'archive', 'optimise', 'testing', 'generated')] },
      to: { path: lib('runs', 'experiments', 'cases', 'reviews', 'accounts', 'archive', 'optimise'), pathNot: '^lib/experiments/parse\\.ts$' },
    },
    {
      name: 'doors-read-no-db',
      comment:
        'A door (app/ pages and route handlers, server actions, cli/, workers/) and a component call use cases (lib/runs, lib/experiments, lib/cases, lib/reviews, lib/accounts, lib/archive, …), never lib/db — not even for a type: the row types a page needs live in lib/schema. (Tests may wire the database in.)',
      severity: 'error',
      from: { path: '^(app|components|cli|workers)/', pathNot: TESTS },
      to: { path: '^lib/db/' },
    },
    {
      name: 'doors-export-through-the-use-case',
      comment:
        "A door exports a run through the use case (lib/runs/export.ts: the run and its experiment loaded once, the one table of formats), never the export room's streams directly.",
      severity: 'error',
      from: { path: '^(app|components|cli|workers)/', pathNot: TESTS },
      to: { path: '^lib/export/(run|table1)\\.ts$' },
    },
    {
      name: 'resolvable',
      comment: 'Every import resolves to a file: one that does not would escape every rule above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      comment: 'No file circles: a circle makes two files one unit that neither can be read, tested nor moved without the other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^lib/generated/'] },
    exclude: { path: ['^\\.next/', '^lib/generated/prisma/(internal|models)/', '^datasets/', '^public/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.cjs', '.json', '.d.ts'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
