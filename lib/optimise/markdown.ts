// An optimisation record as Markdown, for a paper or a pull request (docs/optimise.md "What the author takes
// home"): the seal and rule, every candidate ranked on the select split, the frozen winner(s), each target's
// confirmation in words and numbers, and transfer. The same numbers as the record's JSON; pure.

import { formatP, pts } from '../analysis/format';
import type { OptimisationRow, StoredDifference } from '../schema/optimisation';
import { confusionsText, funnelText, hasFunnel, perRequestText } from '../analysis/side-effects';

/** A table cell's text: pipes and line breaks cannot end a cell early. */
const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

const diff = (d: StoredDifference) =>
  `${d.estimate === null ? '—' : pts(d.estimate)} ${d.ci95 ? `[${pts(d.ci95[0])}, ${pts(d.ci95[1])}]` : `(no interval${d.ciReason ? `: ${d.ciReason}` : ''})`}`;

export function recordMarkdown(r: OptimisationRow): string {
  const rule = r.rule.kind === 'best' ? 'the best paired difference' : `the top ${r.rule.m}`;
  const provenance = new Map(r.candidates.map((c) => [c.condition, c.provenance]));
  const ranked = r.result?.select?.ranked ?? [];
  const funnel = hasFunnel(ranked);
  const lines = [
    `## Improving the descriptions of ${cell(r.experimentId)}, study ${cell(r.studyId)}`,
    '',
    `- Split ${r.splitShares.tune} / ${r.splitShares.select} / ${r.splitShares.confirm} % (tune / select / confirm), seed ${r.splitSeed}; sealed: ${r.sealed.count} cases, \`${r.sealed.sha256}\``,
    `- Selection rule, stated before the select run: ${rule}`,
    `- Targets: ${r.targets.map((t) => `\`${t}\``).join(', ')}; record \`${r.id}\`, stage ${r.stage}`,
    '',
    `### Select (run \`${r.selectRunId ?? '—'}\`; p uncorrected: the select stage chooses, it proves nothing)`,
    '',
    ...(r.result?.select?.baseline
      ? [
          `The baseline \`${cell(r.result.select.baseline.condition)}\`, per request: ${cell(perRequestText(r.result.select.baseline.perRequest, r.result.select.currency))}.`,
          '',
        ]
      : []),
    `| Rank | Candidate | From | Difference [95% CI] | Improved / regressed | Exact p | Against the placebo | New confusions | Per request |${funnel ? ' Funnel (found, chosen once found) |' : ''}`,
    `| ---: | --- | --- | --- | ---: | ---: | --- | --- | --- |${funnel ? ' --- |' : ''}`,
    ...ranked.map(
      (c) =>
        `| ${c.rank} | ${cell(c.candidate)}${r.winners?.includes(c.candidate) ? ' **(winner)**' : ''} | ${cell(c.placebo ? 'placebo' : (provenance.get(c.candidate) ?? '—'))} | ${diff(c.difference)} | ${c.improved} / ${c.regressed} | ${formatP(c.pExact)} | ${c.placebo ? '—' : c.beatsPlacebo === null ? 'no placebo' : c.beatsPlacebo ? 'beats it' : 'not above it'} | ${cell(c.sideEffects ? confusionsText(c.sideEffects.newConfusions) : '—')} | ${cell(c.sideEffects ? perRequestText(c.sideEffects.perRequest, r.result?.select?.currency) : '—')} |${funnel ? ` ${cell(funnelText(c.sideEffects?.funnel ?? []))} |` : ''}`,
    ),
    '',
    r.frozenAt
      ? r.winners?.length
        ? `Frozen: ${r.winners.map((w) => `\`${w}\``).join(', ')} at ${r.frozenAt.toISOString()}, before any trial of a sealed case.`
        : 'No winner: no candidate had a select difference above 0; the sealed cases were not run.'
      : 'Not frozen yet.',
  ];
  for (const c of r.result?.confirm ?? []) {
    lines.push('', `### Confirm, look ${r.look}, on \`${c.target}\` (run \`${c.runId}\`)`, '');
    for (const x of c.readings)
      lines.push(
        `- **${cell(x.candidate)}: ${cell(x.sentence)}** — ${x.improved} improved / ${x.regressed} regressed, ${diff(x.difference)}, exact p ${formatP(x.pExact)}, Holm-adjusted p ${formatP(x.pHolm)} over ${x.claims} claim${x.claims === 1 ? '' : 's'}${x.vsPlacebo ? `; against the placebo ${diff(x.vsPlacebo.difference)}, exact p ${formatP(x.vsPlacebo.pExact)}` : ''}`,
      );
  }
  for (const t of (r.result?.transfer ?? []).filter((x) => x.perTarget.length >= 2)) {
    lines.push('', `### Transfer of ${cell(t.candidate)}`, '', '| Target | Difference [95% CI] |', '| --- | --- |');
    for (const p of t.perTarget) lines.push(`| \`${p.target}\` | ${diff(p.difference)} |`);
    const h = t.heterogeneity;
    lines.push(
      '',
      h
        ? `Cochran's Q = ${h.q.toFixed(2)} on ${h.df} df, p = ${formatP(h.p)}, I² = ${(h.i2 * 100).toFixed(0)} %.`
        : "Cochran's Q: fewer than two targets with a standard error.",
    );
  }
  if (r.error) lines.push('', `Failed: ${cell(r.error)}`);
  return `${lines.join('\n')}\n`;
}
