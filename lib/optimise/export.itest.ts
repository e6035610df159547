import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLineActor } from '../auth/roles';
import { closeDb } from '../db/client';
import { getExperiment } from '../db/experiments';
import { ensureTemplateExperiment } from '../experiments/templates';
import { saveExperiment } from '../experiments/versions';
import { SIMULATED_GENERIC_PREFERRING } from '../simulator';
import { closeQueues } from '../queue/connection';
import { runJsonStream } from '../runs/export';
import { createRun, startRun } from '../runner/start';
import { FINAL_RUN_STATUSES } from '../schema/run-status';
import { startWorker, type WorkerHandle } from '../runner/worker';
import { RunExport } from '../schema/run-export';
import { waitForRunStatus } from '../testing/engine';
import { optimise } from './loop';
import { recordMarkdown } from './markdown';
import { runReport } from '../runs/report';

// The run export of a loop's stages (docs/export.md): a select or confirm run's JSON carries the stage it ran
// and the loop's record as stored — the same record the optimisations route gives — and its one-file report
// the record as Markdown (docs/report.md); any other run's does not.

const actor = commandLineActor('optimise-export-test');
let worker: WorkerHandle;
let experimentId: string;

beforeAll(async () => {
  worker = startWorker({ concurrency: 8 });
  await worker.ready;
  const template = (await getExperiment((await ensureTemplateExperiment('politely-ignored')).id))!.spec;
  experimentId = (await saveExperiment({ ...structuredClone(template), id: `politely-ignored-export-${process.pid}` })).id;
});
afterAll(async () => {
  await worker.close();
  await closeQueues();
  await closeDb();
});

async function exported(runId: string): Promise<{ doc: RunExport; text: string }> {
  const chunks: Buffer[] = [];
  for await (const c of await runJsonStream(runId)) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  const text = Buffer.concat(chunks).toString('utf8');
  return { doc: RunExport.parse(JSON.parse(text)), text };
}

describe('the JSON export of a loop’s runs', () => {
  it('the select and the confirm run name their stage and carry the record as stored; an ordinary run of the same version carries none', async () => {
    const record = await optimise({ experimentId, study: 'selection', targets: [{ provider: 'simulated', model: SIMULATED_GENERIC_PREFERRING }], actor });
    expect(record.stage).toBe('confirmed');
    const asStored = JSON.parse(JSON.stringify(record));

    const select = await exported(record.selectRunId!);
    expect(select.doc.optimisation).toEqual({ stage: 'select', record: asStored });
    const ranked = (select.doc.optimisation!.record as { result: { select: { runId: string } } }).result.select;
    expect(ranked.runId).toBe(record.selectRunId);

    const [confirmRunId] = record.confirmRunIds!;
    const confirm = await exported(confirmRunId);
    expect(confirm.doc.optimisation).toEqual({ stage: 'confirm', record: asStored });
    // the numbers beside the record are the run's own: Table 1 of the confirm run holds the winner's pairs
    expect(confirm.doc.summary.studies.map((s) => s.treatment)).toContain(record.winners![0]);

    const ordinary = (await createRun(experimentId, { provider: 'simulated', model: SIMULATED_GENERIC_PREFERRING })).id;
    expect((await startRun(ordinary)).ok).toBe(true);
    expect((await waitForRunStatus(ordinary, [...FINAL_RUN_STATUSES])).status).toBe('completed');
    const plain = await exported(ordinary);
    expect(plain.doc.optimisation).toBeUndefined();
    expect(plain.text).not.toContain('"optimisation"');

    // the one-file report: the record's Markdown, as text, in the stage's run section; none for the ordinary run
    const md = recordMarkdown(record);
    const html = await runReport([confirmRunId]);
    expect(html).toContain(`Improving descriptions: the confirm run of record ${record.id}`);
    const shown = /<pre data-testid="optimisation">([\s\S]*?)<\/pre>/.exec(html)![1];
    expect(
      shown
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&'),
    ).toBe(md);
    expect(await runReport([record.selectRunId!])).toContain(`Improving descriptions: the select run of record ${record.id}`);
    expect(await runReport([ordinary])).not.toContain('Improving descriptions');
  }, 240_000);
});
