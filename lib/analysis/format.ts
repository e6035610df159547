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
  rows.push(['pairs improved/same/regressed', ...summary.studies.map((s) => `${s.pairs.improved} / ${s.pairs.same} / ${s.pairs.regressed}${s.pairs.incomplete ? ` (${s.pairs.incomplete} incomplete)` : ''}`)]);
  rows.push(['exact McNemar p', ...summary.studies.map((s) => formatP(s.mcnemarP))]);
  if (summary.studies.some((s) => s.passK)) rows.push(['pass^k (plain rate)', ...summary.studies.map((s) => (s.passK ? formatPassK(s.passK) : ''))]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => [...(r[i] ?? '')].length)));
  const line = (r: string[]) => r.map((c, i) => c + ' '.repeat(widths[i] - [...c].length)).join('  ').trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
  for (const s of summary.studies) {
    const cats = Object.entries(s.categories).filter(([, v]) => v.baseline || v.treatment);
    if (cats.length) out.push('', `${s.study} failure categories (${s.baseline} → ${s.treatment}): ${cats.map(([c, v]) => `${c} ${v.baseline} → ${v.treatment}`).join(', ')}`);
  }
  return out.join('\n');
}

/** `pass^3 0.42 (0.71) → 0.95 (0.98)`: pass^k of baseline → treatment with the plain rate of the same tasks. */
export function formatPassK(p: NonNullable<StudySummary['passK']>): string {
  const one = (x: PassK) => (x.passHatK === null ? '—' : `${x.passHatK.toFixed(2)} (${x.rate!.toFixed(2)})`);
  return `pass^${p.k} ${one(p.baseline)} → ${one(p.treatment)}`;
}
