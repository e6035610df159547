import { baselineOf, type ExperimentSpec } from '../schema/experiment';
import type { StopWhenDecided } from '../schema/run';
import { FINAL_TRIAL_STATUSES } from '../schema/run-status';
import type { ComparisonStop, StopDecisions, StoppingReport, StudyStop } from '../schema/stopping';
import { mixtureRhoFor, stopCheck, streamState, type SequentialStream, type StopRule, type StreamDecision } from '../stats/sequential';
import { diffCi, differenceCi, pct, plural, pts } from './format';
import type { RunSummary } from '../schema/table1';

// Stop when decided (docs/statistics.md): the pure part. From a run's trials (their study, pair, condition,
// status and delivery batch — the stored random order) the comparisons' outcome sequences; the look that
// decides; and the report the run page, the CLI and the JSON export show.

/** What the stopping rule needs of a trial. */
export interface StoppingTrial {
  study: string;
  pairKey: string;
  condition: string;
  status: string;
  /** delivery batch: a stop-when-decided run has one per pair, in the stored random order */
  batch: number;
}

const FINAL = new Set<string>(FINAL_TRIAL_STATUSES);
const SCORED_PASS: Record<string, 0 | 1> = { passed: 1, failed: 0 };

export function comparisonKey(study: string, treatment: string): string {
  return `${study}/${treatment}`;
}

/** Each study's pairs in the stored order (by batch, then pair key). */
function pairsByStudy(trials: Iterable<StoppingTrial>): Map<string, StoppingTrial[][]> {
  const pairs = new Map<string, Map<string, StoppingTrial[]>>();
  for (const t of trials) {
    let s = pairs.get(t.study);
    if (!s) pairs.set(t.study, (s = new Map()));
    const p = s.get(t.pairKey);
    if (p) p.push(t);
    else s.set(t.pairKey, [t]);
  }
  const out = new Map<string, StoppingTrial[][]>();
  const first = (p: StoppingTrial[]) => Math.min(...p.map((t) => t.batch));
  for (const [study, s] of pairs)
    out.set(
      study,
      [...s.entries()].sort((a, b) => first(a[1]) - first(b[1]) || (a[0] < b[0] ? -1 : 1)).map(([, p]) => p),
    );
  return out;
}

/** The paired studies of a spec and their treatments (a study with one condition has nothing to stop on). */
function comparisonsOf(spec: ExperimentSpec): { study: string; baseline: string; treatments: string[] }[] {
  return spec.studies
    .map((s) => ({ study: s.id, baseline: baselineOf(s).id, treatments: s.conditions.filter((c) => c.id !== baselineOf(s).id).map((c) => c.id) }))
    .filter((s) => s.treatments.length > 0);
}

/**
 * The outcome sequences the rule looks at: per comparison, X = pass(treatment) − pass(baseline) for the pairs
 * in the stored order as far as every pair is complete (every member final) — the pairs after the first
 * unfinished one wait, so the sequence never depends on which answers came back first. A pair without a
 * formal pass/fail on both sides (unresolved, untested, cancelled) is null: it moves nothing.
 */
export function stoppingStreams(spec: ExperimentSpec, trials: Iterable<StoppingTrial>): SequentialStream[] {
  const byStudy = pairsByStudy(trials);
  const out: SequentialStream[] = [];
  for (const c of comparisonsOf(spec)) {
    const pairs = byStudy.get(c.study) ?? [];
    const done = pairs.findIndex((p) => p.some((t) => !FINAL.has(t.status)));
    const prefix = done === -1 ? pairs : pairs.slice(0, done);
    for (const treatment of c.treatments)
      out.push({
        key: comparisonKey(c.study, treatment),
        outcomes: prefix.map((p) => {
          const b = SCORED_PASS[p.find((t) => t.condition === c.baseline)?.status ?? ''];
          const x = SCORED_PASS[p.find((t) => t.condition === treatment)?.status ?? ''];
          return b === undefined || x === undefined ? null : ((x - b) as -1 | 0 | 1);
        }),
      });
  }
  return out;
}

/** The rule of a run: its α and precision, and ρ fixed from the largest study's planned pairs (known before anything is sent). */
export function stopRuleOf(spec: ExperimentSpec, trials: Iterable<StoppingTrial>, opts: StopWhenDecided): StopRule {
  const planned = Math.max(1, ...[...pairsByStudy(trials).values()].map((p) => p.length));
  return { alpha: opts.alpha, precision: opts.precision, rho: mixtureRhoFor(planned, opts.alpha) };
}

/** One look (after a pair completes): the decisions so far and the trials now → the decisions after it, and the studies every comparison of which is decided. */
export function lookAtRun(
  spec: ExperimentSpec,
  trials: readonly StoppingTrial[],
  opts: StopWhenDecided,
  decided: StopDecisions,
): { decisions: StopDecisions; stoppedStudies: string[] } {
  const decisions = stopCheck(decided, stoppingStreams(spec, trials), stopRuleOf(spec, trials, opts));
  const stoppedStudies = comparisonsOf(spec)
    .filter((c) => c.treatments.every((t) => decisions[comparisonKey(c.study, t)]))
    .map((c) => c.study);
  return { decisions, stoppedStudies };
}

function decisionText(d: StreamDecision, alpha: number, precision: number | null): string {
  if (d.reason === 'e-value')
    return `e-value ${d.maxEValue.toFixed(1)} ≥ ${d.threshold!.toFixed(0)} (1/α = ${(1 / alpha).toFixed(0)}, Holm across the run's comparisons): ${d.improved} improved, ${d.regressed} regressed — ${d.improved > d.regressed ? 'improved more often than regressed' : 'regressed more often than improved'}`;
  return `anytime-valid interval ${diffCi([d.interval.lo, d.interval.hi]).text} narrower than ${pts(precision ?? 0).replace('+', '')}: the difference is known to the precision asked, not shown to be non-zero`;
}

/** The report of a stop-when-decided run from its trials and stored decisions. */
export function stoppingReport(spec: ExperimentSpec, trials: readonly StoppingTrial[], opts: StopWhenDecided, decided: StopDecisions): StoppingReport {
  const rule = stopRuleOf(spec, trials, opts);
  const streams = new Map(stoppingStreams(spec, trials).map((s) => [s.key, s]));
  const byStudy = pairsByStudy(trials);
  const label = `anytime-valid ${pct(1 - opts.alpha).replace('.0%', '%')} confidence sequence`;
  const studies: StudyStop[] = comparisonsOf(spec).map((c) => {
    const pairs = byStudy.get(c.study) ?? [];
    const comparisons: ComparisonStop[] = c.treatments.map((treatment) => {
      const st = streamState(streams.get(comparisonKey(c.study, treatment)) ?? { key: '', outcomes: [] }, rule);
      const d = decided[comparisonKey(c.study, treatment)];
      return {
        treatment,
        decision: d ? { ...d, text: decisionText(d, opts.alpha, opts.precision) } : null,
        improved: st.improved,
        regressed: st.regressed,
        pairs: st.used,
        eValue: st.eValue,
        anytimeValid: { label, interval: st.interval, text: diffCi([st.interval.lo, st.interval.hi]).text },
      };
    });
    const stopped = comparisons.every((x) => x.decision);
    const after = stopped ? Math.max(...comparisons.map((x) => x.decision!.afterPairs)) : null;
    const notSent = pairs.flat().filter((t) => t.status === 'cancelled').length;
    return {
      study: c.study,
      plannedPairs: pairs.length,
      stopped,
      headline: stopped ? `stopped: decided after ${plural(after!, 'pair')} of ${pairs.length}` : null,
      decidedAfterPairs: after,
      trialsNotSent: stopped ? notSent : 0,
      comparisons,
    };
  });
  return {
    alpha: opts.alpha,
    precision: opts.precision,
    seed: opts.seed ?? null,
    intervalLabel: label,
    trialsPlanned: trials.length,
    trialsNotSent: studies.reduce((s, x) => s + x.trialsNotSent, 0),
    studies,
  };
}

/** The report as text (the CLI): one line per study, then each comparison's decision and both intervals, labelled. */
export function formatStopping(r: StoppingReport, fixedN: ReadonlyMap<string, string>): string {
  const lines = [
    `Stop when decided (α = ${r.alpha}${r.precision === null ? '' : `, precision ${pts(r.precision).replace('+', '')}`}, order seed ${r.seed ?? '—'}): ${r.trialsNotSent} of ${r.trialsPlanned} trials not sent`,
  ];
  for (const s of r.studies) {
    lines.push(`  ${s.study}: ${s.headline ?? `not decided: every one of its ${s.plannedPairs} pairs was sent`}`);
    for (const c of s.comparisons) {
      if (c.decision) lines.push(`    ${c.treatment}: ${c.decision.text}`);
      lines.push(`    ${c.treatment}: ${c.anytimeValid.label} ${c.anytimeValid.text} (${c.pairs} pairs)`);
      const f = fixedN.get(comparisonKey(s.study, c.treatment));
      if (f) lines.push(`    ${c.treatment}: fixed-n 95% interval ${f} (not valid after an early stop; shown for comparison)`);
    }
  }
  return lines.join('\n');
}

/** The fixed-n paired differences of Table 1 (CR1 t interval), keyed like the comparisons: shown beside the anytime-valid ones, never mixed with them. */
export function fixedNIntervals(summary: RunSummary): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of summary.studies) {
    if (!s.difference || s.difference.estimate === null) continue;
    out.set(comparisonKey(s.study, s.treatment), `${pts(s.difference.estimate)} ${differenceCi(s.difference).text}`);
  }
  return out;
}
