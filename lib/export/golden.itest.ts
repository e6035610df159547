import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '../db/client';
import { ensureTemplateExperiment } from '../experiments/templates';
import { closeQueues } from '../queue/connection';
import { TEMPLATES } from '../templates';
import { engineViolations, runToCompletion } from '../testing/engine';
import { checksCsvStream, choicesCsvStream, junitStream, runJsonStream, trialsCsvStream } from '../runs/export';
import { table1Document } from '../runs/export';

// Behaviour pinned: each built-in template run offline through the engine (queue, worker, PostgreSQL, the
// simulated provider) and exported in every format. The exports must stay byte-identical to the files in
// `golden/` except for ids and times, which are replaced by stable placeholders in order of appearance.
// A refactor that changes a byte fails here; a change meant to alter an export regenerates the files with
// `TCLAB_UPDATE_GOLDEN=1 npx vitest run --project integration lib/export/golden.itest.ts` and the diff is reviewed.

const GOLDEN = path.join(import.meta.dirname, 'golden');
const UPDATE = process.env.TCLAB_UPDATE_GOLDEN === '1';

afterAll(async () => {
  await closeQueues();
  await closeDb();
});

async function text(stream: Readable | Promise<Readable>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of await stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks).toString('utf8');
}

/** Ids (`r_…`, `g_…`: a prefix, base-36 time, random hex; trial ids `t_` + 32 hex from the run id) and times replaced, consistently across the files of one run. */
function normaliser(): (s: string) => string {
  const ids = new Map<string, string>();
  return (s) =>
    s
      .replace(/\b([a-z]{1,4})(_|\\_)((?:[0-9a-z]{6,12}[0-9a-f]{8}|[0-9a-f]{32}))\b/g, (_m, prefix: string, sep: string, rest: string) => {
        const id = `${prefix}_${rest}`; // TeX writes it r\_…
        if (!ids.has(id)) ids.set(id, `#${ids.size + 1}`);
        return `${prefix}${sep}${ids.get(id)!}`;
      })
      .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?/g, '<time>')
      .replace(/("(?:latencyMs|durationMs|elapsedMs)":\s*)\d+(\.\d+)?/g, '$1"<ms>"')
      .replace(/(latency_ms|duration_ms)="?\d+/g, '$1=<ms>')
      .replace(/time="[\d.]+"/g, 'time="<s>"');
}

const KINDS = [
  ['run.json', (id: string) => runJsonStream(id)],
  ['trials.csv', trialsCsvStream],
  ['checks.csv', checksCsvStream],
  ['choices.csv', choicesCsvStream],
  ['junit.xml', junitStream],
  ['table1.md', async (id: string) => (await import('node:stream')).Readable.from([await table1Document(id, 'md')])],
  ['table1.tex', async (id: string) => (await import('node:stream')).Readable.from([await table1Document(id, 'tex')])],
] as const;

describe('exports of the built-in templates are unchanged (golden files)', () => {
  for (const template of ['reference-study', 'task-completion', 'politely-ignored']) {
    it(`${template}: every export format, byte for byte apart from ids and times`, async () => {
      const exp = await ensureTemplateExperiment(template);
      const run = { id: await runToCompletion(exp.id, { provider: 'simulated', model: TEMPLATES[template]!.simulated.model }) };
      expect(await engineViolations(run.id)).toEqual([]);
      const normalise = normaliser();
      const dir = path.join(GOLDEN, template);
      for (const [name, exportOf] of KINDS) {
        const got = normalise(await text(exportOf(run.id)));
        const file = path.join(dir, name);
        if (UPDATE) {
          mkdirSync(dir, { recursive: true });
          writeFileSync(file, got);
          continue;
        }
        expect(got, `${template}/${name} differs from lib/export/golden (TCLAB_UPDATE_GOLDEN=1 regenerates it)`).toBe(readFileSync(file, 'utf8'));
      }
    }, 180_000);
  }
});
