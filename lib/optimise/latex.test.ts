import { describe, expect, it } from 'vitest';
import type { OptimisationRow } from '../schema/optimisation';
import { optimisationRecord, storedDifference } from '../testing/optimisation-record';
import { recordLatex } from './latex';

// The record as LaTeX: the numbers the record holds, in booktabs tables whose rows keep their column count
// whatever the ids and sentences hold (LaTeX specials in user text escaped).

const d = storedDifference;

const record: OptimisationRow = {
  ...optimisationRecord,
  experimentId: 'exp_v2 & co',
  rule: { kind: 'top', m: 2 },
  candidates: [
    { condition: 'fix_50%&{x}', label: 'x', provenance: 'rule:restates-name', of: 'base', placebo: false, changes: [] },
    { condition: 'pad', label: 'p', provenance: 'placebo', of: 'base', placebo: true, changes: [] },
  ],
  winners: ['fix_50%&{x}'],
  look: 2,
  result: {
    select: {
      runId: 'r_sel',
      ranked: [
        {
          candidate: 'fix_50%&{x}',
          placebo: false,
          rank: 1,
          difference: d(0.25, [0.05, 0.45]),
          improved: 5,
          regressed: 0,
          pExact: 0.0625,
          beatsPlacebo: true,
          sideEffects: {
            newConfusions: [{ expected: 'get_x', chosen: 'browse&go', pairs: 3, cases: ['c_1'] }],
            perRequest: { requests: 4, inputTokens: 100, outputTokens: 10, cost: null },
          },
        },
        { candidate: 'pad', placebo: true, rank: 2, difference: d(0, null), improved: 0, regressed: 0, pExact: 1, beatsPlacebo: null },
      ],
    },
    confirm: ['simulated:a', 'simulated:b'].map((target, i) => ({
      target,
      runId: `r_${i}`,
      readings: [
        {
          candidate: 'fix_50%&{x}',
          selectEstimate: 0.25,
          difference: i === 0 ? d(0.5, [0.2, 0.8], 0.15) : d(0, [-0.1, 0.1], 0.05),
          improved: i === 0 ? 7 : 1,
          regressed: i === 0 ? 0 : 1,
          pExact: i === 0 ? 0.0156 : 1,
          pHolm: i === 0 ? 0.0312 : 1,
          claims: 2,
          vsPlacebo: null,
          reading: i === 0 ? ('confirmed' as const) : ('not-confirmed' as const),
          sentence: i === 0 ? 'confirmed: +50.0 pp' : 'not confirmed: the select-split gain (+25.0 pp) was not reproduced',
        },
      ],
    })),
    transfer: [
      {
        candidate: 'fix_50%&{x}',
        perTarget: [
          { target: 'simulated:a', difference: d(0.5, [0.2, 0.8], 0.15) },
          { target: 'simulated:b', difference: d(0, [-0.1, 0.1], 0.05) },
        ],
        heterogeneity: { q: 10, df: 1, p: 0.0016, i2: 0.9, pooled: 0.05, k: 2 },
      },
    ],
    earlierLookPs: [0.2],
  },
};

describe('recordLatex', () => {
  const tex = recordLatex(record);
  it('holds the seal and rule, the ranking with the winner, each confirmation with Holm, and transfer with Q', () => {
    expect(tex).toContain('sealed: 3 cases, sha256:abc. Rule, stated before the select run: the top 2.');
    expect(tex).toContain(
      '1 & fix\\_50\\%\\&\\{x\\} (winner) & rule:restates-name & +25.0 pts [+5.0 pts, +45.0 pts] & 5 / 0 & 0.063 & beats it & 3 pairs: get\\_x $\\rightarrow$ browse\\&go ×3 (c\\_1) & 100 in / 10 out tokens \\\\',
    );
    expect(tex).toContain('2 & pad & placebo & +0.0 pts (no interval) & 0 / 0 & 1.000 & --- & --- & --- \\\\');
    expect(tex).toContain('simulated:a & fix\\_50\\%\\&\\{x\\} & confirmed: +50.0 pp & +50.0 pts [+20.0 pts, +80.0 pts] & 7 / 0 & 0.016 & 0.031 (2) \\\\');
    expect(tex).toContain('simulated:b & fix\\_50\\%\\&\\{x\\} & not confirmed: the select-split gain (+25.0 pp) was not reproduced');
    expect(tex).toContain("Transfer of fix\\_50\\%\\&\\{x\\} across targets: Cochran's Q = 10.00 on 1 df, p = 0.002, I² = 90 \\%.");
    expect(tex.match(/\\begin\{table\}/g)).toHaveLength(3);
    expect(tex.match(/\\end\{table\}/g)).toHaveLength(3);
  });
  it('every row has as many cells as its table has columns; no unescaped special leaves a cell', () => {
    const tables = tex.split('\\begin{tabular}{').slice(1);
    for (const t of tables) {
      const columns = t.slice(0, t.indexOf('}')).length;
      const rows = t.split('\n').filter((l) => l.endsWith(' \\\\'));
      expect(rows.length).toBeGreaterThan(1);
      for (const row of rows) expect(row.replace(/\\&/g, '').split(' & ').length, row).toBe(columns);
      for (const row of rows)
        expect(
          row
            .replace(/\$\\rightarrow\$/g, '')
            .replace(/\\[%&_#${}]/g, '')
            .replace(/\\\\$/, ''),
          row,
        ).not.toMatch(/(?<!\\)[%_#${}]/);
    }
  });
  it('a catalog study adds the funnel column: the reading and both stages, arrows set in math mode', () => {
    const withFunnel = structuredClone(record);
    const [fix] = withFunnel.result!.select!.ranked;
    fix.sideEffects!.funnel = [
      {
        discovery: 'bm25-top-5',
        catalogSize: 8,
        visible: { improved: 6, same: 0, regressed: 0, pExact: 0.031 },
        chosen: { improved: 0, same: 0, regressed: 0, pExact: null },
        reading: 'found more often',
      },
    ];
    const t = recordLatex(withFunnel);
    expect(t).toContain('\\begin{tabular}{rllllrllll}');
    expect(t).toContain('bm25-top-5, N = 8: found more often --- found 6 $\\uparrow$ / 0 $\\downarrow$ of 6, chosen 0 $\\uparrow$ / 0 $\\downarrow$ of 0 \\\\');
    expect(t).toContain('2 & pad & placebo & +0.0 pts (no interval) & 0 / 0 & 1.000 & --- & --- & --- & --- \\\\');
    expect(t).not.toMatch(/[↑↓]/);
  });
});
