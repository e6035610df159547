import type { PassCount, PassK, RunSummary, StudySummary, SummaryRow, TrialOutcome } from '../schema/table1';
import { mcnemarExact } from '../stats/mcnemar';
import { passHatK } from '../stats/pass-k';

export { compareWithPublished } from './published';

/**
 * What the summary needs from the experiment spec. An `ExperimentSpec` fits as is; its `scenarios` and
 * `locales` (optional here) set the row order.
 */
export interface SummarySpec {
  studies: readonly {
    id: string;
    kind: StudySummary['kind'];
    conditions: readonly { id: string; baseline: boolean }[];
  }[];
  scenarios?: readonly { id: string }[];
  locales?: readonly string[];
}

interface Counts {
  pass: number;
  n: number;
  unresolved: number;
  untested: number;
}

interface RowAcc {
  scenario: string;
  locale: string;
  byCondition: Map<string, Counts>;
}

interface StudyAcc {
  rows: Map<string, RowAcc>;
  /** condition → failure category → trials with at least one check failing so. */
  categories: Map<string, Map<string, number>>;
  /** pairKey → condition → trial status. */
  pairs: Map<string, Map<string, string>>;
  /** condition → task (the pair key without its replicate) → its replicates' results (passed / failed only). */
  replicates: Map<string, Map<string, boolean[]>>;
}

/**
 * Table 1 (DESIGN §7, §10.3): one StudySummary per study, baseline vs. the study's first non-baseline
 * condition (for studies with more conditions see `summarizeComparisons`).
 *
 * - Rows are the scenario × locale combinations that have trials, ordered as the spec lists its scenarios
 *   and locales; combinations the spec does not list come after, sorted by scenario, then locale.
 * - `pass`/`n` count only passed and failed trials; unresolved and untested are counted beside;
 *   queued, running and cancelled trials are counted nowhere (they show up as `incomplete` pairs).
 * - Pairs join trials on `pairKey`: improved (baseline failed → treatment passed), regressed (passed →
 *   failed), same (both passed or both failed), incomplete (a side missing or not passed/failed).
 * - `mcnemarP`: the exact McNemar p on improved vs. regressed; null when no pair is complete.
 * - `categories`: per condition, the number of trials with at least one failed check of that category.
 * - Trials of unknown studies or conditions are ignored. One pass over the trials, O(trials).
 */
export function summarizeRun(spec: SummarySpec, trials: Iterable<TrialOutcome>): RunSummary {
  const accs = accumulate(spec, trials);
  return {
    studies: spec.studies.map((study) => {
      const { baseline, treatments } = roles(study);
      return toStudySummary(spec, study, accs.get(study.id)!, baseline, treatments[0]);
    }),
  };
}

/**
 * Like `summarizeRun`, but baseline vs. every non-baseline condition: a study with three conditions gives
 * two StudySummary entries (same `study`, different `treatment`), in the spec's condition order.
 */
export function summarizeComparisons(spec: SummarySpec, trials: Iterable<TrialOutcome>): RunSummary {
  const accs = accumulate(spec, trials);
  return {
    studies: spec.studies.flatMap((study) => {
      const { baseline, treatments } = roles(study);
      return treatments.map((t) => toStudySummary(spec, study, accs.get(study.id)!, baseline, t));
    }),
  };
}

function roles(study: SummarySpec['studies'][number]): { baseline: string; treatments: string[] } {
  const baseline = (study.conditions.find((c) => c.baseline) ?? study.conditions[0])?.id;
  const treatments = study.conditions.filter((c) => c.id !== baseline).map((c) => c.id);
  if (baseline === undefined || treatments.length === 0)
    throw new Error(`study "${study.id}" needs a baseline and at least one other condition to be summarised`);
  return { baseline, treatments };
}

function accumulate(spec: SummarySpec, trials: Iterable<TrialOutcome>): Map<string, StudyAcc> {
  const accs = new Map<string, StudyAcc>();
  const conditionsOf = new Map<string, Set<string>>();
  for (const s of spec.studies) {
    accs.set(s.id, { rows: new Map(), categories: new Map(), pairs: new Map(), replicates: new Map() });
    conditionsOf.set(s.id, new Set(s.conditions.map((c) => c.id)));
  }
  for (const t of trials) {
    const acc = accs.get(t.study);
    if (!acc || !conditionsOf.get(t.study)!.has(t.condition)) continue;

    const rowKey = `${t.scenario}\u0000${t.locale}`;
    let row = acc.rows.get(rowKey);
    if (!row) acc.rows.set(rowKey, (row = { scenario: t.scenario, locale: t.locale, byCondition: new Map() }));
    let c = row.byCondition.get(t.condition);
    if (!c) row.byCondition.set(t.condition, (c = zero()));
    switch (t.status) {
      case 'passed':
        c.pass++;
        c.n++;
        break;
      case 'failed':
        c.n++;
        break;
      case 'unresolved':
        c.unresolved++;
        break;
      case 'untested':
        c.untested++;
        break;
      // queued, running, cancelled: in no count
    }

    if (t.status === 'passed' || t.status === 'failed') {
      let tasks = acc.replicates.get(t.condition);
      if (!tasks) acc.replicates.set(t.condition, (tasks = new Map()));
      // the task: the pair key without its replicate (…|r<n>, lib/design/matrix.ts)
      const task = t.pairKey.replace(/\|r\d+$/, '');
      let results = tasks.get(task);
      if (!results) tasks.set(task, (results = []));
      results.push(t.status === 'passed');
    }

    let pair = acc.pairs.get(t.pairKey);
    if (!pair) acc.pairs.set(t.pairKey, (pair = new Map()));
    pair.set(t.condition, t.status);

    if (t.categories?.length) {
      let cats = acc.categories.get(t.condition);
      if (!cats) acc.categories.set(t.condition, (cats = new Map()));
      const unique = t.categories.length === 1 ? t.categories : new Set(t.categories);
      for (const cat of unique) cats.set(cat, (cats.get(cat) ?? 0) + 1);
    }
  }
  return accs;
}

function toStudySummary(
  spec: SummarySpec,
  study: SummarySpec['studies'][number],
  acc: StudyAcc,
  baseline: string,
  treatment: string,
): StudySummary {
  const rows: SummaryRow[] = [];
  const total = { baseline: zero(), treatment: zero() };
  for (const r of sortRows(spec, [...acc.rows.values()])) {
    const b = r.byCondition.get(baseline);
    const t = r.byCondition.get(treatment);
    if (!b && !t) continue;
    rows.push({ scenario: r.scenario, locale: r.locale, baseline: copy(b), treatment: copy(t) });
    addInto(total.baseline, b);
    addInto(total.treatment, t);
  }

  const pairs = { improved: 0, same: 0, regressed: 0, incomplete: 0 };
  for (const byCondition of acc.pairs.values()) {
    const b = byCondition.get(baseline);
    const t = byCondition.get(treatment);
    if (b === undefined && t === undefined) continue;
    if (!isDecided(b) || !isDecided(t)) pairs.incomplete++;
    else if (b === t) pairs.same++;
    else if (t === 'passed') pairs.improved++;
    else pairs.regressed++;
  }
  const complete = pairs.improved + pairs.same + pairs.regressed;

  const categories: StudySummary['categories'] = {};
  const bCats = acc.categories.get(baseline);
  const tCats = acc.categories.get(treatment);
  const names = [...new Set([...(bCats?.keys() ?? []), ...(tCats?.keys() ?? [])])].sort();
  for (const name of names) categories[name] = { baseline: bCats?.get(name) ?? 0, treatment: tCats?.get(name) ?? 0 };

  // pass^k with k = the most replicates any task of either condition has (tasks with fewer are skipped)
  const tasksOf = (c: string) => [...(acc.replicates.get(c)?.values() ?? [])];
  const k = Math.max(0, ...[...tasksOf(baseline), ...tasksOf(treatment)].map((r) => r.length));
  const passK = k > 1 ? { k, baseline: passKOf(tasksOf(baseline), k), treatment: passKOf(tasksOf(treatment), k) } : undefined;

  return {
    study: study.id,
    kind: study.kind,
    baseline,
    treatment,
    rows,
    total,
    pairs,
    mcnemarP: complete ? mcnemarExact(pairs.improved, pairs.regressed) : null,
    categories,
    ...(passK && { passK }),
  };
}

function isDecided(status: string | undefined): status is 'passed' | 'failed' {
  return status === 'passed' || status === 'failed';
}

function sortRows(spec: SummarySpec, rows: RowAcc[]): RowAcc[] {
  const scenarioRank = new Map(spec.scenarios?.map((s, i) => [s.id, i]));
  const localeRank = new Map(spec.locales?.map((l, i) => [l, i]));
  const rank = (m: Map<string, number>, key: string) => m.get(key) ?? Number.MAX_SAFE_INTEGER;
  const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort(
    (a, b) =>
      rank(scenarioRank, a.scenario) - rank(scenarioRank, b.scenario) ||
      byCode(a.scenario, b.scenario) ||
      rank(localeRank, a.locale) - rank(localeRank, b.locale) ||
      byCode(a.locale, b.locale),
  );
}

function zero(): Counts {
  return { pass: 0, n: 0, unresolved: 0, untested: 0 };
}

function copy(c: Counts | undefined): PassCount {
  return c ? { pass: c.pass, n: c.n, unresolved: c.unresolved, untested: c.untested } : zero();
}

function addInto(into: Counts, c: Counts | undefined): void {
  if (!c) return;
  into.pass += c.pass;
  into.n += c.n;
  into.unresolved += c.unresolved;
  into.untested += c.untested;
}

function passKOf(tasks: boolean[][], k: number): PassK {
  const { passHatK: p, rate, tasks: n, skipped } = passHatK(tasks, k);
  return { passHatK: p, rate, tasks: n, skipped };
}
