import { pairReading, stageReading, type DescriptionPair, type PairedStage } from '@/lib/analysis/funnel';
import { differenceCi, formatP, pts } from '../format';
import { Interval } from '../Interval';
import { DocLink } from '../DocLink';

/** One stage's pairs: improved · same · regressed, the paired difference with its CR1 interval, the exact McNemar p. */
function PairedCell({ s, stage }: { s: PairedStage; stage: 'visible' | 'chosen' }) {
  const d = s.difference;
  return (
    <td data-testid={`pair-${stage}`} data-label={stage === 'visible' ? 'Stage 1: needed tool visible' : 'Stage 2: chosen | visible'}>
      <span data-testid="pair-improved">{s.improved}</span> improved · <span data-testid="pair-same">{s.same}</span> same ·{' '}
      <span data-testid="pair-regressed">{s.regressed}</span> regressed
      <div className="small">
        {d.estimate === null ? (
          <span data-testid="pair-difference">no pairs</span>
        ) : (
          <>
            <strong data-testid="pair-difference">{pts(d.estimate)}</strong> <Interval ci={differenceCi(d)} testId="pair-ci" />
          </>
        )}{' '}
        ·{' '}
        <span title="two-sided exact binomial test on the discordant pairs (conservative)">
          exact McNemar <span data-testid="pair-p">{formatP(s.mcnemar.pExact)}</span>
        </span>
      </div>
    </td>
  );
}

/**
 * Descriptions move both stages (docs/discovery.md): per baseline → treatment pair under the same discovery × N,
 * stage 1 (the needed tool visible) and stage 2 (chosen, over the pairs where both trials saw it) side by side,
 * and which of them moved. On a phone each row is a card (`table.stack`), the two stages one under the other.
 * Render only: the pairs come with the funnel (lib/runs/funnel.ts).
 */
export function DescriptionPairs({ study, pairs }: { study: string; pairs: DescriptionPair[] }) {
  if (pairs.length === 0) return null;
  return (
    <div data-testid={`description-pairs-${study}`}>
      <h4>Found, or chosen once found?</h4>
      <p className="small muted">
        Each treatment against the baseline under the same discovery and N, pair by pair (same case, order and replicate). Stage 1: was the needed tool visible? Stage 2:
        was it chosen — counted only over the pairs where both trials saw it, so a pair the edit made visible counts at stage 1 alone. Difference in pts with its 95% CR1
        interval (clusters: cases; — where there is nothing to estimate). Each stage is read as improved, worse, not shown or too few pairs to tell (
        <DocLink page="statistics" anchor="reading-a-comparison-libanalysisreadingts" />, &ldquo;Reading a comparison&rdquo;; per cell, not corrected for the number of
        cells); hover a stage&rsquo;s reading for the pairs a design like this would need.
      </p>
      <div className="table-scroll">
        <table className="stack" data-testid="pairs-table">
          <thead>
            <tr>
              <th>Discovery</th>
              <th>N</th>
              <th>Baseline → treatment</th>
              <th>Stage 1: needed tool visible</th>
              <th>Stage 2: chosen | visible</th>
              <th>Reading</th>
            </tr>
          </thead>
          <tbody>
            {pairs.map((p) => (
              <tr
                key={`${p.discovery}-${p.catalogSize}-${p.treatment}`}
                data-testid="pair-row"
                data-discovery={p.discovery ?? ''}
                data-n={p.catalogSize ?? ''}
                data-treatment={p.treatment}
              >
                <td data-label="Discovery">{p.discovery ?? '—'}</td>
                <td data-label="N">{p.catalogSize ?? '—'}</td>
                <td data-label="Baseline → treatment">
                  {p.baseline} → {p.treatment}
                </td>
                <PairedCell s={p.visible} stage="visible" />
                <PairedCell s={p.chosen} stage="chosen" />
                <td data-testid="pair-reading" data-label="Reading">
                  <span data-testid="pair-reading-head">{pairReading(p)}</span>
                  {(['visible', 'chosen'] as const).map((k) => {
                    const r = stageReading(p[k]);
                    return (
                      <div key={k} className="small muted" data-testid={`pair-reading-${k}`} title={r.pairsText}>
                        {k === 'visible' ? 'Stage 1' : 'Stage 2'}: {r.label} — {r.why}
                      </div>
                    );
                  })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
