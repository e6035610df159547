import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The room rules (.dependency-cruiser.cjs) as `npm run lint` runs them, on probe files written into a copy of
// the source tree in a temporary folder (the checkout itself is never written): a forbidden import fails
// however it is spelled (the rules see resolved files, not import strings), a new circle fails, a core room
// importing upward fails, an allowed import passes, and the known-violation baseline lists only violations
// that are still there.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const TAG = `rooms-probe-${process.pid}`;
const SOURCES = ['app', 'components', 'lib', 'cli', 'workers', 'scripts', 'prisma', 'e2e'];

/**
 * A copy of what the rules read — the source folders, the top-level files, the rules and their baseline —
 * with node_modules linked in (resolved through the link, so packages keep their `node_modules/…` paths).
 */
function copyOfTheTree(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tclab-rooms-'));
  for (const name of SOURCES) cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true });
  for (const name of readdirSync(ROOT)) if (/\.(ts|json|cjs|mjs)$/.test(name) && !name.startsWith('.env')) cpSync(path.join(ROOT, name), path.join(dir, name));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const config = "const base = require('./.dependency-cruiser.cjs');\nmodule.exports = { ...base, options: { ...base.options, preserveSymlinks: true } };\n";
  writeFileSync(path.join(dir, 'rooms-probe.cjs'), config);
  return dir;
}
const WORK = copyOfTheTree();
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

function probe(rel: string, text: string): string {
  const file = path.join(WORK, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return rel;
}

type Violation = { from: string; to: string; rule: { name: string; severity: string }; cycle?: { name: string }[] };

/** depcruise with the project's config on these files (and what they import), as JSON. */
function cruise(args: string[]): Violation[] {
  const r = spawnSync(process.execPath, [DEPCRUISE, '--config', 'rooms-probe.cjs', '--output-type', 'json', ...args], {
    cwd: WORK,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (!r.stdout) throw new Error(`depcruise printed nothing (status ${r.status}): ${r.stderr}`);
  return (JSON.parse(r.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

/** A violation as the baseline names it: rule and edge, or rule and the files of the circle. */
const key = (v: Violation) =>
  v.cycle
    ? `${v.rule.name}: ${v.cycle
        .map((c) => c.name)
        .sort()
        .join(' <-> ')}`
    : `${v.rule.name}: ${v.from} -> ${v.to}`;

describe('the room rules (dependency-cruiser, npm run lint)', () => {
  it('fail on every spelling of a forbidden import, on a new circle, a core room importing upward and a door importing a door, pass what is allowed; the baseline is exact', () => {
    const files = {
      dotSlashDotDot: probe(`lib/scoring/${TAG}-a.ts`, "import { x } from './../db/aggregate';\nexport const y = x;\n"),
      dotDot: probe(`lib/scoring/${TAG}-b.ts`, "import { x } from '../db/aggregate';\nexport const y = x;\n"),
      alias: probe(`lib/scoring/${TAG}-c.ts`, "import { x } from '@/lib/db/aggregate';\nexport const y = x;\n"),
      roundabout: probe(`lib/scoring/${TAG}-d.ts`, "import { x } from '../../lib/scoring/../db/./aggregate.ts';\nexport const y = x;\n"),
      prisma: probe(`lib/stats/${TAG}-e.ts`, "import { PrismaClient } from '@prisma/client';\nexport const y = PrismaClient;\n"),
      circleOne: probe(`lib/stats/${TAG}-f.ts`, `import { g } from './${TAG}-g';\nexport const f = () => g;\n`),
      circleTwo: probe(`lib/stats/${TAG}-g.ts`, `import { f } from '@/lib/stats/${TAG}-f';\nexport const g = () => f;\n`),
      componentValue: probe(`components/${TAG}-h.ts`, "import { x } from '../lib/providers/registry';\nexport const y = x;\n"),
      componentType: probe(`components/${TAG}-i.ts`, "import type { X } from '@/lib/providers/registry';\nexport type Y = X;\n"),
      componentDbType: probe(`components/${TAG}-i2.ts`, "import type { RunRow } from '@/lib/db/runs';\nexport type Y = RunRow;\n"),
      pageToDb: probe(`app/${TAG}-x/page.tsx`, "import { getRun } from '@/lib/db/runs';\nexport default async function P() { return String(await getRun('r')); }\n"),
      actionToDb: probe(`components/${TAG}-actions.ts`, "'use server';\nimport { recordAudit } from '../lib/db/audit';\nexport const y = recordAudit;\n"),
      cliToDb: probe(`cli/${TAG}-y.ts`, "import { closeDb } from '../lib/db/client';\nexport const y = closeDb;\n"),
      workerToDb: probe(`workers/${TAG}-z.ts`, "import { pool } from '../lib/db/client';\nexport const y = pool;\n"),
      doorToUseCase: probe(`workers/${TAG}-z2.ts`, "import { closeConnections } from '../lib/runs/connections';\nexport const y = closeConnections;\n"),
      componentToApp: probe(`components/${TAG}-j.ts`, "import { pageActor } from '../app/_auth/guard';\nexport const y = pageActor;\n"),
      dbUpward: probe(`lib/db/${TAG}-k.ts`, "import { x } from './../analysis/cells';\nexport const y = x;\n"),
      allowed: probe(`lib/scoring/${TAG}-l.ts`, "import { x } from './../stats/mcnemar';\nexport const y = x;\n"),
      unresolvable: probe(`lib/scoring/${TAG}-m.ts`, "import { x } from './../stats/no-such-file';\nexport const y = x;\n"),
      // the core rooms: the ground imports nothing of ours, the others one way (fixture < scoring < studies < design < analysis)
      schemaUpward: probe(`lib/schema/${TAG}-n.ts`, "import { STUDY_KINDS } from '@/lib/studies/registry';\nexport const y = STUDY_KINDS;\n"),
      hashUpward: probe(`lib/hash/${TAG}-o.ts`, "import { StudyKind } from '../schema/study-kind';\nexport const y = StudyKind;\n"),
      fixtureUpward: probe(`lib/fixture/${TAG}-p.ts`, "import { countMatrix } from './../design/matrix';\nexport const y = countMatrix;\n"),
      designUpward: probe(`lib/design/${TAG}-q.ts`, "import { summarizeRun } from '../analysis/summary';\nexport const y = summarizeRun;\n"),
      coreDownward: probe(
        `lib/analysis/${TAG}-r.ts`,
        "import { countMatrix } from '../design/matrix';\nimport { canonicalJson } from '../hash';\nexport const y = [countMatrix, canonicalJson];\n",
      ),
      dbToUseCase: probe(`lib/db/${TAG}-s.ts`, "import { loadRunSummary } from '@/lib/runs/summary';\nexport const y = loadRunSummary;\n"),
      roomToUseCase: probe(`lib/runner/${TAG}-t.ts`, "import { saveExperiment } from './../experiments/versions';\nexport const y = saveExperiment;\n"),
      roomToParse: probe(`lib/runner/${TAG}-u.ts`, "import { parseSpecValue } from '../experiments/parse';\nexport const y = parseSpecValue;\n"),
      doorToExportRoom: probe(`cli/${TAG}-v.ts`, "import { runJson } from '../lib/export/run';\nexport const y = runJson;\n"),
      doorToExportUseCase: probe(`cli/${TAG}-w.ts`, "import { exportStream } from '../lib/runs/export';\nexport const y = exportStream;\n"),
      simulatorToScoring: probe(`lib/simulator/${TAG}-x.ts`, "import { parseFinalText } from '../scoring/markers';\nexport const y = parseFinalText;\n"),
      simulatorToSchema: probe(
        `lib/simulator/${TAG}-y.ts`,
        "import { STUDY_KINDS } from '../schema/study-kind';\nimport { tokenize } from './text';\nexport const y = [STUDY_KINDS, tokenize];\n",
      ),
    };
    // as `npm run lint` runs it: the known violations softened to 'ignore', every other one an error
    const all = cruise(['--ignore-known', '.dependency-cruiser-known-violations.json', ...SOURCES]);
    const errors = all.filter((v) => v.rule.severity === 'error');
    const rulesOf = (file: string) => [...new Set(errors.filter((v) => v.from === file).map((v) => v.rule.name))].sort();
    const targets = (file: string) => errors.filter((v) => v.from === file).map((v) => v.to);

    // one dependency, one verdict, whatever the spelling
    for (const f of [files.dotSlashDotDot, files.dotDot, files.alias, files.roundabout]) {
      expect(rulesOf(f), f).toEqual(['core-is-pure']);
      expect(targets(f), f).toEqual(['lib/db/aggregate.ts']);
    }
    expect(rulesOf(files.prisma)).toEqual(['core-is-pure', 'prisma-only-in-db']);
    // a circle is reported once, naming its files
    expect(errors.filter((v) => v.rule.name === 'no-circular').map(key)).toEqual([`no-circular: ${[files.circleOne, files.circleTwo].sort().join(' <-> ')}`]);
    expect(rulesOf(files.componentValue)).toEqual(['components-render-only']);
    expect(rulesOf(files.componentType)).toEqual([]);
    // doors read through use cases: a page, a server action, the CLI, a worker or a component importing lib/db fails
    expect(rulesOf(files.componentDbType)).toEqual(['doors-read-no-db']);
    expect(rulesOf(files.pageToDb)).toEqual(['doors-read-no-db']);
    expect(rulesOf(files.actionToDb)).toEqual(['doors-read-no-db']);
    expect(rulesOf(files.cliToDb)).toEqual(['doors-read-no-db']);
    expect(rulesOf(files.workerToDb)).toEqual(['doors-read-no-db']);
    expect(rulesOf(files.doorToUseCase)).toEqual([]);
    expect(rulesOf(files.componentToApp)).toEqual(['no-door-imports-a-door']);
    expect(rulesOf(files.dbUpward)).toEqual(['db-imports-no-room-above']);
    expect(rulesOf(files.allowed)).toEqual([]);
    expect(rulesOf(files.unresolvable)).toEqual(['resolvable']);
    expect(rulesOf(files.schemaUpward)).toEqual(['ground-imports-nothing-of-ours']);
    expect(rulesOf(files.hashUpward)).toEqual(['ground-imports-nothing-of-ours']);
    expect(rulesOf(files.fixtureUpward)).toEqual(['core-one-way (fixture)']);
    expect(rulesOf(files.designUpward)).toEqual(['core-one-way (design)']);
    expect(rulesOf(files.coreDownward)).toEqual([]);
    // the use-case floor: no room (nor lib/db) imports a use case; the one parse is not one; doors export through it
    expect(rulesOf(files.dbToUseCase)).toEqual(['db-imports-no-room-above', 'rooms-import-no-use-case']);
    expect(rulesOf(files.roomToUseCase)).toEqual(['rooms-import-no-use-case']);
    expect(rulesOf(files.roomToParse)).toEqual([]);
    expect(rulesOf(files.doorToExportRoom)).toEqual(['doors-export-through-the-use-case']);
    expect(rulesOf(files.doorToExportUseCase)).toEqual([]);
    // the simulated models read what a model is sent: lib/schema and their own files only
    expect(rulesOf(files.simulatorToScoring)).toEqual(['simulator-reads-what-a-model-is-sent']);
    expect(rulesOf(files.simulatorToSchema)).toEqual([]);
    // no error but the probes' (the tree itself passes the lint)
    expect(errors.filter((v) => !v.from.includes(TAG)).map(key)).toEqual([]);

    // the baseline lists only violations that are still there: delete an entry when its import is gone
    const text = readFileSync(path.join(WORK, '.dependency-cruiser-known-violations.json'), 'utf8');
    const known = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as Violation[]; // JSON with whole-line comments (depcruise reads JSON5)
    const ignored = new Set(all.filter((v) => v.rule.severity === 'ignore').map(key));
    expect(known.map(key).filter((k) => !ignored.has(k))).toEqual([]);
  }, 120_000);
});
