import { describe, expect, it } from 'vitest';
import type { OptimisationRow, StoredDifference } from '../schema/optimisation';
import { recordMarkdown } from './markdown';

// The record as Markdown: its numbers as the record holds them, and tool text that cannot break the tables.

const d = (estimate: number | null, ci95: [number, number] | null): StoredDifference => ({
  estimate,
  se: null,
  ci95,
  ciReason: ci95 ? null : 'one case',
  pairs: 14,
  clusters: 2,
  df: 1,
});

const record: OptimisationRow = {
  id: 'opt_1',
  createdAt: new Date('2026-12-05T00:00:00Z'),
  updatedAt: new Date('2026-12-05T00:01:00Z'),
  actor: 'someone',
  experimentId: 'exp-v2',
  studyId: 'selection',
  splitSeed: 7,
  splitShares: { tune: 40, select: 30, confirm: 30 },
  sealed: { count: 3, sha256: 'sha256:abc' },
  rule: { kind: 'best' },
  targets: ['simulated:a', 'simulated:b'],
  candidates: [
    { condition: 'fix|pipe', label: 'x', provenance: 'rule:restates-name', of: 'base', placebo: false, changes: [] },
    { condition: 'pad', label: 'p', provenance: 'placebo', of: 'base', placebo: true, changes: [] },
  ],
  stage: 'confirmed',
  selectExperimentId: 'exp-v2.selection.select',
  selectRunId: 'r_sel',
  winners: ['fix|pipe'],
  frozenAt: new Date('2026-12-05T00:00:30Z'),
  look: 1,
  confirmExperimentId: 'exp-v2.selection.confirm',
  confirmRunIds: ['r_a', 'r_b'],
  result: {
    select: {
      runId: 'r_sel',
      ranked: [
        { candidate: 'fix|pipe', placebo: false, rank: 1, difference: d(0.25, [0.05, 0.45]), improved: 5, regressed: 0, pExact: 0.0625, beatsPlacebo: true },
        { candidate: 'pad', placebo: true, rank: 2, difference: d(0, null), improved: 0, regressed: 0, pExact: 1, beatsPlacebo: null },
      ],
    },
    confirm: [
      {
        target: 'simulated:a',
        runId: 'r_a',
        readings: [
          {
            candidate: 'fix|pipe',
            selectEstimate: 0.25,
            difference: d(0.5, [0.2, 0.8]),
            improved: 7,
            regressed: 0,
            pExact: 0.0156,
            pHolm: 0.0156,
            claims: 1,
            vsPlacebo: null,
            reading: 'confirmed',
            sentence: 'confirmed: +50.0 pp',
          },
        ],
      },
    ],
    transfer: [
      {
        candidate: 'fix|pipe',
        perTarget: [
          { target: 'simulated:a', difference: d(0.5, [0.2, 0.8]) },
          { target: 'simulated:b', difference: d(0, null) },
        ],
        heterogeneity: null,
      },
    ],
    earlierLookPs: [],
  },
  error: null,
};

describe('recordMarkdown', () => {
  it('holds the seal, the ranking with the winner, the confirmation and transfer', () => {
    const md = recordMarkdown(record);
    expect(md).toContain('sealed: 3 cases, `sha256:abc`');
    expect(md).toContain('| 1 | fix\\|pipe **(winner)** | rule:restates-name | +25.0 pts [+5.0 pts, +45.0 pts] | 5 / 0 | 0.063 | beats it |');
    expect(md).toContain('| 2 | pad | placebo | +0.0 pts (no interval: one case) | 0 / 0 | 1.000 | — |');
    expect(md).toContain(
      '- **fix\\|pipe: confirmed: +50.0 pp** — 7 improved / 0 regressed, +50.0 pts [+20.0 pts, +80.0 pts], exact p 0.016, Holm-adjusted p 0.016 over 1 claim',
    );
    expect(md).toContain('| `simulated:b` | +0.0 pts (no interval: one case) |');
    // every table row has as many cells as its header
    for (const line of md.split('\n').filter((l) => l.startsWith('| ')))
      expect(line.replace(/\\\|/g, '').split('|').length, line).toBe(line.includes('Target') || line.includes('`simulated') || line.startsWith('| --- | --- |') ? 4 : 9);
  });
});
