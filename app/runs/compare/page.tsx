import type { Metadata } from 'next';
import { compareConditions, compareRuns, compareRunsUnderOverride, parseRunCondition, type RecordedOverride } from '@/lib/runs/compare';
import { differenceText, type GuardedField } from '@/lib/analysis/comparability';
import { can } from '@/lib/auth/roles';
import { CompareOverrideForm, CompareOverrideNotice } from '@/components/runs/CompareOverride';
import type { ConditionComparison } from '@/lib/schema/compare';
import { runLabel } from '@/lib/analysis/format-compare';
import { ConditionCompare } from '@/components/runs/ConditionCompare';
import { SpecError } from '@/lib/schema/common';
import { ClusterBy } from '@/lib/schema/table1';
import { RunComparison } from '@/components/runs/RunComparison';
import { pageActor } from '@/app/_auth/guard';
import { loadCompareGrids } from '@/lib/runs/choices';
import { urls } from '@/lib/urls';
import { ChangedRowsSwitch, ChoiceGrid, ChoiceSections, GridPager, sectionParam, type ChoiceSectionRef } from '@/components/runs/ChoiceViews';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Compare runs' };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * /runs/compare?ids=A,B[,…][&cluster=scenario][&a=RUN:CONDITION&b=RUN:CONDITION]: runs of one experiment (one
 * version or several) side by side, and optionally one run's condition against another's.
 */
export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<{
    ids?: string | string[];
    cluster?: string;
    a?: string | string[];
    b?: string | string[];
    choices?: string | string[];
    choicesFrom?: string | string[];
    choicesChanged?: string | string[];
    override?: string | string[];
  }>;
}) {
  const actor = await pageActor('read');
  const { ids, cluster, ...q } = await searchParams;
  const [a, b] = [first(q.a), first(q.b)];
  const runIds = (Array.isArray(ids) ? ids : [ids ?? ''])
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean);
  const clusterBy = ClusterBy.safeParse(cluster ?? 'case');
  const overrideId = first(q.override);
  let comparison: Awaited<ReturnType<typeof compareRuns>> | null = null;
  let recorded: RecordedOverride | null = null;
  let error: string | null = null;
  let guardRefused = false;
  try {
    if (!clusterBy.success) throw new SpecError('cluster: expected case or scenario', [{ path: 'cluster', message: 'case or scenario' }]);
    // an override recorded before is read back by its id (it records nothing more); else the guard decides
    if (overrideId) ({ comparison, override: recorded } = await compareRunsUnderOverride(runIds, clusterBy.data, overrideId));
    else comparison = await compareRuns(runIds, clusterBy.data);
  } catch (e) {
    if (!(e instanceof SpecError)) throw e;
    error = e.message;
    guardRefused = !overrideId && e.issues.some((i) => i.path === 'override');
  }
  let conditions: ConditionComparison | null = null;
  let conditionError: string | null = null;
  if (comparison && a && b)
    try {
      conditions = await compareConditions(parseRunCondition(a, 'a'), parseRunCondition(b, 'b'), clusterBy.data ?? 'case');
    } catch (e) {
      if (!(e instanceof SpecError)) throw e;
      conditionError = e.message;
    }
  // what the model did: one grid section of every run, side by side
  const grids = comparison
    ? await loadCompareGrids(
        comparison.runs.map((r) => r.runId),
        first(q.choices),
        Number(first(q.choicesFrom) ?? 0),
      )
    : null;
  const override = overrideId && comparison ? overrideId : null;
  const changedOnly = first(q.choicesChanged) === '1';
  const gridParams = (sec: ChoiceSectionRef, more: { choicesFrom?: string | null; choicesChanged?: boolean } = {}) =>
    urls.compareWith(
      {
        ids: runIds.join(','),
        cluster: cluster || null,
        a: a || null,
        b: b || null,
        override,
        choices: sectionParam(sec),
        choicesFrom: more.choicesFrom ?? null,
        choicesChanged: (more.choicesChanged ?? changedOnly) ? '1' : null,
      },
      '#what-the-model-did',
    );
  const gridHref = (sec: ChoiceSectionRef) => gridParams(sec);
  const changedSet = new Set(grids?.changed ?? []);
  const side = (i: number) => {
    const r = comparison?.runs[i];
    return r ? `${r.runId}:${r.summary.studies[0]?.treatment ?? r.conditions[0]}` : '';
  };
  return (
    <>
      <h1>Compare runs</h1>
      <p className="small muted">
        Runs of one experiment, of one version or of several: what changed between the versions, every run against the first on identical trials of the unchanged cases,
        and Table 1 of each run (its own paired effect of the definitions included). Also on the command line:{' '}
        <span className="mono">tclab runs compare {runIds.join(' ') || 'RUN RUN'}</span>.
      </p>
      {comparison && (
        <p>
          <a
            className="button"
            href={urls.api.runReport(
              comparison.runs.map((r) => r.runId),
              overrideId ?? null,
            )}
            download
            data-testid="download-report"
          >
            Report (HTML)
          </a>
        </p>
      )}
      {comparison?.guardOverrides && (
        <CompareOverrideNotice
          overrides={comparison.guardOverrides.map((o) => ({
            ...o,
            differences: o.differences.map((d) => ({ text: differenceText({ ...d, field: d.field as GuardedField }) })),
          }))}
          recorded={recorded && { by: recorded.by, at: recorded.at.toISOString().replace('T', ' ').slice(0, 19) + ' UTC' }}
        />
      )}
      {comparison ? (
        <RunComparison comparison={comparison}>
          <ConditionCompare
            ids={comparison.runs.map((r) => r.runId)}
            runs={comparison.runs}
            labelOf={(r) => runLabel(comparison, r)}
            chosen={{ a: a ?? side(0), b: b ?? side(1) }}
            result={conditions}
            error={conditionError}
          />
        </RunComparison>
      ) : null}
      {comparison && grids?.current && (
        <>
          <h2 id="what-the-model-did">What the model did, side by side</h2>
          <ChoiceSections sections={grids.sections} current={grids.current} href={gridHref} />
          {grids.page && grids.page.total > grids.page.size && <GridPager page={grids.page} href={(from) => gridParams(grids.current!, { choicesFrom: String(from) })} />}
          {grids.grids.some((g) => g.grid) && (
            <ChangedRowsSwitch
              on={changedOnly}
              href={(on) => gridParams(grids.current!, { choicesFrom: first(q.choicesFrom) ?? null, choicesChanged: on })}
              shown={grids.changed.length}
              total={Math.max(0, ...grids.grids.map((g) => g.grid?.cases.length ?? 0))}
              paged={!!grids.page && grids.page.total > grids.page.size}
              across="runs and conditions"
            />
          )}
          <div className="side-by-side" data-testid="compare-grids">
            {grids.grids.map((g) => {
              const r = comparison.runs.find((x) => x.runId === g.runId)!;
              return (
                <section key={g.runId}>
                  <h3>{runLabel(comparison, r)}</h3>
                  <ChoiceGrid runId={g.runId} current={grids.current!} grid={g.grid} changedOnly={changedOnly} changedCases={changedSet} />
                </section>
              );
            })}
          </div>
        </>
      )}
      {comparison ? null : (
        <p className="field-error" role="alert" data-testid="compare-error">
          {error}
        </p>
      )}
      {guardRefused && can(actor.role, 'run.control') && <CompareOverrideForm runIds={runIds} cluster={cluster || null} />}
    </>
  );
}
