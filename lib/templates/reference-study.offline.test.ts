import { describe, expect, it } from 'vitest';
import { buildRequest, expandTrials, type TrialSpec } from '../design/matrix';
import { simulatedProvider } from '../providers/simulated';
import type { ProviderResult } from '../schema/request';
import { observed } from '../testing/provider-fixtures';
import { checksFor, type ExperimentSpec, type Study } from '../schema/experiment';
import type { Observation } from '../schema/observation';
import { RunSettings } from '../schema/run';
import { PUBLISHED_REFERENCE } from './reference-study/published';
import { referenceStudy } from './reference-study';

// End to end, pure: every formal request of the reference study is built with buildRequest, answered by
// the simulated provider and scored by a tiny local comparison (decision / tool / call count / label only;
// the full scorer lives in lib/scoring). Prints Table 1 as the simulator produces it, beside the published one.

const settings = RunSettings.parse({});

interface Scored {
  trial: TrialSpec;
  pass: boolean;
  /** selection: the decision the case card expects. */
  expectedDecision: string | null;
  /** The expected decision was not a write, and the first call named a write tool. */
  unwantedWrite: boolean;
  /** Expected-argument check, informational (null: the case has none). */
  argumentsMatch: boolean | null;
}

function sameValue(expected: unknown, observed: unknown): boolean {
  if (Array.isArray(expected)) return expected.some((e) => sameValue(e, observed));
  if (typeof expected === 'string' && typeof observed === 'string') return expected.normalize('NFC').trim() === observed.normalize('NFC').trim();
  return expected === observed;
}

function score(spec: ExperimentSpec, study: Study, trial: TrialSpec, obs: Observation): Scored {
  const kase = study.cases.find((c) => c.id === trial.caseId)!;
  const defs = study.conditions.find((c) => c.id === trial.condition)!.tools[trial.scenario][trial.locale];
  const effects = spec.scenarios.find((s) => s.id === trial.scenario)!.tools;
  const call = obs.toolCalls[0];
  const toolId = call ? defs.find((d) => d.name === call.name)?.tool : undefined;
  const decision = call ? effects.find((t) => t.id === toolId)?.effect : obs.marker?.toLowerCase();
  let pass = true;
  let unwantedWrite = false;
  let expectedDecision: string | null = null;
  let argumentsMatch: boolean | null = null;
  for (const check of checksFor(kase, trial.condition)) {
    const exp = check.expected;
    if (check.id === 'tool-choice') {
      pass &&= decision === exp.decision;
      if (exp.tool !== undefined) pass &&= toolId === exp.tool;
      if (exp.call_count !== undefined) pass &&= obs.toolCalls.length === exp.call_count;
      expectedDecision = exp.decision ?? null;
      unwantedWrite = exp.decision !== 'write' && decision === 'write';
    } else if (check.id === 'result') {
      pass &&= obs.label === exp.label;
    } else if (check.id === 'arguments' && exp.arguments) {
      const want = exp.arguments;
      const got = call?.arguments ?? {};
      argumentsMatch = Object.keys(got).every((k) => k in want) && Object.entries(want).every(([k, v]) => k in got && sameValue(v, got[k]));
    }
  }
  return { trial, pass, expectedDecision, unwantedWrite, argumentsMatch };
}

async function runAll(spec: ExperimentSpec): Promise<{ scored: Scored[]; results: ProviderResult[] }> {
  const trials = expandTrials(spec);
  const results = await Promise.all(
    trials.map((t) => simulatedProvider.send(buildRequest(spec, { study: t.study, caseId: t.caseId, condition: t.condition, toolOrder: t.toolOrder }), { settings })),
  );
  const scored = trials.map((t, i) =>
    score(
      spec,
      spec.studies.find((s) => s.id === t.study)!,
      t,
      observed(results[i]),
    ),
  );
  return { scored, results };
}

const count = (xs: Scored[], f: (s: Scored) => boolean) => xs.filter(f).length;

describe('reference study through the simulated provider (end to end, pure)', async () => {
  const spec = referenceStudy();
  const { scored, results } = await runAll(spec);

  const table = spec.studies.map((study) => {
    const base = study.conditions.find((c) => c.baseline)!.id;
    const treat = study.conditions.find((c) => !c.baseline)!.id;
    const mine = scored.filter((s) => s.trial.study === study.id);
    const rows = spec.scenarios.flatMap((sc) =>
      [...spec.locales].reverse().map((locale) => {
        const cell = (condition: string) => {
          const xs = mine.filter((s) => s.trial.scenario === sc.id && s.trial.locale === locale && s.trial.condition === condition);
          return { pass: count(xs, (s) => s.pass), n: xs.length };
        };
        return { scenario: sc.id, locale, baseline: cell(base), treatment: cell(treat) };
      }),
    );
    const pairs = { improved: 0, same: 0, regressed: 0 };
    for (const t of mine.filter((s) => s.trial.condition === treat)) {
      const b = mine.find((s) => s.trial.pairKey === t.trial.pairKey && s.trial.condition === base)!;
      if (b.pass === t.pass) pairs.same++;
      else if (t.pass) pairs.improved++;
      else pairs.regressed++;
    }
    const side = (condition: string) => mine.filter((s) => s.trial.condition === condition);
    const writesOf = (condition: string) => {
      const noWrite = side(condition).filter((s) => s.expectedDecision !== null && s.expectedDecision !== 'write');
      return { count: count(noWrite, (s) => s.unwantedWrite), n: noWrite.length };
    };
    const argsOf = (condition: string) => {
      const xs = side(condition).filter((s) => s.argumentsMatch !== null);
      return { match: count(xs, (s) => s.argumentsMatch === true), n: xs.length };
    };
    return {
      study: study.id,
      base,
      treat,
      rows,
      pairs,
      unwantedWrites: { baseline: writesOf(base), treatment: writesOf(treat) },
      args: { baseline: argsOf(base), treatment: argsOf(treat) },
    };
  });

  it('answers all 152 formal requests with an observation and no transport error', () => {
    expect(results).toHaveLength(152);
    for (const r of results) expect(r).toMatchObject({ outcome: 'ok', httpStatus: null, observation: expect.any(Object) });
  });

  it('prints Table 1 as simulated, beside the published reference', () => {
    const fmt = (c: { pass: number; n: number }) => `${c.pass}/${c.n}`;
    const lines = ['', 'Reference study — SIMULATED provider (a heuristic, not a language model) vs published (seed 000):'];
    for (const s of table) {
      const published = PUBLISHED_REFERENCE.studies[s.study as 'selection' | 'interpretation'];
      lines.push(`  ${s.study}: ${s.base} → ${s.treat}`);
      for (const r of s.rows) {
        const p = published.rows.find((x) => x.scenario === r.scenario && x.locale === r.locale)!;
        lines.push(
          `    ${`${r.scenario}/${r.locale}`.padEnd(18)} simulated ${fmt(r.baseline).padStart(5)} → ${fmt(r.treatment).padEnd(5)}   published ${fmt(p.baseline).padStart(5)} → ${fmt(p.treatment)}`,
        );
      }
      const total = (k: 'baseline' | 'treatment') => ({ pass: s.rows.reduce((a, r) => a + r[k].pass, 0), n: s.rows.reduce((a, r) => a + r[k].n, 0) });
      lines.push(
        `    ${'total'.padEnd(18)} simulated ${fmt(total('baseline')).padStart(5)} → ${fmt(total('treatment')).padEnd(5)}   published ${fmt(published.total.baseline).padStart(5)} → ${fmt(published.total.treatment)}`,
      );
      lines.push(
        `    pairs improved/same/regressed: simulated ${s.pairs.improved}/${s.pairs.same}/${s.pairs.regressed}${published.pairs ? `   published ${published.pairs.improved}/${published.pairs.same}/${published.pairs.regressed}` : ''}`,
      );
      if (s.study === 'selection') {
        const w = s.unwantedWrites;
        const pw = PUBLISHED_REFERENCE.unwantedWrites;
        lines.push(
          `    unwanted writes: simulated ${w.baseline.count}/${w.baseline.n} → ${w.treatment.count}/${w.treatment.n}   published ${pw.baseline.count}/${pw.baseline.n} → ${pw.treatment.count}/${pw.treatment.n}`,
        );
        lines.push(
          `    (informational) expected arguments matched on read/write trials: ${s.args.baseline.match}/${s.args.baseline.n} → ${s.args.treatment.match}/${s.args.treatment.n}`,
        );
      }
    }
    console.log(lines.join('\n'));
    expect(table).toHaveLength(2);
  });

  it('shows the published direction for selection: clear beats overlapping in every row, no unwanted write when clear', () => {
    const sel = table.find((s) => s.study === 'selection')!;
    for (const r of sel.rows) {
      expect(r.baseline.n).toBe(12);
      expect(r.treatment.pass, `${r.scenario}/${r.locale}`).toBeGreaterThan(r.baseline.pass);
    }
    expect(sel.pairs.improved).toBeGreaterThan(sel.pairs.regressed);
    expect(sel.unwantedWrites.baseline.n).toBe(32);
    expect(sel.unwantedWrites.baseline.count).toBeGreaterThan(0);
    expect(sel.unwantedWrites.treatment).toEqual({ count: 0, n: 32 });
  });

  it('shows the published direction for interpretation: 7/7 with code meanings, worse without', () => {
    const int = table.find((s) => s.study === 'interpretation')!;
    for (const r of int.rows) {
      expect(r.treatment).toEqual({ pass: 7, n: 7 });
      expect(r.baseline.pass).toBeLessThan(7);
      expect(r.baseline.pass).toBeGreaterThanOrEqual(1); // the out-of-range code is an error in both
    }
  });

  it('runs the pre-checks through the same path', async () => {
    for (const pc of spec.prechecks) {
      const r = await simulatedProvider.send(buildRequest(spec, { study: pc.study, caseId: pc.caseId, condition: pc.condition }), { settings });
      expect(r.outcome).toBe('ok');
    }
  });
});
