import { describe, expect, it } from 'vitest';
import type { TrialOutcome } from '../schema/table1';
import { summarizeRun, type SummarySpec } from './summary';
import { formatTable1Markdown } from './format';
import { formatTable1Latex, latexText } from './format-latex';
import { pairKeyOf } from '../design/matrix';

// Table 1 for reports (docs/results.md): the Markdown and LaTeX downloads of the run page, from a RunSummary.

const spec: SummarySpec = {
  scenarios: [{ id: 'book_&_pay' }, { id: 'invoice' }],
  locales: ['en'],
  studies: [
    {
      id: 'selection',
      kind: 'selection',
      conditions: [
        { id: 'over_lapping', baseline: true },
        { id: 'clear', baseline: false },
      ],
    },
  ],
};

function trials(): TrialOutcome[] {
  const out: TrialOutcome[] = [];
  let n = 0;
  // book_&_pay: 2 of 4 → 4 of 4; invoice: 1 of 2 → 2 of 2
  for (const [scenario, pairs] of [
    [
      'book_&_pay',
      [
        ['failed', 'passed'],
        ['failed', 'passed'],
        ['passed', 'passed'],
        ['passed', 'passed'],
      ],
    ],
    [
      'invoice',
      [
        ['failed', 'passed'],
        ['passed', 'passed'],
      ],
    ],
  ] as const) {
    for (const [b, t] of pairs) {
      const caseId = `c${n++}`;
      const pairKey = pairKeyOf({ study: 'selection', scenario, locale: 'en', caseId, orderIndex: 0, replicate: 1 });
      const at = { study: 'selection', scenario, locale: 'en', caseId, orderIndex: 0, replicate: 1, pairKey, categories: [] };
      out.push({ id: `${pairKey}|b`, condition: 'over_lapping', status: b, ...at }, { id: `${pairKey}|t`, condition: 'clear', status: t, ...at });
    }
  }
  return out;
}

describe('Table 1 for reports', () => {
  const summary = summarizeRun(spec, trials());

  it('Markdown: a header, one row per scenario × locale, the totals and the paired rows', () => {
    const md = formatTable1Markdown(summary, 'Run r_1 — v2 descriptions');
    const lines = md.split('\n');
    expect(lines[0]).toBe('## Run r_1 — v2 descriptions');
    expect(lines).toContain('| scenario / locale | selection: over_lapping → clear |');
    expect(md).toMatch(/\| book_&_pay \/ en \| 2\/4 50\.0% \[[\d.]+%, [\d.]+%\] → 4\/4 100\.0% \[[\d.]+%, 100\.0%\] \|/);
    expect(md).toMatch(/\| \*\*Total\*\* \| 3\/6 50\.0% .* → 6\/6 100\.0% .* \|/);
    expect(md).toContain('| pairs improved / same / regressed | 3 / 3 / 0 |');
  });

  it('LaTeX: a booktabs table whose cells are escaped and whose arrows are math', () => {
    const tex = formatTable1Latex(summary, 'Run r_1: 100% & more');
    expect(tex).toContain('\\caption{Run r\\_1: 100\\% \\& more}');
    expect(tex).toContain('\\begin{tabular}{ll}');
    expect(tex).toContain('scenario / locale & selection: over\\_lapping $\\rightarrow$ clear \\\\');
    expect(tex).toMatch(/\nbook\\_\\&\\_pay \/ en & 2\/4 50\.0\\% \[[\d.]+\\%, [\d.]+\\%\] \$\\rightarrow\$ 4\/4 100\.0\\% \[[\d.]+\\%, 100\.0\\%\] \\\\\n/);
    expect(tex).toMatch(/\nTotal & 3\/6 50\.0\\% .* \$\\rightarrow\$ 6\/6 100\.0\\% .* \\\\\n/);
    expect(tex).toContain('pairs improved / same / regressed & 3 / 3 / 0 \\\\');
    // balanced: every row has as many cells as the header, and the environments close
    for (const l of tex.split('\n').filter((x) => x.endsWith('\\\\'))) expect(l.split(' & ')).toHaveLength(2);
    expect(tex.trimEnd().endsWith('\\end{table}')).toBe(true);
    expect(tex.match(/\\begin\{/g)).toHaveLength(2);
    expect(tex.match(/\\end\{/g)).toHaveLength(2);
  });

  it('escapes every LaTeX special character of user text', () => {
    expect(latexText('a\\b&c%d$e#f_g{h}i~j^k<l>m\nn')).toBe(
      'a\\textbackslash{}b\\&c\\%d\\$e\\#f\\_g\\{h\\}i\\textasciitilde{}j\\textasciicircum{}k\\textless{}l\\textgreater{}m n',
    );
  });
});
