import type { PassCount, PassK, RunSummary, StudySummary } from '../schema/table1';
import { wilson } from '../stats/wilson';

/** "58% [44–71]" — k/n as a rate with its 95% Wilson interval; "—" when n is 0. Shared by CLI and UI. */
export function rateWithInterval(k: number, n: number): string {
  const ci = wilson(k, n);
  if (!ci) return '—';
  const pct = (x: number) => Math.round(x * 100);
  return `${pct(ci.estimate)}% [${pct(ci.low)}–${pct(ci.high)}]`;
}

/** `28/48 58% [44–71]` (+ unresolved / untested beside n when there are any). */
export function formatCount(c: PassCount): string {
  const base = c.n ? `${c.pass}/${c.n} ${rateWithInterval(c.pass, c.n)}` : `${c.pass}/${c.n}`;
  const beside = [c.unresolved ? `${c.unresolved} unresolved` : '', c.untested ? `${c.untested} untested` : ''].filter(Boolean);
  return beside.length ? `${base} (+${beside.join(', ')})` : base;
}

export function formatP(p: number | null): string {
  if (p === null) return '—';
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

/** Table 1 as plain text for the terminal: rows scenario × locale, one column per study. */
export function formatTable1(summary: RunSummary): string {
  const header = ['scenario / locale', ...summary.studies.map((s) => `${s.study}: ${s.baseline} → ${s.treatment}`)];
  const keys: string[] = [];
  for (const s of summary.studies) for (const r of s.rows) if (!keys.includes(`${r.scenario} / ${r.locale}`)) keys.push(`${r.scenario} / ${r.locale}`);
  const rows = keys.map((k) => [
    k,
    ...summary.studies.map((s) => {
      const r = s.rows.find((x) => `${x.scenario} / ${x.locale}` === k);
      return r ? `${formatCount(r.baseline)} → ${formatCount(r.treatment)}` : '';
    }),
  ]);
  rows.push(['Total', ...summary.studies.map((s) => `${formatCount(s.total.baseline)} → ${formatCount(s.total.treatment)}`)]);
  rows.push([
    'pairs improved/same/regressed',
    ...summary.studies.map((s) => `${s.pairs.improved} / ${s.pairs.same} / ${s.pairs.regressed}${s.pairs.incomplete ? ` (${s.pairs.incomplete} incomplete)` : ''}`),
  ]);
  rows.push(['exact McNemar p', ...summary.studies.map((s) => formatP(s.mcnemarP))]);
  rows.push(['mid-p McNemar p', ...summary.studies.map((s) => (s.mcnemar ? formatP(s.mcnemar.pMid) : '—'))]);
  rows.push([
    'clustered 95% CI (CR1)',
    ...summary.studies.map((s) => (s.clustered ? `${formatCi(s.clustered.baseline.ci95)} → ${formatCi(s.clustered.treatment.ci95)}` : '—')),
  ]);
  rows.push([
    'difference, 95% CI',
    ...summary.studies.map((s) => (s.difference?.estimate != null ? `${(100 * s.difference.estimate).toFixed(1)} pts ${formatCi(s.difference.ci95)}` : '—')),
  ]);
  if (summary.studies.some((s) => s.passK)) rows.push(['pass^k (plain rate)', ...summary.studies.map((s) => (s.passK ? formatPassK(s.passK) : ''))]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => [...(r[i] ?? '')].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c + ' '.repeat(widths[i] - [...c].length))
      .join('  ')
      .trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
  for (const s of summary.studies) {
    const cats = Object.entries(s.categories).filter(([, v]) => v.baseline || v.treatment);
    if (cats.length)
      out.push('', `${s.study} failure categories (${s.baseline} → ${s.treatment}): ${cats.map(([c, v]) => `${c} ${v.baseline} → ${v.treatment}`).join(', ')}`);
  }
  return out.join('\n');
}

/** `pass^3 0.42 (0.71) → 0.95 (0.98)`: pass^k of baseline → treatment with the plain rate of the same tasks. */
export function formatPassK(p: NonNullable<StudySummary['passK']>): string {
  const one = (x: PassK) => (x.passHatK === null ? '—' : `${x.passHatK.toFixed(2)} (${x.rate!.toFixed(2)})`);
  return `pass^${p.k} ${one(p.baseline)} → ${one(p.treatment)}`;
}

const pct1 = (x: number) => `${(100 * x).toFixed(1)}%`;

/** `[−3.1%, 12.0%]` for an interval on a rate or a difference; "—" without one. */
export function formatCi(ci: readonly [number, number] | null | undefined): string {
  return ci ? `[${pct1(ci[0])}, ${pct1(ci[1])}]` : '—';
}

/** The paired difference as `+37.5 pts, 95% CI [..] (CR1 SE 0.061, 24 clusters)`. */
export function formatDifference(d: NonNullable<StudySummary['difference']>): string {
  if (d.estimate === null) return '—';
  const pts = `${d.estimate >= 0 ? '+' : ''}${(100 * d.estimate).toFixed(1)} pts`;
  return `${pts} ${formatCi(d.ci95)} (CR1 SE ${d.se === null ? '—' : d.se.toFixed(3)}, ${d.pairs} pairs in ${d.clusters} clusters, t on ${d.df} df)`;
}

function mdCell(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
    .replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'));
}

/** Table 1 as GitHub-flavoured Markdown, for a CI job summary (`--summary-md`). */
export function formatTable1Markdown(summary: RunSummary, title: string): string {
  const out: string[] = [`## ${mdCell(title)}`, ''];
  const keys: string[] = [];
  for (const s of summary.studies) for (const r of s.rows) if (!keys.includes(`${r.scenario} / ${r.locale}`)) keys.push(`${r.scenario} / ${r.locale}`);
  out.push(`| scenario / locale | ${summary.studies.map((s) => mdCell(`${s.study}: ${s.baseline} → ${s.treatment}`)).join(' | ')} |`);
  out.push(`|---|${summary.studies.map(() => '---').join('|')}|`);
  for (const k of keys)
    out.push(
      `| ${mdCell(k)} | ${summary.studies
        .map((s) => {
          const r = s.rows.find((x) => `${x.scenario} / ${x.locale}` === k);
          return r ? mdCell(`${formatCount(r.baseline)} → ${formatCount(r.treatment)}`) : '';
        })
        .join(' | ')} |`,
    );
  const row = (label: string, f: (s: StudySummary) => string) => out.push(`| ${label} | ${summary.studies.map((s) => mdCell(f(s))).join(' | ')} |`);
  row('**Total**', (s) => `${formatCount(s.total.baseline)} → ${formatCount(s.total.treatment)}`);
  row('clustered 95% CI (CR1, t on G−1 df)', (s) =>
    s.clustered
      ? `${formatCi(s.clustered.baseline.ci95)} → ${formatCi(s.clustered.treatment.ci95)} (${s.clustered.treatment.clusters} ${s.clusterBy ?? 'case'} clusters)`
      : '—',
  );
  row(
    'pairs improved / same / regressed',
    (s) => `${s.pairs.improved} / ${s.pairs.same} / ${s.pairs.regressed}${s.pairs.incomplete ? ` (${s.pairs.incomplete} incomplete)` : ''}`,
  );
  row('paired difference (treatment − baseline)', (s) => (s.difference ? formatDifference(s.difference) : '—'));
  row('McNemar exact p / mid-p', (s) => (s.mcnemar ? `${formatP(s.mcnemar.pExact)} / ${formatP(s.mcnemar.pMid)}` : formatP(s.mcnemarP)));
  if (summary.studies.some((s) => s.orderConsistency))
    row('order flip rate (baseline → treatment)', (s) => {
      const o = s.orderConsistency;
      const one = (x: NonNullable<StudySummary['orderConsistency']>['baseline']) =>
        x && x.flipRate !== null ? `${x.cases - x.consistent}/${x.cases} ${pct1(x.flipRate)}` : '—';
      return o ? `${one(o.baseline)} → ${one(o.treatment)}` : '—';
    });
  out.push('', 'k/n with 95% Wilson interval; n excludes unresolved and untested trials. Clustered intervals treat a case’s orders and replicates as one cluster.');
  for (const s of summary.studies) {
    const cats = Object.entries(s.categories).filter(([, v]) => v.baseline || v.treatment);
    if (cats.length)
      out.push(
        '',
        `**${mdCell(s.study)} failure categories** (${mdCell(s.baseline)} → ${mdCell(s.treatment)}): ${cats.map(([c, v]) => `\`${c}\` ${v.baseline} → ${v.treatment}`).join(', ')}`,
      );
  }
  return `${out.join('\n')}\n`;
}
