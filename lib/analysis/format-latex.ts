import type { RunSummary, StudySummary } from '../schema/table1';
import { formatCi, formatCount, formatDifference, formatP } from './format';

// Table 1 as a LaTeX table (booktabs) for a paper: the same rows as the Markdown summary (formatTable1Markdown),
// every cell escaped — a scenario, locale or condition id is user text — and the arrows and dashes of the
// text formatters set in math mode. Needs \usepackage{booktabs} (and UTF-8 input, the default since 2018).

const ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  '→': '$\\rightarrow$',
  '↑': '$\\uparrow$',
  '↓': '$\\downarrow$',
  '−': '$-$',
  '—': '---',
  '–': '--',
  '≥': '$\\geq$',
  '≤': '$\\leq$',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
};

/** Text as it reads, for a LaTeX table cell: specials escaped, line breaks as spaces. */
export function latexText(s: string): string {
  return s.replace(/[\r\n]+/g, ' ').replace(/[\\&%$#_{}~^→↑↓−—–≥≤<>]/g, (c) => ESCAPES[c]);
}

/** Table 1 (rows scenario × locale, one column per study, then the totals and the paired statistics) as LaTeX. */
export function formatTable1Latex(summary: RunSummary, title: string): string {
  const studies = summary.studies;
  const keys: string[] = [];
  for (const s of studies) for (const r of s.rows) if (!keys.includes(`${r.scenario} / ${r.locale}`)) keys.push(`${r.scenario} / ${r.locale}`);
  const line = (cells: string[]) => `${cells.join(' & ')} \\\\`;
  const row = (label: string, f: (s: StudySummary) => string) => line([latexText(label), ...studies.map((s) => latexText(f(s)))]);
  const out = [
    '\\begin{table}[ht]',
    '\\centering',
    `\\caption{${latexText(title)}}`,
    `\\begin{tabular}{l${'l'.repeat(studies.length)}}`,
    '\\toprule',
    line(['scenario / locale', ...studies.map((s) => latexText(`${s.study}: ${s.baseline} → ${s.treatment}`))]),
    '\\midrule',
    ...keys.map((k) =>
      line([
        latexText(k),
        ...studies.map((s) => {
          const r = s.rows.find((x) => `${x.scenario} / ${x.locale}` === k);
          return r ? latexText(`${formatCount(r.baseline)} → ${formatCount(r.treatment)}`) : '';
        }),
      ]),
    ),
    '\\midrule',
    row('Total', (s) => `${formatCount(s.total.baseline)} → ${formatCount(s.total.treatment)}`),
    row('clustered 95% CI (CR1)', (s) => (s.clustered ? `${formatCi(s.clustered.baseline.ci95)} → ${formatCi(s.clustered.treatment.ci95)}` : '—')),
    row(
      'pairs improved / same / regressed',
      (s) => `${s.pairs.improved} / ${s.pairs.same} / ${s.pairs.regressed}${s.pairs.incomplete ? ` (${s.pairs.incomplete} incomplete)` : ''}`,
    ),
    row('paired difference', (s) => (s.difference ? formatDifference(s.difference) : '—')),
    row('McNemar exact p / mid-p', (s) => (s.mcnemar ? `${formatP(s.mcnemar.pExact)} / ${formatP(s.mcnemar.pMid)}` : formatP(s.mcnemarP))),
    '\\bottomrule',
    '\\end{tabular}',
    `\\par\\smallskip\\footnotesize ${latexText('k/n with 95% Wilson interval; n excludes unresolved and untested trials. Clustered intervals treat a case’s orders and replicates as one cluster.')}`,
    '\\end{table}',
  ];
  return `${out.join('\n')}\n`;
}
