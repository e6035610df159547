import { createHash } from 'node:crypto';
import { commandLineActor } from '../auth/roles';
import { saveExperiment } from '../experiments/versions';
import { optimise } from '../optimise/loop';
import { PROPOSE_TOOL } from '../optimise/rewriter';
import type { ExperimentSpecInput } from '../schema/experiment';
import type { OptimisationRow } from '../schema/optimisation';
import { wireToolNames, type Script } from './loopback-server';
import { tinyExperiment } from './tiny-experiment';

// The null oracle through the whole engine (docs/optimise.md "What it guarantees"): the improve loop — a
// rewriter's proposal, the select run, the freeze, the confirmation — run many times through the real SDK,
// queue, worker and database against a loopback "model" for which no description matters. Each case has its
// own pass rate (uniform in 0.1–0.9, drawn from the loop's seed); every request for it is answered with the
// expected tool at that rate, whatever the definitions say (a model at a temperature, which no rewrite moves).
// The rewriter pads the descriptions; the hand candidates pad them; the rule fixes change words the model
// never reads. So every candidate is null, and a loop read *confirmed* is a false claim.

/** Uniform in [0, 1) from the parts, by SHA-256. */
function uniform(...parts: (string | number)[]): number {
  const h = createHash('sha256').update(parts.join('\u0000')).digest();
  return h.readUIntBE(0, 6) / 2 ** 48;
}

const SYSTEM = (loop: number) => `Null oracle run ${loop}. Use a tool, or answer CLARIFY: / STOP:.`;
const PADDING = [' It is provided as is.', ' It answers in English.', ' It is one of two tools.', ' Results come back as JSON.'];

/** The experiment of loop `loop`: `cases` cases asking for the read or the write tool in turn, the baseline and `hand` padded copies of it. */
export function nullOracleExperiment(loop: number, cases: number, hand: number, tag = ''): ExperimentSpecInput {
  const spec = tinyExperiment(`null-oracle-${tag}${loop}`, 'Show invoice INV-0.', {
    system: SYSTEM(loop),
    description: (effect) => (effect === 'read' ? 'Looks up an invoice by its id and returns it.' : 'Pays an invoice by its id.'),
  }) as ExperimentSpecInput & {
    studies: {
      conditions: { id: string; label: string; baseline?: boolean; tools: Record<string, Record<string, { description: string }[]>> }[];
      cases: unknown[];
      orderPolicy?: string;
    }[];
  };
  const study = spec.studies[0];
  const [baseline] = study.conditions;
  baseline.id = 'published';
  study.conditions = [baseline];
  for (let i = 0; i < hand; i++) {
    const copy = structuredClone(baseline);
    copy.id = `padded-${i + 1}`;
    copy.label = `Padded ${i + 1}`;
    delete copy.baseline;
    for (const byLocale of Object.values(copy.tools))
      for (const defs of Object.values(byLocale)) for (const d of defs) d.description += PADDING[i % PADDING.length].repeat(1 + Math.floor(i / PADDING.length));
    study.conditions.push(copy);
  }
  study.orderPolicy = 'reverse-swap';
  study.cases = Array.from({ length: cases }, (_, i) => {
    const read = i % 2 === 0;
    return {
      id: `case-${i}`,
      scenario: 'invoice',
      locale: 'en',
      task: read ? `Case ${i}: show invoice INV-${i}.` : `Case ${i}: pay invoice INV-${i}.`,
      checks: [{ id: 'tool-choice', axis: 'task_fit', expected: { decision: read ? 'read' : 'write', tool: read ? 'lookup' : 'pay', call_count: 1 } }],
    };
  });
  return spec;
}

/**
 * The loopback script: the rewriter's request (it offers PROPOSE_TOOL) gets padded descriptions; a selection
 * request gets the expected tool at its case's rate. Answers to identical requests are drawn apart by their
 * count, so a loop's answers depend on its seed and the requests alone, not on the order they arrive in.
 */
export function nullOracleScript(): Script {
  const seen = new Map<string, number>();
  return (req) => {
    const names = wireToolNames(req.wire, req.body);
    if (names.includes(PROPOSE_TOOL))
      return {
        kind: 'toolCalls',
        calls: [
          {
            name: PROPOSE_TOOL,
            arguments: {
              descriptions: [
                { key: 'invoice/en/lookup', description: 'Looks up an invoice by its id and returns it. Nothing else.' },
                { key: 'invoice/en/pay', description: 'Pays an invoice by its id. Nothing else.' },
              ],
            },
          },
        ],
      };
    const loop = /Null oracle run (\d+)\./.exec(req.raw)?.[1];
    const kase = /Case (\d+): /.exec(req.raw)?.[1];
    if (loop === undefined || kase === undefined || names.length === 0) return { kind: 'text', text: 'STOP: not a null-oracle request.' };
    const digest = createHash('sha256').update(req.raw).digest('hex');
    const n = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, n);
    const rate = 0.1 + 0.8 * uniform('rate', loop, kase);
    const read = Number(kase) % 2 === 0;
    const right = uniform('answer', loop, digest, n) < rate;
    const name = read === right ? 'get_invoice' : 'pay_invoice';
    return { kind: 'toolCalls', calls: [{ name, arguments: { invoice_id: `INV-${kase}` } }] };
  };
}

const mean = (xs: (number | null)[]) => {
  const known = xs.filter((x): x is number => x !== null);
  return known.length > 0 ? known.reduce((a, x) => a + x, 0) / known.length : null;
};

export interface NullOracleOptions {
  loops: number;
  /** Loops run at once (each its own experiment, split seed and model seed). */
  parallel: number;
  cases: number;
  /** Hand-written padded candidates besides the rewriter's, the rule fixes and the placebo. */
  hand: number;
  /** The first loop's number (a test and the benchmark draw different loops). */
  first?: number;
  /** In the experiments' ids (files that share a database keep their loops apart). */
  tag?: string;
  onLoop?: (record: OptimisationRow, done: number) => void;
}

export interface NullOracleFigures {
  loops: number;
  /** Candidates per loop besides the placebo (the first loop's). */
  candidates: number;
  /** Loops whose select winner's exact McNemar p was ≤ 0.05 (uncorrected): what keeping the best of K would claim. */
  selectSignificant: number;
  /** Loops with a winner frozen. */
  frozen: number;
  /** Loops in which any confirmation reads *confirmed*: false claims, every one. */
  confirmed: number;
  /** Loops that did not end confirmed or no-winner (failed). */
  failed: number;
  /** The frozen winners' mean paired difference on the select split, and on the sealed split (the winner's curse). */
  winnersSelectMean: number | null;
  winnersConfirmMean: number | null;
  records: OptimisationRow[];
}

/**
 * Runs the loops against a loopback server already answering with nullOracleScript() (its OpenAI base URL and
 * key set in the environment, a worker running) and counts what they claimed.
 */
export async function runNullOracle(o: NullOracleOptions): Promise<NullOracleFigures> {
  const actor = commandLineActor('null-oracle');
  const first = o.first ?? 0;
  const records: OptimisationRow[] = [];
  let next = 0;
  const one = async () => {
    for (let i = next++; i < o.loops; i = next++) {
      const loop = first + i;
      const exp = await saveExperiment(nullOracleExperiment(loop, o.cases, o.hand, o.tag));
      const record = await optimise({
        experimentId: exp.id,
        study: 'selection',
        seed: loop,
        targets: [{ provider: 'openai', model: 'null-oracle-model' }],
        rewriter: { provider: 'openai', model: 'null-oracle-rewriter' },
        settings: { concurrency: 16, retryBaseMs: 20, timeoutMs: 10_000 },
        actor,
      }).catch((e: unknown) => {
        throw new Error(`null-oracle loop ${loop}: ${e instanceof Error ? e.message : String(e)}`);
      });
      records.push(record);
      o.onLoop?.(record, records.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.parallel) }, one));
  records.sort((a, b) => a.splitSeed - b.splitSeed);
  const winnerP = (r: OptimisationRow) => {
    const w = r.result?.select?.ranked.find((x) => r.winners?.includes(x.candidate));
    return w?.pExact ?? null;
  };
  return {
    loops: records.length,
    candidates: records[0] ? records[0].candidates.filter((c) => !c.placebo).length : 0,
    selectSignificant: records.filter((r) => {
      const p = winnerP(r);
      return p !== null && p <= 0.05;
    }).length,
    frozen: records.filter((r) => (r.winners ?? []).length > 0).length,
    confirmed: records.filter((r) => (r.result?.confirm ?? []).some((c) => c.readings.some((x) => x.reading === 'confirmed'))).length,
    failed: records.filter((r) => r.stage === 'failed').length,
    winnersSelectMean: mean(records.flatMap((r) => (r.result?.confirm[0]?.readings ?? []).map((x) => x.selectEstimate))),
    winnersConfirmMean: mean(records.flatMap((r) => (r.result?.confirm[0]?.readings ?? []).map((x) => x.difference.estimate))),
    records,
  };
}
