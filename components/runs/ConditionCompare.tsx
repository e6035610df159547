import type { ComparedRun, ConditionComparison } from '@/lib/schema/compare';
import { formatCi, formatP } from '@/lib/analysis/format';

const pts = (e: number | null) => (e === null ? '—' : `${e >= 0 ? '+' : ''}${(100 * e).toFixed(1)} pts`);

/** One end of the comparison: a select of every compared run's conditions, as RUN:CONDITION. */
function Side({ name, label, value, runs, labelOf }: { name: string; label: string; value: string; runs: ComparedRun[]; labelOf: (r: ComparedRun) => string }) {
  return (
    <label>
      {label}{' '}
      <select name={name} defaultValue={value} aria-label={`Condition ${name.toUpperCase()}`}>
        {runs.flatMap((r) =>
          r.conditions.map((c) => (
            <option key={`${r.runId}:${c}`} value={`${r.runId}:${c}`}>
              {labelOf(r)} · {c}
            </option>
          )),
        )}
      </select>
    </label>
  );
}

/** Condition against condition across runs: a selector (?a=RUN:CONDITION&b=RUN:CONDITION) and, when chosen, the paired cells. */
export function ConditionCompare({
  ids,
  runs,
  labelOf,
  chosen,
  result,
  error,
}: {
  ids: string[];
  runs: ComparedRun[];
  labelOf: (r: ComparedRun) => string;
  chosen: { a: string; b: string };
  result: ConditionComparison | null;
  error: string | null;
}) {
  return (
    <section data-testid="condition-compare">
      <h2>Condition against condition</h2>
      <p className="small muted">
        Any run&apos;s condition against any other&apos;s (e.g. run A&apos;s treatment against run B&apos;s treatment), on trials paired by study, scenario, locale, case,
        candidate order and replicate (across versions: of the unchanged cases only). The difference is B − A.
      </p>
      <form className="row panel" method="get" action="/runs/compare" style={{ flexWrap: 'wrap' }}>
        <input type="hidden" name="ids" value={ids.join(',')} />
        <Side name="a" label="A" value={chosen.a} runs={runs} labelOf={labelOf} />
        <Side name="b" label="B" value={chosen.b} runs={runs} labelOf={labelOf} />
        <button type="submit">Compare conditions</button>
      </form>
      {error && (
        <p className="field-error" role="alert" data-testid="condition-compare-error">
          {error}
        </p>
      )}
      {result && (
        <div className="table-scroll">
          <table data-testid="condition-differences">
            <thead>
              <tr>
                <th>study</th>
                <th>pairs</th>
                <th>A passed</th>
                <th>B passed</th>
                <th>improved / same / regressed</th>
                <th>difference B − A</th>
                <th>95% CI (CR1)</th>
                <th>McNemar exact / mid-p</th>
              </tr>
            </thead>
            <tbody>
              {result.differences.flatMap((d) =>
                d.conditions.map((x) => (
                  <tr key={d.study} data-testid={`condition-difference-${d.study}`}>
                    <td>{d.study}</td>
                    <td data-testid="condition-pairs">{x.pairs}</td>
                    <td>{x.referencePass}</td>
                    <td>{x.otherPass}</td>
                    <td data-testid="condition-changes">
                      {x.otherBetter} improved · {x.same} same · {x.referenceBetter} regressed
                    </td>
                    <td>{pts(x.difference.estimate)}</td>
                    <td>{formatCi(x.difference.ci95)}</td>
                    <td>{x.mcnemar ? `${formatP(x.mcnemar.pExact)} / ${formatP(x.mcnemar.pMid)}` : '—'}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
