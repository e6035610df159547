import type { Clustered, Difference, PassCount, PassK, RunSummary, StudySummary } from '../schema/table1';
import { clusteredIntervalReason } from '../stats/clustered';
import { wilson } from '../stats/wilson';
import { orderNumber } from '../schema/trial-place';

/*
 * The one format of numbers with intervals (docs/design.md#the-statistics-it-relies-on), shared by the pages, the exports' human text and the
 * CLI tables: rates in % and differences in percentage points, each with its 95% interval in the same unit —
 * `58.3% [44.1%, 71.2%]`, `+12.5 pts [-3.1 pts, +28.0 pts]`. An interval is shown only where it carries
 * information; otherwise `—`, with the reason beside (text) or on hover (pages). A zero-width interval is
 * never printed, whatever the caller passes.
 */

/** An interval as shown: its text (`—` when there is none) and why there is none. */
export interface ShownInterval {
  text: string;
  reason: string | null;
}

/** `58.3%`: a rate (0–1) in % with one decimal. */
export function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

/** `+12.5 pts` / `-3.1 pts`: a difference of rates (−1–1) in percentage points, signed. */
export function pts(x: number): string {
  const v = (100 * x).toFixed(1);
  return `${x >= 0 && !v.startsWith('-') ? '+' : ''}${v} pts`;
}

const ZERO_WIDTH = 'the interval has no width: nothing to estimate it from';

function shown(ci: readonly [number, number] | null | undefined, one: (x: number) => string, reason: string): ShownInterval {
  if (!ci) return { text: '—', reason };
  const [lo, hi] = [one(ci[0]), one(ci[1])];
  if (lo === hi) return { text: '—', reason: ZERO_WIDTH };
  return { text: `[${lo}, ${hi}]`, reason: null };
}

/** A rate's interval: `[44.1%, 71.2%]`, or `—` and the reason. */
export function rateCi(ci: readonly [number, number] | null | undefined, reason = 'no interval'): ShownInterval {
  return shown(ci, pct, reason);
}

/** A difference's interval, in percentage points: `[-3.1 pts, +28.0 pts]`, or `—` and the reason. */
export function diffCi(ci: readonly [number, number] | null | undefined, reason = 'no interval'): ShownInterval {
  return shown(ci, pts, reason);
}

/** Cohen's κ's interval: `[0.15, 0.65]`, or `—` and the reason. */
export function kappaCi(ci: readonly [number, number] | null | undefined, reason = 'no interval'): ShownInterval {
  return shown(ci, (x) => x.toFixed(2), reason);
}

/** A rate's 95% interval as text; `—` without one. */
export function formatCi(ci: readonly [number, number] | null | undefined): string {
  return rateCi(ci).text;
}

/** A difference's 95% interval as text (percentage points); `—` without one. */
export function formatDiffCi(ci: readonly [number, number] | null | undefined): string {
  return diffCi(ci).text;
}

/** `58.3% [44.1%, 71.2%]` — k/n as a rate with its 95% Wilson interval (which has width for every n ≥ 1); `—` when n is 0. */
export function rateWithInterval(k: number, n: number): string {
  const ci = wilson(k, n);
  if (!ci) return '—';
  return `${pct(ci.estimate)} ${rateCi([ci.low, ci.high]).text}`;
}

/** The Wilson interval of k/n, as shown. */
export function wilsonCi(k: number, n: number): ShownInterval {
  const ci = wilson(k, n);
  return rateCi(ci && [ci.low, ci.high], 'no decided trials');
}

/** Why a clustered estimate (as exported: no n, no reason) has no interval; null when it has one. */
export function clusteredReason(c: Pick<Clustered, 'estimate' | 'se' | 'ci95' | 'clusters'>): string | null {
  if (c.ci95) return null;
  if (c.estimate === null) return 'no observations';
  return clusteredIntervalReason({ n: 1, clusters: c.clusters, se: c.se }) ?? 'no interval';
}

/** A clustered (CR1) rate's interval, as shown. */
export function clusteredCi(c: Pick<Clustered, 'estimate' | 'se' | 'ci95' | 'clusters'>): ShownInterval {
  return rateCi(c.ci95, clusteredReason(c) ?? undefined);
}

/** A paired difference's CR1 interval, as shown (percentage points). */
export function differenceCi(d: Pick<Difference, 'estimate' | 'se' | 'ci95' | 'clusters'>): ShownInterval {
  return diffCi(d.ci95, clusteredReason(d) ?? undefined);
}

/** `1 cluster`, `24 clusters`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `28/48 58.3% [44.1%, 71.2%]` (+ unresolved / untested beside n when there are any). */
export function formatCount(c: PassCount): string {
  const base = c.n ? `${c.pass}/${c.n} ${rateWithInterval(c.pass, c.n)}` : `${c.pass}/${c.n}`;
  const beside = [c.unresolved ? `${c.unresolved} unresolved` : '', c.untested ? `${c.untested} untested` : ''].filter(Boolean);
  return beside.length ? `${base} (+${beside.join(', ')})` : base;
}

export function formatP(p: number | null): string {
  if (p === null) return '—';
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

/** A clustered rate's interval for a text table: `[44.1%, 71.2%]`, or `—` (the table's note says why). */
function clusteredText(c: Clustered): string {
  return clusteredCi(c).text;
}

/** The note under a text Table 1 that explains its dashes. */
export const NO_INTERVAL_NOTE = '—: no interval where there is nothing to estimate one from (fewer than two clusters, or no variance between them).';

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
    ...summary.studies.map((s) => (s.clustered ? `${clusteredText(s.clustered.baseline)} → ${clusteredText(s.clustered.treatment)}` : '—')),
  ]);
  rows.push([
    'difference, 95% CI',
    ...summary.studies.map((s) => (s.difference?.estimate != null ? `${pts(s.difference.estimate)} ${formatDiffCi(s.difference.ci95)}` : '—')),
  ]);
  if (summary.studies.some((s) => s.passK)) rows.push(['pass^k (plain rate)', ...summary.studies.map((s) => (s.passK ? formatPassK(s.passK) : ''))]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => [...(r[i] ?? '')].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c + ' '.repeat(widths[i] - [...c].length))
      .join('  ')
      .trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
  const dashes = summary.studies.some(
    (s) =>
      (s.clustered && (clusteredCi(s.clustered.baseline).reason || clusteredCi(s.clustered.treatment).reason)) || (s.difference && differenceCi(s.difference).reason),
  );
  if (dashes) out.push('', NO_INTERVAL_NOTE);
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

/**
 * The paired difference: `+37.5 pts [+20.1 pts, +54.9 pts] (CR1 SE 0.061, 48 pairs in 24 clusters, t on 23 df)`;
 * without an interval `+50.0 pts — (1 cluster: …; 4 pairs in 1 cluster)`.
 */
export function formatDifference(d: NonNullable<StudySummary['difference']>): string {
  if (d.estimate === null) return '—';
  const ci = differenceCi(d);
  const where = `${plural(d.pairs, 'pair')} in ${plural(d.clusters, 'cluster')}`;
  if (ci.reason) return `${pts(d.estimate)} — (${ci.reason}; ${where})`;
  return `${pts(d.estimate)} ${ci.text} (CR1 SE ${d.se!.toFixed(3)}, ${where}, t on ${d.df} df)`;
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
      ? `${clusteredText(s.clustered.baseline)} → ${clusteredText(s.clustered.treatment)} (${plural(s.clustered.treatment.clusters, `${s.clusterBy ?? 'case'} cluster`)})`
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
        x && x.flipRate !== null ? `${x.cases - x.consistent}/${x.cases} ${pct(x.flipRate)}` : '—';
      return o ? `${one(o.baseline)} → ${one(o.treatment)}` : '—';
    });
  out.push(
    '',
    'k/n with 95% Wilson interval; differences in percentage points; — where an interval has nothing to estimate from. n excludes unresolved and untested trials. Clustered intervals treat a case’s orders and replicates as one cluster.',
  );
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

/** The order's number, from 1 (lib/schema/trial-place.ts): every page's and export's. */
export { orderNumber };

/** A trial's order as every page shows it (`o1` is the first order sent), from its number. */
export const numberedOrderLabel = (n: number): string => `o${n}`;

/** A trial's order as every page shows it, from the stored index. */
export const orderLabel = (orderIndex: number): string => numberedOrderLabel(orderNumber(orderIndex));

/** A trial's order and replicate as every page shows them (`o1 / r1`; replicates are numbered from 1). */
export const placeLabel = (orderIndex: number, replicate: number): string => `${orderLabel(orderIndex)} / r${replicate}`;
