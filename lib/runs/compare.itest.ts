import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { getExperiment } from '../db/experiments';
import { saveExperiment } from '../experiments/versions';
import { getRun } from '../db/runs';
import { runAudit } from '../db/audit';
import { createRun, startRun } from '../runner/start';
import type { WorkerHandle } from '../runner/worker';
import { RunComparison } from '../schema/compare';
import type { ExperimentSpec } from '../schema/experiment';
import { FINAL_RUN_STATUSES } from '../schema/run-status';
import { completedReferenceRun, runCli, waitForRunStatus } from '../testing/engine';
import { compareConditions, compareRuns, compareRunsUnderOverride, compareTrialPairs, overrideComparison, PAIR_CHANGES, parseRunCondition } from './compare';
import { runReport } from './report';

// Runs of two versions of one experiment compared. v2 of the reference study makes one treatment
// description vague and rewrites one case's task: the version diff names exactly those two paths, the changed
// case is listed apart with its reason, and the paired counts cover exactly the trials of the unchanged cases.

const DESCRIPTION_PATH = 'studies[selection].conditions[clear].tools.invoice.en[0].description';
const CHANGED_CASE = 'restaurant-en-read-1';
const TASK_PATH = `studies[selection].cases[${CHANGED_CASE}].task`;

let v1Run: string;
let v2Run: string;
let worker: WorkerHandle;
let v1: ExperimentSpec;

beforeAll(async () => {
  ({ runId: v1Run, worker } = await completedReferenceRun());
  const exp = (await getExperiment((await getRun(v1Run))!.experimentId))!;
  v1 = exp.spec;
  const spec = structuredClone(v1);
  const selection = spec.studies.find((s) => s.id === 'selection')!;
  selection.conditions.find((c) => c.id === 'clear')!.tools.invoice.en[0].description = 'Handles invoice-related requests.';
  selection.cases.find((c) => c.id === CHANGED_CASE)!.task = 'Is there a table for 4 at Sea Breeze Eatery, Xinyi branch on 15 January 2027?';
  const v2 = await saveExperiment(spec);
  expect(v2.id).toBe(`${exp.slug}-v${exp.version + 1}`);
  v2Run = (await createRun(v2.id, { provider: 'simulated', model: 'heuristic' })).id;
  expect((await startRun(v2Run)).ok).toBe(true);
  expect((await waitForRunStatus(v2Run, [...FINAL_RUN_STATUSES])).status).toBe('completed');
}, 240_000);

afterAll(async () => {
  await worker?.close();
  await closeDb();
});

const decided = async (runId: string, study: string, condition: string, exceptCase: string | null) =>
  (
    await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM trials WHERE run_id = $1 AND study = $2 AND condition = $3 AND status IN ('passed', 'failed') AND case_id IS DISTINCT FROM $4`,
      [runId, study, condition, exceptCase],
    )
  ).rows[0].n;

describe('compare runs of two versions of one experiment', () => {
  let c: RunComparison;
  beforeAll(async () => {
    c = await compareRuns([v1Run, v2Run]);
  });

  it('shows the version diff by JSON path: exactly the description and the task changed', () => {
    expect(c.runs.map((r) => [r.runId, r.version])).toEqual([
      [v1Run, 1],
      [v2Run, 2],
    ]);
    expect(c.versions).toHaveLength(1);
    expect(c.versions[0].changes.map((x) => x.path).sort()).toEqual([DESCRIPTION_PATH, TASK_PATH].sort());
    expect(c.versions[0].changes.find((x) => x.path === DESCRIPTION_PATH)?.after).toBe('Handles invoice-related requests.');
  });

  it('lists the changed case apart with its reason and pairs every other case', () => {
    const v = c.versions[0];
    expect(v.excludedCases).toEqual([{ study: 'selection', caseId: CHANGED_CASE, scenario: 'restaurant', locale: 'en', reason: 'task text changed' }]);
    expect(v.pairedCases).toBe(v1.studies.reduce((a, s) => a + s.cases.length, 0) - 1);
  });

  it('the paired counts cover exactly the trials of the unchanged cases', async () => {
    for (const d of c.differences)
      for (const x of d.conditions) {
        const expected = await decided(v1Run, d.study, x.condition, d.study === 'selection' ? CHANGED_CASE : null);
        expect(expected).toBeGreaterThan(0);
        expect(x.pairs, `${d.study}/${x.condition}`).toBe(expected);
        expect(x.otherBetter + x.same + x.referenceBetter).toBe(x.pairs);
        expect(x.otherPass - x.referencePass).toBe(x.otherBetter - x.referenceBetter);
      }
    const cell = (study: string, condition: string) => c.differences.find((d) => d.study === study)!.conditions.find((x) => x.condition === condition)!;
    // what v2 changed is a treatment description: the baseline sends the same requests and the simulator answers them alike
    expect([cell('selection', 'overlapping').otherBetter, cell('selection', 'overlapping').referenceBetter]).toEqual([0, 0]);
    // the vague description costs the treatment trials it decided
    expect(cell('selection', 'clear').referenceBetter).toBeGreaterThan(0);
    expect(cell('selection', 'clear').mcnemar).not.toBeNull();
  });

  it('each count opens those trial pairs, none of the changed case', async () => {
    for (const d of c.differences)
      for (const x of d.conditions) {
        const counts = { improved: x.otherBetter, same: x.same, regressed: x.referenceBetter };
        for (const change of PAIR_CHANGES) {
          const { pairs } = await compareTrialPairs(v1Run, v2Run, { study: d.study, condition: x.condition, change });
          expect(pairs, `${d.study}/${x.condition}/${change}`).toHaveLength(counts[change]);
          for (const p of pairs) {
            expect(p.caseId).not.toBe(CHANGED_CASE);
            const passed = [p.reference.status === 'passed', p.other.status === 'passed'];
            expect(passed).toEqual(change === 'improved' ? [false, true] : change === 'regressed' ? [true, false] : [passed[0], passed[0]]);
          }
        }
      }
    await expect(compareTrialPairs(v1Run, v2Run, { study: 'nope', condition: 'clear', change: 'same' })).rejects.toThrow('study: no study "nope"');
  });

  it('tclab runs compare --json gives the same comparison; the text names the change and the excluded case', async () => {
    const r = await runCli(['runs', 'compare', v1Run, v2Run, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const fromCli = RunComparison.parse(JSON.parse(r.stdout));
    expect(fromCli.versions).toEqual(c.versions);
    expect(fromCli.differences).toEqual(c.differences);
    const text = await runCli(['runs', 'compare', v1Run, v2Run]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`changed ${DESCRIPTION_PATH}`);
    expect(text.stdout).toContain(`selection / restaurant / en / ${CHANGED_CASE}: task text changed`);
  });

  it("condition against condition across runs: the same condition equals the run-vs-run cell; one run's two conditions equal its Table 1 pairs", async () => {
    const clear = c.differences.find((d) => d.study === 'selection')!.conditions.find((x) => x.condition === 'clear')!;
    const same = await compareConditions({ runId: v1Run, condition: 'clear' }, { runId: v2Run, condition: 'clear' });
    expect(same.version).toEqual(c.versions[0]);
    expect(same.differences.map((d) => d.study)).toEqual(['selection']);
    expect(same.differences[0].conditions[0]).toEqual(clear);

    const within = await compareConditions(parseRunCondition(`${v1Run}:overlapping`, 'a'), parseRunCondition(`${v1Run}:clear`, 'b'));
    const table1 = c.runs[0].summary.studies.find((s) => s.study === 'selection')!.pairs;
    const cell = within.differences[0].conditions[0];
    expect([cell.otherBetter, cell.same, cell.referenceBetter]).toEqual([table1.improved, table1.same, table1.regressed]);
    expect(within.version.changes).toEqual([]);

    // v1's baseline against v2's treatment: only the unchanged cases pair
    const across = await compareConditions({ runId: v1Run, condition: 'overlapping' }, { runId: v2Run, condition: 'clear' });
    expect(across.differences[0].conditions[0].pairs).toBe(await decided(v2Run, 'selection', 'clear', CHANGED_CASE));
    expect(across.differences[0].conditions[0].pairs).toBeLessThan(cell.pairs);

    await expect(compareConditions({ runId: v1Run, condition: 'overlapping' }, { runId: v2Run, condition: 'code-meanings' })).rejects.toThrow(/^b: no study holds both/);
    expect(() => parseRunCondition('no-colon', 'a')).toThrow('a: expected RUN:CONDITION');
  });
});

describe('the comparability guard across versions', () => {
  // v2 of the experiment at another temperature: the difference is no longer the edit's alone
  let hot: string;
  beforeAll(async () => {
    const v2 = (await getRun(v2Run))!.experimentId;
    hot = (await createRun(v2, { provider: 'simulated', model: 'heuristic', temperature: 0.7 })).id;
  });

  it('refuses runs of two versions at different temperatures, naming the difference; the same temperature passes', async () => {
    await expect(compareRuns([v1Run, hot])).rejects.toThrow(/override: runs .* differ beyond their descriptions — temperature: 0 vs 0\.7/);
    expect((await compareRuns([v1Run, v2Run])).guardOverrides).toBeUndefined();
    const cli = await runCli(['runs', 'compare', v1Run, hot]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/temperature: 0 vs 0\.7/);
  });

  it('compares them with an override: the reason and the differences are in the result, the text and the audit log', async () => {
    const before = (await runAudit(v1Run)).filter((e) => e.action === 'comparison.overridden').length;
    const c = await compareRuns([v1Run, hot], 'case', { reason: 'temperature is the question', actor: { kind: 'local', label: 'compare.itest', role: 'admin' } });
    expect(c.guardOverrides).toEqual([{ runId: hot, reason: 'temperature is the question', differences: [{ field: 'temperature', a: '0', b: '0.7' }] }]);
    const audit = (await runAudit(v1Run)).filter((e) => e.action === 'comparison.overridden');
    expect(audit.length).toBe(before + 1);
    expect(audit.at(-1)!.detail).toMatchObject({ runs: [v1Run, hot], overrides: c.guardOverrides });
    const cli = await runCli(['runs', 'compare', v1Run, hot, '--override', 'temperature is the question']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain('compared with an override of the comparability guard');
    expect(cli.stdout).toContain('differs: temperature: 0 vs 0.7');
  });

  it("the compare page's override: recorded once, read back by its id for these runs only, recording nothing more; the report follows it", async () => {
    const actor = { kind: 'local' as const, label: 'compare.itest page', role: 'admin' as const };
    const overridden = async () => (await runAudit(v1Run)).filter((e) => e.action === 'comparison.overridden').length;
    await expect(overrideComparison([v1Run, hot], { reason: '  ', actor })).rejects.toThrow(/^override: runs .* differ beyond their descriptions/);
    await expect(overrideComparison([v1Run, v2Run], { reason: 'nothing differs', actor })).rejects.toThrow(/^override: .*nothing to override/);
    const before = await overridden();
    const id = await overrideComparison([v1Run, hot], { reason: 'a pilot at two temperatures', actor });
    expect(await overridden()).toBe(before + 1);
    const { comparison, override } = await compareRunsUnderOverride([v1Run, hot], 'case', id);
    expect(comparison.guardOverrides).toEqual([{ runId: hot, reason: 'a pilot at two temperatures', differences: [{ field: 'temperature', a: '0', b: '0.7' }] }]);
    expect(override).toMatchObject({ id, reason: 'a pilot at two temperatures', by: 'compare.itest page' });
    expect(JSON.stringify({ ...comparison, guardOverrides: undefined })).toBe(
      JSON.stringify({ ...(await compareRuns([v1Run, hot], 'case', { reason: 'x', actor })), guardOverrides: undefined }),
    );
    const recorded = await overridden();
    await compareRunsUnderOverride([v1Run, hot], 'case', id);
    expect(await overridden()).toBe(recorded);
    // another run set, another order, an id recorded for nothing, or no number at all: refused naming the override
    await expect(compareRunsUnderOverride([hot, v1Run], 'case', id)).rejects.toThrow(/^override: no override .* is recorded for runs/);
    await expect(compareRunsUnderOverride([v1Run, v2Run], 'case', id)).rejects.toThrow(/^override: no override/);
    await expect(compareRunsUnderOverride([v1Run, hot], 'case', String(BigInt(id) + 1_000_000n))).rejects.toThrow(/^override: no override/);
    await expect(compareRunsUnderOverride([v1Run, hot], 'case', 'x; DROP TABLE runs')).rejects.toThrow(/^override: no override/);
    // the report: refused runs are reported each alone with the refusal; under the override, compared
    expect(await runReport([v1Run, hot])).toMatch(/Not compared: override: runs .* differ beyond their descriptions/);
    const html = await runReport([v1Run, hot], new Date(), id);
    expect(html).toContain('compared with an override of the comparability guard');
    expect(html).toContain('a pilot at two temperatures');
  });
});
