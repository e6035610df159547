import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '../db/client';
import { ensureTemplateExperiment } from '../experiments/templates';
import { closeQueues } from '../queue/connection';
import { runJsonStream } from '../runs/export';
import { RunExport } from '../schema/run-export';
import { engineViolations, runToCompletion } from '../testing/engine';
import { CATALOG_SCALE_ID, TEMPLATES } from '.';

// The catalog-scale template (docs/discovery.md) run offline through the engine: every trial stores what the model
// could see, the visibility checkpoint follows it, and the JSON export carries `visible` per trial and the
// funnel per condition.

afterAll(async () => {
  await closeQueues();
  await closeDb();
});

async function json(id: string): Promise<RunExport> {
  const chunks: Buffer[] = [];
  for await (const c of await runJsonStream(id)) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return RunExport.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
}

describe('catalog-scale offline', () => {
  it('runs 144 trials; visible per trial decides visibility; the funnel per discovery × N × condition', async () => {
    const exp = await ensureTemplateExperiment(CATALOG_SCALE_ID);
    const run = { id: await runToCompletion(exp.id, { provider: 'simulated', model: TEMPLATES[CATALOG_SCALE_ID]!.simulated.model }) };
    expect(await engineViolations(run.id)).toEqual([]);
    const doc = await json(run.id);
    expect(doc.trials).toHaveLength(144);
    for (const t of doc.trials) {
      expect(t.visible).not.toBeNull();
      // the request sent carries exactly the names recorded, in order
      const sent = (t.attempts.at(-1)!.request as { tools?: { name: string }[] }).tools?.map((x) => x.name);
      if (sent) expect(sent).toEqual(t.order);
      if (t.discovery === 'bm25-top-5') expect(t.visible!.length).toBeLessThanOrEqual(5);
      if (t.discovery === 'all') expect(t.visible).toEqual(t.order);
      // a card that names a tool: visible iff the tool's name is among the visible ones
      if (t.checkpoints?.visibility === 'fail') {
        expect(t.checkpoints.selection).toBe('untested');
        expect(t.verdicts.every((v) => v.status !== 'fail')).toBe(true);
      }
    }
    expect(doc.funnel).toBeDefined();
    const rows = doc.funnel as { discovery: string; catalogSize: number; condition: string; recallAtK: { k: number; n: number }; toolTokens: number }[];
    expect(rows).toHaveLength(2 * 4 * 2);
    const tokens = (d: string, n: number) => rows.find((r) => r.discovery === d && r.catalogSize === n && r.condition === 'clear')!.toolTokens;
    expect(tokens('all', 117)).toBeGreaterThan(tokens('all', 32));
    expect(tokens('all', 32)).toBeGreaterThan(tokens('bm25-top-5', 32));
    // every tool is visible when every tool is sent
    for (const r of rows.filter((x) => x.discovery === 'all')) expect(r.recallAtK.k).toBe(r.recallAtK.n);
  }, 240_000);
});
