// An optimisation record as LaTeX for a paper (docs/optimise.md "What the author takes home"): the select
// ranking, each target's confirmation and the transfer across targets as booktabs tables, with the seal and the
// rule in the captions. The same numbers and formatters as the Markdown (lib/optimise/markdown.ts); every piece
// of user text escaped (lib/analysis/format-latex.ts). Needs \usepackage{booktabs}; pure.

import { formatP, pts } from '../analysis/format';
import { latexText } from '../analysis/format-latex';
import { confusionsText, funnelText, hasFunnel, perRequestText } from '../analysis/side-effects';
import type { OptimisationRow, StoredDifference } from '../schema/optimisation';

const diff = (d: StoredDifference) => `${d.estimate === null ? '—' : pts(d.estimate)} ${d.ci95 ? `[${pts(d.ci95[0])}, ${pts(d.ci95[1])}]` : '(no interval)'}`;

const line = (cells: string[]) => `${cells.map(latexText).join(' & ')} \\\\`;

function table(caption: string, label: string, columns: string, head: string[], rows: string[][]): string[] {
  return [
    '\\begin{table}[ht]',
    '\\centering',
    `\\caption{${latexText(caption)}}`,
    `\\label{${label}}`,
    `\\begin{tabular}{${columns}}`,
    '\\toprule',
    line(head),
    '\\midrule',
    ...rows.map(line),
    '\\bottomrule',
    '\\end{tabular}',
    '\\end{table}',
  ];
}

/** The record's tables; `\label`s carry the record's id so that several records can share one document. */
export function recordLatex(r: OptimisationRow): string {
  const id = r.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 12);
  const rule = r.rule.kind === 'best' ? 'the best paired difference' : `the top ${r.rule.m}`;
  const provenance = new Map(r.candidates.map((c) => [c.condition, c.provenance]));
  const ranked = r.result?.select?.ranked ?? [];
  const funnel = hasFunnel(ranked);
  const out = [
    `% Improving the descriptions of ${r.experimentId.replace(/[\r\n]/g, ' ')}, study ${r.studyId.replace(/[\r\n]/g, ' ')}; record ${r.id}, stage ${r.stage}`,
    '% Needs \\usepackage{booktabs}.',
    ...table(
      `Select split of ${r.studyId} (run ${r.selectRunId ?? '—'}): every candidate against the baseline, ranked; p uncorrected (the select stage chooses, it proves nothing). Split ${r.splitShares.tune}/${r.splitShares.select}/${r.splitShares.confirm} % (tune/select/confirm), seed ${r.splitSeed}; sealed: ${r.sealed.count} cases, ${r.sealed.sha256}. Rule, stated before the select run: ${rule}.`,
      `tab:select-${id}`,
      funnel ? 'rllllrllll' : 'rllllrlll',
      [
        'Rank',
        'Candidate',
        'From',
        'Difference [95% CI]',
        'Improved / regressed',
        'Exact p',
        'Against the placebo',
        'New confusions',
        'Per request',
        ...(funnel ? ['Funnel (found, chosen once found)'] : []),
      ],
      ranked.map((c) => [
        String(c.rank),
        `${c.candidate}${r.winners?.includes(c.candidate) ? ' (winner)' : ''}`,
        c.placebo ? 'placebo' : (provenance.get(c.candidate) ?? '—'),
        diff(c.difference),
        `${c.improved} / ${c.regressed}`,
        formatP(c.pExact),
        c.placebo ? '—' : c.beatsPlacebo === null ? 'no placebo' : c.beatsPlacebo ? 'beats it' : 'not above it',
        c.sideEffects ? confusionsText(c.sideEffects.newConfusions) : '—',
        c.sideEffects ? perRequestText(c.sideEffects.perRequest, r.result?.select?.currency) : '—',
        ...(funnel ? [funnelText(c.sideEffects?.funnel ?? [])] : []),
      ]),
    ),
  ];
  const confirms = r.result?.confirm ?? [];
  if (confirms.length > 0)
    out.push(
      '',
      ...table(
        `Confirmation on the sealed split (look ${r.look ?? '—'}): the frozen winner against the baseline, Holm-adjusted over every claim of every look.`,
        `tab:confirm-${id}`,
        'lllllll',
        ['Target', 'Candidate', 'Reading', 'Difference [95% CI]', 'Improved / regressed', 'Exact p', 'Holm p'],
        confirms.flatMap((c) =>
          c.readings.map((x) => [
            c.target,
            x.candidate,
            x.sentence,
            diff(x.difference),
            `${x.improved} / ${x.regressed}`,
            formatP(x.pExact),
            `${formatP(x.pHolm)} (${x.claims})`,
          ]),
        ),
      ),
    );
  for (const t of (r.result?.transfer ?? []).filter((x) => x.perTarget.length >= 2)) {
    const h = t.heterogeneity;
    out.push(
      '',
      ...table(
        `Transfer of ${t.candidate} across targets: ${h ? `Cochran's Q = ${h.q.toFixed(2)} on ${h.df} df, p = ${formatP(h.p)}, I² = ${(h.i2 * 100).toFixed(0)} %` : "Cochran's Q: fewer than two targets with a standard error"}.`,
        `tab:transfer-${id}-${t.candidate.replace(/[^A-Za-z0-9]/g, '').slice(0, 20)}`,
        'll',
        ['Target', 'Difference [95% CI]'],
        t.perTarget.map((p) => [p.target, diff(p.difference)]),
      ),
    );
  }
  if (r.error) out.push('', `% Failed: ${r.error.replace(/[\r\n]+/g, ' ')}`);
  return `${out.join('\n')}\n`;
}
