import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { RunExport, type TrialExportRow } from '../schema/run-export';
import { RUN_EXPORT_FORMAT } from '../schema/table1';
import { summarizeRun } from '../analysis/summary';
import { fixtureExperiment, fixtureTrial } from '../testing/run-export-fixture';
import { RUN_JSON_CHUNK, writeRunJson, type RunJsonParts } from './json';

/** A slow sink with a small buffer: write() returns false often, so the writer must wait for 'drain'. */
class Sink extends Writable {
  chunks: string[] = [];
  /** 'drain' is only emitted after write() returned false. */
  drains = 0;
  maxBuffered = 0;
  constructor(private delayMs = 0) {
    super({ highWaterMark: 1024, decodeStrings: false });
    this.on('drain', () => this.drains++);
  }
  override _write(chunk: string | Buffer, _enc: BufferEncoding, cb: (error?: Error | null) => void): void {
    this.maxBuffered = Math.max(this.maxBuffered, this.writableLength);
    this.chunks.push(String(chunk));
    if (this.delayMs) setTimeout(cb, this.delayMs);
    else setImmediate(cb);
  }
  text(): string {
    return this.chunks.join('');
  }
}

function parts(trials: RunJsonParts['trials']): RunJsonParts {
  const list = [fixtureTrial(0), fixtureTrial(1)];
  return {
    experiment: fixtureExperiment,
    run: {
      id: 'run_1',
      provider: 'simulated',
      model: 'simulated-lexical-v1',
      status: 'completed',
      temperature: 0,
      seed: 7,
      createdAt: new Date('2026-11-05T10:00:00Z'),
      startedAt: '2026-11-05T10:00:01.000Z',
      finishedAt: null,
      simulated: true,
    },
    prechecks: [{ n: 1, outcome: 'transport_error', errorKind: 'dns', httpStatus: null, latencyMs: 3, request: { model: 'm' }, response: null, caseId: 'read-1' }],
    trials,
    summary: summarizeRun(
      fixtureExperiment,
      list.map((t) => ({ ...t, orderIndex: t.orderNumber - 1 })),
    ),
  };
}

describe('writeRunJson', () => {
  it('writes a document that validates as RunExport and keeps the public names', async () => {
    const sink = new Sink();
    await writeRunJson(parts([fixtureTrial(0), fixtureTrial(1)]), sink);
    const doc: unknown = JSON.parse(sink.text());
    const parsed = RunExport.parse(doc);
    expect(parsed.format).toBe(RUN_EXPORT_FORMAT);
    expect(parsed.run).toMatchObject({ id: 'run_1', provider: 'simulated', createdAt: '2026-11-05T10:00:00.000Z', finishedAt: null, simulated: true, seed: 7 });
    expect(parsed.trials.map((t) => t.id)).toEqual(['t_000000', 't_000001']);
    expect(parsed.trials[0]).toEqual(fixtureTrial(0));
    expect(parsed.summary.studies[0]).toMatchObject({ study: 'selection', baseline: 'overlapping', treatment: 'clear', pairs: { improved: 1, same: 0, regressed: 0 } });
    expect(Object.keys(doc as object)).toEqual(['format', 'experiment', 'run', 'prechecks', 'trials', 'summary', 'audit']);
    expect(sink.writableFinished).toBe(true);
  });

  it('writes empty lists as valid JSON and can leave the stream open', async () => {
    const sink = new Sink();
    await writeRunJson({ ...parts([]), prechecks: [] }, sink, { end: false });
    expect(sink.writableEnded).toBe(false);
    await new Promise<void>((resolve) => sink.end(resolve));
    const parsed = RunExport.parse(JSON.parse(sink.text()));
    expect([parsed.trials, parsed.prechecks]).toEqual([[], []]);
  });

  it('streams 20,000 trials piece by piece, honouring backpressure', async () => {
    let pulled = 0;
    async function* trials(): AsyncGenerator<TrialExportRow> {
      for (let i = 0; i < 20_000; i++) {
        pulled++;
        yield fixtureTrial(i);
      }
    }
    const sink = new Sink();
    await writeRunJson(parts(trials()), sink);
    expect(pulled).toBe(20_000);
    expect(sink.drains).toBeGreaterThan(100);
    // never more than one chunk of trial lines (and the line that filled it) beyond the high-water mark is buffered
    expect(sink.maxBuffered).toBeLessThan(1024 + RUN_JSON_CHUNK + JSON.stringify(fixtureTrial(19_999)).length + 16);
    const parsed = RunExport.parse(JSON.parse(sink.text()));
    expect(parsed.trials).toHaveLength(20_000);
    expect(parsed.trials[19_999].id).toBe('t_019999');
  }, 30_000);

  it('rejects when the trials iterator fails or the output closes early', async () => {
    async function* failing(): AsyncGenerator<TrialExportRow> {
      yield fixtureTrial(0);
      throw new Error('cursor lost');
    }
    await expect(writeRunJson(parts(failing()), new Sink())).rejects.toThrow('cursor lost');

    const slow = new Sink(5);
    async function* many(): AsyncGenerator<TrialExportRow> {
      for (let i = 0; i < 10_000; i++) {
        if (i === 50) slow.destroy();
        yield fixtureTrial(i);
      }
    }
    await expect(writeRunJson(parts(many()), slow)).rejects.toThrow(/closed/);
  });
});
