import type { VersionComparison } from '@/lib/schema/compare';
import { WordDiff } from '../WordDiff';

const show = (v: unknown) => {
  if (v === undefined) return '';
  const s = JSON.stringify(v);
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

/** What separates two compared runs' experiment versions: the spec diff by JSON path and the cases that do not pair. */
export function VersionDiff({ version, fromLabel, toLabel }: { version: VersionComparison; fromLabel: string; toLabel: string }) {
  const n = version.changes.length;
  return (
    <section data-testid={`version-comparison-${version.otherRunId}`}>
      <h2>
        {fromLabel} → {toLabel}: {n} change{n === 1 ? '' : 's'}
      </h2>
      <p className="small muted">
        <span className="mono">{version.from}</span> → <span className="mono">{version.to}</span>, by JSON path. Trials pair only on the{' '}
        <strong data-testid="paired-cases">{version.pairedCases}</strong> case{version.pairedCases === 1 ? '' : 's'} whose task, card, input and fixture are the same in
        both versions; the cases below are listed apart and kept out of the paired counts.
      </p>
      <div className="table-scroll">
        <table className="compact" data-testid="compare-version-diff">
          <thead>
            <tr>
              <th>Path</th>
              <th>Change</th>
              <th>{fromLabel}</th>
              <th>{toLabel}</th>
            </tr>
          </thead>
          <tbody>
            {version.changes.map((c) => (
              <tr key={c.path} data-testid="compare-version-change">
                <td className="mono small" data-testid="compare-change-path">
                  {c.path}
                </td>
                <td>{c.kind}</td>
                <td className="small" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {show(c.before)}
                </td>
                <td className="small" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {/* a changed text (a description) as a word diff: the edit first, not two whole strings */}
                  {typeof c.before === 'string' && typeof c.after === 'string' ? <WordDiff before={c.before} after={c.after} /> : show(c.after)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {version.excludedCases.length > 0 ? (
        <>
          <h3>Cases not paired ({version.excludedCases.length})</h3>
          <div className="table-scroll">
            <table className="compact" data-testid="excluded-cases">
              <thead>
                <tr>
                  <th>study</th>
                  <th>scenario / locale</th>
                  <th>case</th>
                  <th>why</th>
                </tr>
              </thead>
              <tbody>
                {version.excludedCases.map((c) => (
                  <tr key={`${c.study}|${c.caseId}`} data-testid={`excluded-${c.study}-${c.caseId}`}>
                    <td>{c.study}</td>
                    <td>
                      {c.scenario} / {c.locale}
                    </td>
                    <td className="mono">{c.caseId}</td>
                    <td data-testid="excluded-reason">{c.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p className="small muted" data-testid="excluded-none">
          Every case is unchanged: all of them pair.
        </p>
      )}
    </section>
  );
}
