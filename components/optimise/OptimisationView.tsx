import Link from 'next/link';
import type { OptimisationRow, StoredDifference } from '@/lib/schema/optimisation';
import { diffCi, formatP, pts } from '../format';
import { Interval } from '../Interval';
import { WordDiff } from '../WordDiff';
import { urls } from '@/lib/urls';
import { rewriterWarnings } from '@/lib/optimise/warnings';
import { confusionsText, funnelText, hasFunnel, perRequestText } from '@/lib/analysis/side-effects';

// One optimisation record as stored (docs/optimise.md): the seal, the rule, every candidate with where it came
// from and what it changes, the select ranking (rejected candidates and the placebo included), the frozen
// winner(s), each target's confirmation in words and numbers, and transfer across targets. Tool text is text.

const STAGE_WORDS: Record<OptimisationRow['stage'], string> = {
  select: 'running the select stage',
  frozen: 'winner frozen, confirming',
  confirmed: 'confirmation done',
  'no-winner': 'no winner',
  failed: 'failed',
};

export const isFinalStage = (stage: OptimisationRow['stage']) => stage === 'confirmed' || stage === 'no-winner' || stage === 'failed';

function Difference({ d, testId }: { d: StoredDifference; testId?: string }) {
  return (
    <>
      <span data-testid={testId}>{d.estimate === null ? '—' : pts(d.estimate)}</span> <Interval ci={diffCi(d.ci95, d.ciReason ?? 'no interval')} />
    </>
  );
}

export function OptimisationView({ record: r }: { record: OptimisationRow }) {
  const ranked = r.result?.select?.ranked ?? [];
  const candidates = new Map(r.candidates.map((c) => [c.condition, c]));
  const rule = r.rule.kind === 'best' ? 'the best paired difference' : `the top ${r.rule.m}`;
  return (
    <section className="panel" data-testid="optimisation" data-id={r.id} data-stage={r.stage}>
      <h2 style={{ marginTop: 0 }}>
        Study {r.studyId}{' '}
        <span
          className={`badge status-${isFinalStage(r.stage) ? (r.stage === 'failed' ? 'failed' : 'completed') : 'running'}`}
          data-testid="optimisation-stage"
          data-stage={r.stage}
        >
          {STAGE_WORDS[r.stage]}
        </span>
      </h2>
      <p className="small muted mono">
        {r.id} · started by {r.actor} · {r.createdAt.toISOString().slice(0, 16).replace('T', ' ')} ·{' '}
        <a href={urls.api.optimisations(r.experimentId, r.id)} download data-testid="optimisation-json">
          JSON
        </a>{' '}
        ·{' '}
        <a href={urls.api.optimisations(r.experimentId, r.id, { format: 'md' })} download data-testid="optimisation-md">
          Markdown
        </a>{' '}
        ·{' '}
        <a href={urls.api.optimisations(r.experimentId, r.id, { format: 'tex' })} download data-testid="optimisation-tex">
          LaTeX
        </a>
      </p>
      <ul className="small">
        <li>
          Split {r.splitShares.tune} / {r.splitShares.select} / {r.splitShares.confirm} % (tune / select / confirm), seed {r.splitSeed}.{' '}
          <strong data-testid="sealed">
            sealed: {r.sealed.count} cases, {r.sealed.sha256}
          </strong>
        </li>
        <li>Selection rule, stated before the select run: {rule}.</li>
        <li>Targets: {r.targets.join(', ')} (the first runs the select stage; each runs the confirmation).</li>
      </ul>

      {rewriterWarnings(r.candidates, r.targets).map((w) => (
        <p key={w} className="notice small" data-testid="rewriter-warning">
          {w}.
        </p>
      ))}
      <h3>Candidates</h3>
      <div className="table-scroll">
        <table data-testid="optimisation-candidates">
          <thead>
            <tr>
              <th>Candidate</th>
              <th>From</th>
              <th>What it changes</th>
            </tr>
          </thead>
          <tbody>
            {r.candidates.map((c) => (
              <tr key={c.condition}>
                <td className="mono">{c.condition}</td>
                <td className="mono">{c.provenance}</td>
                <td>
                  {c.changes.length === 0 ? (
                    <span className="muted">no description changed</span>
                  ) : (
                    <details>
                      <summary>
                        {c.changes.length} description{c.changes.length === 1 ? '' : 's'}: {[...new Set(c.changes.map((x) => x.tool))].join(', ')}
                      </summary>
                      {c.changes.map((x, i) => (
                        <div key={i} className="small" style={{ marginTop: 6 }}>
                          <div className="muted">
                            {x.scenario} · {x.locale} · <span className="mono">{x.tool}</span>
                          </div>
                          <div style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                            <WordDiff before={x.before} after={x.after} />
                          </div>
                        </div>
                      ))}
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h3>Select</h3>
      {r.selectRunId ? (
        <p className="small">
          Every candidate against the baseline on the select split: <Link href={urls.run(r.selectRunId)}>run {r.selectRunId}</Link>. p is uncorrected: the select stage
          chooses, it proves nothing. <em>New confusions</em>: pairs the baseline got right that the candidate sends to another tool it was offered (expected → chosen,
          with the cases).
          {hasFunnel(ranked) && (
            <>
              {' '}
              <em>Funnel</em>: per discovery × N, the pairs in which only the candidate&apos;s trial (↑) or only the baseline&apos;s (↓) found the needed tool, and chose
              it once both found it.
            </>
          )}
          {r.result?.select?.baseline && (
            <>
              {' '}
              The baseline, per request: <span data-testid="baseline-per-request">{perRequestText(r.result.select.baseline.perRequest, r.result.select.currency)}</span>.
            </>
          )}
        </p>
      ) : (
        <p className="small muted">The select run has not started yet.</p>
      )}
      {ranked.length > 0 && (
        <div className="table-scroll">
          <table data-testid="optimisation-ranking">
            <thead>
              <tr>
                <th className="num">Rank</th>
                <th>Candidate</th>
                <th>From</th>
                <th>Difference [95% CI]</th>
                <th className="num">Improved / regressed</th>
                <th className="num">Exact p</th>
                <th>Against the placebo</th>
                <th>New confusions</th>
                <th>Per request</th>
                {hasFunnel(ranked) && <th>Funnel (found, chosen once found)</th>}
              </tr>
            </thead>
            <tbody>
              {ranked.map((c) => (
                <tr key={c.candidate} data-candidate={c.candidate} data-winner={r.winners?.includes(c.candidate) ? 'yes' : 'no'}>
                  <td className="num">{c.rank}</td>
                  <td className="mono">
                    {c.candidate}
                    {r.winners?.includes(c.candidate) && <strong> ← winner</strong>}
                  </td>
                  <td className="mono">{c.placebo ? 'placebo' : (candidates.get(c.candidate)?.provenance ?? '—')}</td>
                  <td>
                    <Difference d={c.difference} />
                  </td>
                  <td className="num">
                    {c.improved} / {c.regressed}
                  </td>
                  <td className="num">{formatP(c.pExact)}</td>
                  <td>{c.placebo ? '—' : c.beatsPlacebo === null ? 'no placebo' : c.beatsPlacebo ? 'beats it' : 'not above it'}</td>
                  <td data-testid="new-confusions" className="small">
                    {c.sideEffects ? confusionsText(c.sideEffects.newConfusions) : '—'}
                  </td>
                  <td data-testid="per-request" className="small">
                    {c.sideEffects ? perRequestText(c.sideEffects.perRequest, r.result?.select?.currency) : '—'}
                  </td>
                  {hasFunnel(ranked) && (
                    <td data-testid="funnel-pairs" className="small">
                      {funnelText(c.sideEffects?.funnel ?? [])}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {r.frozenAt && (
        <p data-testid="optimisation-frozen">
          {r.winners?.length ? (
            <>
              Frozen: <strong className="mono">{r.winners.join(', ')}</strong> at {r.frozenAt.toISOString().slice(0, 19).replace('T', ' ')} UTC, before any trial of a
              sealed case. Its definitions:{' '}
              <a href={urls.api.optimisations(r.experimentId, r.id, { definitions: 'mcp' })} download data-testid="winner-mcp">
                MCP tools/list
              </a>{' '}
              ·{' '}
              <a href={urls.api.optimisations(r.experimentId, r.id, { definitions: 'openai' })} download data-testid="winner-openai">
                OpenAI tools
              </a>
              .
            </>
          ) : (
            'No winner: no candidate had a select difference above 0. The sealed cases were not run.'
          )}
        </p>
      )}

      {(r.result?.confirm ?? []).length > 0 && <h3>Confirm (look {r.look})</h3>}
      {(r.result?.confirm ?? []).map((c) => (
        <div key={c.target} data-testid="optimisation-confirm" data-target={c.target}>
          <p className="small">
            On <span className="mono">{c.target}</span>: <Link href={urls.run(c.runId)}>run {c.runId}</Link>
          </p>
          <ul>
            {c.readings.map((x) => (
              <li key={x.candidate} data-reading={x.reading}>
                <strong data-testid="confirm-sentence">{x.sentence}</strong>
                <div className="small">
                  {x.improved} improved / {x.regressed} regressed, <Difference d={x.difference} />, exact {formatP(x.pExact)}, Holm-adjusted {formatP(x.pHolm)} over{' '}
                  {x.claims} claim{x.claims === 1 ? '' : 's'}
                  {x.vsPlacebo && (
                    <>
                      ; against the placebo <Difference d={x.vsPlacebo.difference} />, exact {formatP(x.vsPlacebo.pExact)}
                    </>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </div>
      ))}

      {(r.result?.transfer ?? []).some((t) => t.perTarget.length >= 2) && <h3>Does it hold on the other models?</h3>}
      {(r.result?.transfer ?? [])
        .filter((t) => t.perTarget.length >= 2)
        .map((t) => (
          <div key={t.candidate} data-testid="optimisation-transfer" className="small">
            <p>
              <span className="mono">{t.candidate}</span>:{' '}
              {t.perTarget.map((p, i) => (
                <span key={p.target}>
                  {i > 0 && '; '}
                  {p.target} <Difference d={p.difference} />
                </span>
              ))}
            </p>
            <p>
              {t.heterogeneity
                ? `Cochran's Q = ${t.heterogeneity.q.toFixed(2)} on ${t.heterogeneity.df} df, ${formatP(t.heterogeneity.p)}, I² = ${(t.heterogeneity.i2 * 100).toFixed(0)} %: ${t.heterogeneity.p <= 0.05 ? 'the effect differs between the models' : 'no difference between the models shown'}.`
                : "Cochran's Q: fewer than two targets with a standard error."}
            </p>
          </div>
        ))}
      {r.error && (
        <div className="errors" role="alert" data-testid="optimisation-error">
          <strong>Failed:</strong> {r.error}
        </div>
      )}
    </section>
  );
}
